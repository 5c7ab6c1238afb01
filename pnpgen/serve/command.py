"""`pnpgen serve`: `watch`, with a page on 127.0.0.1 that shows every face it builds (see `pnpgen.serve`).

Between a save and its build, `Sketcher` looks at what the save changed: when it is a few cards of a deck, it
draws just those cards from the saved content and the page shows them at once (`Preview.sketch`); the build
that follows is the one `build` runs, untouched, and its files replace them on the page."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pnpgen.inputs import Reader

if TYPE_CHECKING:
    from pnpgen.model import Game

MOST = 4  # cards drawn ahead of their build; a save that changes more waits for the build


@dataclass
class Changed:
    """A card a save changed, drawn from the saved content."""

    deck: object  # pnpgen.model.Deck, as saved
    was: tuple[str, int]  # the card's name and source line as the page shows them (its last good build)
    card: object  # pnpgen.model.Card, as saved
    front: object  # pnpgen.faces.Face
    back: object  # pnpgen.faces.Face | None


class Sketcher:
    """Draws the cards a save changed before the build does. Knows each game's last good model (the cards the page
    shows) and, keyed by the game's palette and checked against the files they were read from, its icons (the
    part of loading a game that is slowest and changes least)."""

    def __init__(self, project):
        self.project = project
        self.models: dict[str, Game] = {}  # game -> the model of its last good build
        self._icons: dict[str, tuple] = {}  # game -> (palette and icons file, what loading them read, icons)

    def remember(self, results: list) -> None:
        """Keep each good build's model. A game built in a worker process comes back without it: it is read here,
        as a look reads it; so are a game's icons the first time (the first save then finds them ready)."""
        from pnpgen.errors import ContentError, Diagnostics
        from pnpgen.schema import load_game

        for r in results:
            if not r.ok:
                continue
            root = self.project.content / r.game
            reader = self.reader(root)
            try:
                model = getattr(r, "model", None) or load_game(root, reader, Diagnostics())
                self.models[r.game] = model
                if r.game not in self._icons:
                    self.icons(model, reader)
            except (ContentError, OSError):
                self.models.pop(r.game, None)  # the content changed again since: the next save loads it

    def reader(self, root: Path) -> Reader:
        """A reader sharing the resident project's parses (`Memo.parses`) with its builds: a look parses the
        saved files, and the build that follows finds them parsed."""
        return Reader(self.project.roots_of(root), self.project.root, self.project.memo.parses)

    def look(self, games: list[str], paths: list[str]) -> tuple[str, list[Changed], dict] | None:
        """(game, its changed cards drawn, its icons) when the save changed a few cards of one game's decks and
        nothing else they show; None otherwise, or when anything fails (the build then says what)."""
        from pnpgen.errors import ContentError, Diagnostics
        from pnpgen.model import Deck
        from pnpgen.schema import load_game

        if len(games) != 1 or games[0] not in self.models:
            return None
        game, project = games[0], self.project
        old = {c.id: c for c in self.models[game].components if isinstance(c, Deck)}
        root = project.content / game
        reader = self.reader(root)
        keys = {reader.key(Path(p)) for p in paths}
        if not any(key in deck.inputs for deck in old.values() for key in keys):
            return None  # not a deck's file (a layout, the rulebook, game.yaml): faces may change everywhere
        shared = project.shared_layouts  # refused as the build refuses them, before anything is read
        if root.is_symlink() or (
            os.path.lexists(shared) and not shared.resolve().is_relative_to(project.root)
        ):
            return None
        try:
            new = load_game(root, reader, Diagnostics())
            changed = [
                (deck, card, was)
                for deck in new.components
                if isinstance(deck, Deck) and deck.id in old
                for card, was in _changed(old[deck.id], deck)
            ]
            if not changed or len(changed) > MOST:
                return None
            if project.printing_for(new.printing).inks != ("full",):
                return None  # its low-ink files picture the cards too, in other colours
            drawn, icons = self._draw(new, reader, changed)
            return (game, drawn, icons) if drawn else None  # a card that does not draw: the build says why
        except (ContentError, OSError):
            return None

    def _draw(self, game, reader, changed: list) -> tuple[list[Changed], dict]:
        from pnpgen.errors import ContentError, Diagnostics
        from pnpgen.layout.spec import LayoutLibrary
        from pnpgen.pipeline.assets import game_fonts
        from pnpgen.pipeline.faces import Painter
        from pnpgen.templating import Compiler

        fonts = game_fonts(game)
        icons = self.icons(game, reader)
        if icons is None:
            raise ContentError.at(game.loc, "its icons do not load")  # the build says where
        library = LayoutLibrary(
            self.project.layout_folders(game.root),
            Compiler(),
            reader,
            palette=game.palette,
            icons=icons,
            fonts=fonts,
        )
        painter = Painter(game, library, icons, reader, fonts)
        out = []
        for deck, card, was in changed:
            front, back, ok = painter.card(deck, card, painter.context(deck), Diagnostics())
            if ok and front is not None:
                out.append(Changed(deck, was, card, front, back))
        return out, icons

    def icons(self, game, reader) -> dict | None:
        """The game's icons: those loaded for its last look while its palette and their files are the same."""
        from pnpgen.errors import Diagnostics
        from pnpgen.pipeline.assets import game_icons
        from pnpgen.pipeline.freshness import inputs_hold

        key = (repr(sorted(game.palette.items())), repr(game.icons_file))
        known = self._icons.get(game.id)
        roots = [r.resolve() for r in self.project.roots_of(game.root)]
        if known is not None and known[0] == key and inputs_hold(known[1], self.project.root, roots):
            reader.replay(known[1])
            return known[2]
        found = Diagnostics()
        with reader.recording() as read:
            icons = game_icons(game, found, reader)
        if found.errors:
            return None
        self._icons[game.id] = (key, read, icons)
        return icons


def _changed(old, new) -> list:
    """The cards of deck `new` that differ from those of `old` at the same place, with the old one's name and
    line; none when cards were added, removed or moved (the page's items would no longer line up)."""
    if len(old.cards) != len(new.cards):
        return []
    return [(b, (a.name, a.loc.line)) for a, b in zip(old.cards, new.cards) if _sign(a) != _sign(b)]


def _sign(card) -> tuple:
    refs = tuple(None if r is None else (r.layout, dict(r.fields)) for r in (card.front, card.back))
    return card.index, card.name, card.count, card.designed, dict(card.fields), refs


def run(
    project,
    names: list[str] | None,
    echo: Callable[[str, bool], None],
    report: Callable,
    host: str = "127.0.0.1",
    port: int = 8765,
    poll: bool = False,
    check: bool = True,
    stop_event=None,
) -> None:
    from pnpgen.commands import watch
    from pnpgen.serve.editor import Editor
    from pnpgen.serve.guard import Guard, loopback
    from pnpgen.serve.preview import Preview
    from pnpgen.serve.server import make_server

    roots = project.select(names)  # usage errors before anything starts
    preview = Preview(project, [r.name for r in roots])
    sketcher = Sketcher(project)
    guard = Guard(host, port)
    try:
        editor = Editor(project, preview, sketcher)
        server = make_server(preview, guard, editor)
    except (OSError, OverflowError) as exc:
        from pnpgen.errors import UsageProblem, printable

        reason = getattr(exc, "strerror", None) or exc
        raise UsageProblem(f"cannot listen on {printable(host)}:{port}: {reason}") from None
    threading.Thread(target=server.serve_forever, name="pnpgen-serve", daemon=True).start()
    echo(f"serving {guard.url()} (Ctrl-C to stop)", False)
    if not loopback(host):
        echo(
            f"warning: listening on {host}, beyond this machine: anyone who can reach it and learns the page's "
            "address (its token) can read the game; use --host 127.0.0.1 unless you mean to share it",
            True,
        )

    def before(games: list[str], paths: list[str], started: float) -> None:
        editor.wait()  # a gesture's face first, then the build its write started
        looked = sketcher.look(games, paths)
        if looked is not None:
            preview.sketch(*looked, started=started)

    def after(results: list, started: float) -> None:
        sketcher.remember(results)
        preview.update(results, started)

    try:
        watch.run(
            project,
            names,
            echo,
            report,
            stop_event,
            poll,
            check,
            after=after,
            early=preview.early,
            before=before,
        )
    finally:
        server.shutdown()
        server.server_close()

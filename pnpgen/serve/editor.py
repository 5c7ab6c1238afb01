"""The editor's routes: a card's faces with their elements (`GET /look`), and writes (`POST /edit`).

`/look?game=G&component=C&card=N` draws card N of deck C from the files as they are on disk now (not the last
build: right after a write the page shows its result without waiting for the build that follows), each face
large (`look.ZOOM_DPI`, with its bleed) under `/img/z<digest>.png`, and says what each element is
(`serve/look.py`) and the sha256 of every layout file it names.

`POST /edit` takes one JSON object: `op`, `file` (as `/look` named it), `digest` (the file's sha256 when the
page read it), what the op needs, and the card the page shows (`component`, `card`: the answer then carries its
new look, drawn before the build the write starts). The ops: set, add, delete, duplicate and order a layout's
elements; field, a card's own value in its YAML or CSV file; restore, a version of a file this run wrote or
replaced (undo, redo); adopt, a shared or built-in layout copied into the game. A write goes only to the game's
own layouts and card files (`look.Writable`, the engine's rule), only over the bytes the page read (else 409:
the page reloads), with values checked by the build's field tables first, through the `pnpgen edit` engine
(`serve/writes.py`). The answer is the file's new digest and the one it had, which undo and redo send back.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

from pnpgen.errors import ContentError, Diagnostics, printable
from pnpgen.serve import look as looks
from pnpgen.serve import writes

OPS = ("set", "add", "delete", "duplicate", "order", "field", "restore", "adopt")


class Editor:
    def __init__(self, project, preview, sketcher):
        self.project, self.preview, self.sketcher = project, preview, sketcher
        self._lock = threading.Lock()  # one look or write at a time: they draw with the build's machinery
        self.history = writes.History()

    # -- routes ------------------------------------------------------------------------------------------------
    def get(self, path: str, query: dict[str, list[str]]) -> tuple[int, dict] | None:
        if path != "/look":
            return None
        one = {k: v[0] for k, v in query.items() if v}
        game, component, card = one.get("game", ""), one.get("component", ""), one.get("card", "0")
        if game not in self.preview.order or not (card.isascii() and card.isdigit() and len(card) < 7):
            return 404, {"error": "no such game or card"}
        with self._lock:
            return self._look(game, component, int(card))

    def post(self, path: str, body: bytes) -> tuple[int, dict] | None:
        if path != "/edit":
            return None
        try:
            asked = json.loads(body, parse_constant=_no_constant)
        except (ValueError, UnicodeDecodeError, RecursionError):
            return 400, {"error": "the body must be a JSON object"}
        if not isinstance(asked, dict) or asked.get("op") not in OPS:
            return 400, {"error": f"'op' must be one of {', '.join(OPS)}"}
        game = asked.get("game")
        if not isinstance(game, str) or game not in self.preview.order:
            return 404, {"error": "no such game"}
        with self._lock:
            return self._edit(game, asked)

    # -- what they do ------------------------------------------------------------------------------------------
    def _loaded(self, game: str):
        """The game as its files are now: model, reader, layout library, icons and fonts."""
        from pnpgen.layout.spec import LayoutLibrary
        from pnpgen.pipeline.assets import game_fonts
        from pnpgen.schema import load_game
        from pnpgen.templating import Compiler

        root = self.project.content / game
        reader = self.sketcher.reader(root)
        model = load_game(root, reader, Diagnostics())
        fonts = game_fonts(model)
        icons = self.sketcher.icons(model, reader)
        if icons is None:
            raise ContentError.at(model.loc, "its icons do not load")
        library = LayoutLibrary(
            self.project.layout_folders(model.root),
            Compiler(),
            reader,
            palette=model.palette,
            icons=icons,
            fonts=fonts,
        )
        return model, reader, library, icons, fonts

    def _look(self, game: str, component: str, card: int) -> tuple[int, dict]:
        from pnpgen.faces import face_digest
        from pnpgen.serve.preview import draw_alone

        try:
            model, reader, library, icons, fonts = self._loaded(game)
            seen = looks.look(model, reader, library, icons, fonts, component, card)
        except KeyError:
            return 404, {"error": f"no card {card} in a deck '{printable(component)}'"}
        except ContentError as exc:
            return 422, {"error": _first(exc)}
        files: dict[str, str] = {}
        writable = looks.Writable(model.root)
        for face in seen["faces"]:
            drawn = face.pop("face")
            key = "z" + face_digest(drawn)
            if self.preview.image(key) is None:
                longest = max(drawn.width_pt, drawn.height_pt) + 2 * drawn.bleed_pt  # a board: at most MAX_PX
                dpi = min(looks.ZOOM_DPI, looks.MAX_PX * 72 / longest)
                images = draw_alone([drawn], icons, dpi=dpi, bleed=True)
                if images:
                    self.preview.keep(key, images[0])
            face["image"] = f"/img/{key}.png"
            layout = library.get(face["layout"], model.loc)
            face["file"] = _shown(layout.path)
            face["readonly"] = writable.why_not(layout.path)
            mine = model.root / "layouts" / layout.path.name
            face["adopt"] = bool(face["readonly"]) and layout.path.suffix == ".yaml" and not mine.exists()
            for name in [face["file"]] + [e["file"] for e in face["elements"]]:
                if name not in files:
                    files[name] = writes.digest_of(Path(name))
        edit = seen.get("card_edit")
        if edit is not None:
            files.setdefault(edit["file"], writes.digest_of(Path(edit["file"])))
            if not edit["readonly"]:
                cards = looks.Writable(model.root, _card_files(self.project, model))
                edit["readonly"] = cards.why_not(Path(edit["file"]))
        seen["files"] = files
        seen["palette"] = sorted(model.palette)
        seen["icons"] = sorted(icons)[:400]
        seen["art"] = _art(model.root)
        return 200, seen

    def _edit(self, game: str, asked: dict) -> tuple[int, dict]:
        root = self.project.content / game
        file, digest, op = asked.get("file"), asked.get("digest"), asked["op"]
        if not isinstance(file, str) or not isinstance(digest, str):
            return 400, {"error": "a write names its 'file' and the 'digest' it had when the page read it"}
        path = Path(file)
        if op == "adopt":
            return self._adopt(game, path, digest, asked)
        from pnpgen.layout.kinds import Known

        unloaded = ""
        try:
            model, _reader, library, _icons, _fonts = self._loaded(game)
            known, cards = library.known, _card_files(self.project, model)
        except ContentError as exc:
            # the game does not load as it stands: its layouts can still be edited, or undone
            known, cards, unloaded = Known(), frozenset(), _first(exc)
        refused = looks.Writable(root, cards).why_not(path)
        if refused and unloaded:  # its card files are known only from the game as loaded
            refused += f" (the game does not load as it stands: {unloaded})"
        if refused and op == "restore" and self.history.wrote(path):
            refused = ""  # bytes the page itself saw in this file
        layout = path.suffix == ".yaml" and path.resolve().parent == (root / "layouts").resolve()
        if not refused and op != "restore" and layout == (op == "field"):
            refused = "a layout's elements and a card's fields are written by their own ops"
        if refused:
            return 403, {"error": f"{printable(file)}: {refused}"}
        now = writes.digest_of(path)
        if now != digest:
            return 409, {
                "error": f"{printable(file)} changed on disk since the page read it: reloaded",
                "digest": now,
            }
        try:
            before = path.read_bytes()
            if op == "restore":
                done = self.history.restore(path, digest, asked.get("to"))
            elif op == "field":
                done = writes.card_field(path, asked, self.history)
            else:
                done = writes.apply(path, asked, known, self.history)
            if op != "restore":  # undo and redo put back bytes this page had: never refused
                refused = self._held(game, path, before, (asked.get("component"), asked.get("card")))
                if refused:
                    return 422, {"error": refused}
        except writes.Refused as exc:
            return exc.code, {"error": exc.message}
        except ContentError as exc:
            return 422, {"error": _first(exc)}
        answer: dict = {"file": file, "before": digest, "digest": done}
        component, card = asked.get("component"), asked.get("card")
        if isinstance(component, str) and isinstance(card, int) and not isinstance(card, bool):
            code, seen = self._look(game, component, card)  # the face redrawn, in the same round trip
            if code == 200:
                answer["look"] = seen
        return 200, answer

    def _held(self, game: str, path: Path, before: bytes, shown: tuple) -> str:
        """'' when the build takes the file as written; else its bytes `before` are put back and the first error
        the write brought is returned (`serve/verify.py`; `shown`: the page's component and card)."""
        from pnpgen.edit.textfile import read, write
        from pnpgen.serve import verify

        card = shown[1] if isinstance(shown[1], int) and not isinstance(shown[1], bool) else None
        focus = (shown[0], card) if card is not None else None
        after = verify.problems(self._loaded, game, path, focus)
        if not after:
            return ""
        written = path.read_bytes()
        write(read(path), before.decode("utf-8"))
        new = verify.new_problem(after, verify.problems(self._loaded, game, path, focus))
        if not new:  # the game failed as much before: the write is kept
            write(read(path), written.decode("utf-8"))
            return ""
        return f"not written: the build would refuse it: {new}"

    def _adopt(self, game: str, path: Path, digest: str, asked: dict) -> tuple[int, dict]:
        """A shared or built-in layout copied into the game's own `layouts/` (found there first from now on, so
        the game draws with the copy, which the page may edit); an existing file is never replaced."""
        from pnpgen.project import BUILTIN_LAYOUTS

        root = self.project.content / game
        try:
            real = path.resolve()
        except OSError:
            real = path
        folders = [self.project.shared_layouts.resolve(), BUILTIN_LAYOUTS.resolve()]
        if real.suffix != ".yaml" or real.parent not in folders or not real.is_file() or path.is_symlink():
            return 403, {"error": f"{printable(str(path))}: not a shared or built-in layout"}
        data = real.read_bytes()
        if writes.hashlib.sha256(data).hexdigest() != digest:
            return 409, {"error": f"{printable(str(path))} changed on disk since the page read it: reloaded"}
        target = root / "layouts" / real.name
        try:
            writes.create(target, data)
        except FileExistsError:
            return 409, {"error": f"{_shown(target)} is there already: the game uses it"}
        answer: dict = {"file": _shown(target), "before": "", "digest": digest}
        component, card = asked.get("component"), asked.get("card")
        if isinstance(component, str) and isinstance(card, int) and not isinstance(card, bool):
            code, seen = self._look(game, component, card)
            if code == 200:
                answer["look"] = seen
        return 200, answer

    def wait(self) -> None:
        """Until the look or write under way is done (the watch's build waits for it: a gesture's face is drawn
        first, without a build competing for the same interpreter)."""
        with self._lock:
            pass


def _card_files(project, model) -> frozenset[Path]:
    """The files the game's decks read their cards from (the engine's `card_files_of`)."""
    from pnpgen.edit import card_files_of
    from pnpgen.model import Deck

    return frozenset(card_files_of([c for c in model.components if isinstance(c, Deck)], project.root))


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number a layout can hold")


def _first(exc: ContentError) -> str:
    d = next((d for d in exc.diagnostics.sorted() if d.severity == "error"), None)  # the cause, as printed
    return printable(f"{d.location}: {d.message}") if d is not None else printable(str(exc))


def _shown(path: Path) -> str:
    from pnpgen.errors import display_path

    return display_path(path)


def _art(game_root: Path) -> list[str]:
    folder = game_root / "art"
    try:
        names = sorted(
            p.name for p in folder.iterdir() if p.suffix.lower() in (".png", ".jpg", ".jpeg", ".svg")
        )
    except OSError:
        return []
    return names[:200]

"""Rulebook sources: Markdown with Jinja over the game's content -> a small block model.

`content/<game>/rulebook.md` (or every .md file of `content/<game>/rulebook/`, in name order) is rendered as a
sandboxed Jinja template -- so counts come from the content and cannot disagree with the cards -- then parsed
with markdown-it-py. No reportlab here: `render/book.py` draws the blocks.

Template names: `game` (id, title, players, credits), `components` (by id: name, kind, faces, cards), and
`picture(id, card)` / `component_table()` / `diagram(id)`, which place a drawing of a component's card (front and
back), the table of all components, and a diagram drawn from `diagrams/<id>.yaml` (see `rulebook.diagrams`).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from pnpgen.errors import Diagnostics, Location, display_path
from pnpgen.rulebook.sources import (
    SCOPE,
    component_info,
    find_sources,
    read_source,
    render_source,
    template_data,
)

if TYPE_CHECKING:
    from pnpgen.rulebook.blocks import (
        ComponentTable,
        Diagram,
        Heading,
        ListBlock,
        Para,
        Picture,
        Quote,
        Rule,
        Rulebook,
        TableBlock,
    )
    from pnpgen.rulebook.checks import check_component_counts, check_keywords
    from pnpgen.rulebook.markdown import parse

# Loaded when first asked for: a build finds a game's rulebook files (`find_sources`) before it knows whether it
# parses them, and a game without a rulebook never needs the block model, its checks or markdown-it.
_LAZY = {
    **dict.fromkeys(
        ("ComponentTable", "Diagram", "Heading", "ListBlock", "Para", "Picture", "Quote", "Rule", "Rulebook"),
        "blocks",
    ),
    "TableBlock": "blocks",
    "check_component_counts": "checks",
    "check_keywords": "checks",
    "parse": "markdown",
}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        return getattr(import_module(f"pnpgen.rulebook.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'pnpgen.rulebook' has no attribute {name!r}")


__all__ = [
    "ComponentTable",
    "Diagram",
    "Heading",
    "ListBlock",
    "Para",
    "Picture",
    "Quote",
    "Rule",
    "Rulebook",
    "TableBlock",
    "check_component_counts",
    "check_keywords",
    "component_info",
    "find_sources",
    "load_rulebook",
    "parse",
    "read_source",
    "values_hold",
]


def load_rulebook(run, diags: Diagnostics):
    """Render and parse the game's rulebook and draw every deck's pictured card (its `picture:`).

    Returns (book, component info, pictures). Everything read is recorded by the run's reader: the sources, the
    layouts and art of the pictures, and the values of the content the text shows."""
    from pnpgen.model import Board
    from pnpgen.rulebook.blocks import Rulebook
    from pnpgen.rulebook.checks import _walk, check_glyphs
    from pnpgen.rulebook.markdown import parse
    from pnpgen.schema.pictured import picture_index

    game, reader = run.game, run.reader
    sources = find_sources(game.root, reader)
    if not sources:
        return None, {}, {}
    for key in ("title", "players", "credits"):  # the cover and the running header
        reader.note_value(f"{SCOPE}game/{key}", getattr(game, key))
    book = Rulebook(sources[0], title="")
    errors = len(diags.errors)
    kept = run.memo.sources(game.id)  # a resident process: each source's last text and tokens
    for src in sources:  # each on its own, so every block knows its own file and line
        parse(render_source(src, game, reader), src, diags, book, kept)
    if not book.title and len(diags.errors) == errors:  # a source refused unread has not lost its title
        diags.error(Location(display_path(sources[0]), 1, 1), "a rulebook needs a '# Title' heading")
    pictures, refused = {}, set()
    for deck in game.components:
        if isinstance(deck, Board):
            continue
        if deck.picture is not None and picture_index(deck, diags) is None:
            refused.add(deck.id)  # its `picture` names no card: reported at the key
            continue
        faces = run.first_faces(deck)
        if faces is not None:
            pictures[deck.id] = faces
            reader.note_value(f"{SCOPE}picture/{deck.id}", _snapshot(faces))
    _plan_diagrams(run, book, diags)
    from pnpgen.rulebook.diagrams import load_cover

    with run.using() as used:
        book.cover = load_cover(run, diags)
    if book.cover is not None:
        reader.note_value(f"{SCOPE}cover", book.cover.snapshot())
        _remember(run, "cover", used, book.cover.snapshot())
    _named_pictures(run, book, diags)
    check_glyphs(book, game, run.icons, diags)
    for block in _walk(book.blocks):
        if getattr(block, "card", None) is not None:
            continue  # a named card: drawn, or reported, by _named_pictures
        if getattr(block, "component", None) and block.component not in pictures.keys() | refused:
            diags.error(
                Location(block.path or display_path(book.path), block.line, 1),
                f"picture(): component '{block.component}' has no card to draw",
            )
    return book, component_info(game), pictures


def _named_pictures(run, book, diags: Diagnostics) -> None:
    """Each picture(id, card) draws the card it names (by id, or by a name no other card has): reordering the
    component's file changes no picture. Its faces are recorded as a value (`card/<id>/<card>`)."""
    from pnpgen.model import Board
    from pnpgen.rulebook.blocks import Picture
    from pnpgen.rulebook.checks import _walk

    by_id = {c.id: c for c in run.game.components}
    for block in _walk(book.blocks):
        if (
            not isinstance(block, Picture)
            or block.card is None
            or (block.component, block.card) in book.cards
        ):
            continue
        deck = by_id.get(block.component)
        called = Location(block.path or display_path(book.path), block.line, 1)
        if deck is None or isinstance(deck, Board):
            diags.error(called, f"picture(): component '{block.component}' has no card to draw")
            continue
        faces, name = _card_faces(run, deck, block.card, diags, called)
        if faces is not None:
            book.cards[(block.component, block.card)] = faces
            book.card_names[(block.component, block.card)] = name  # its caption names it
            run.reader.note_value(f"{SCOPE}card/{deck.id}/{block.card}", f"{name}\n--\n{_snapshot(faces)}")


def _card_faces(run, deck, card: str, diags: Diagnostics, called: Location):
    from pnpgen.schema.pictured import card_index

    index = card_index(deck, card, False, called, diags)
    faces = run.card_faces(deck, index, diags) if index is not None else None
    if index is not None and faces is None:
        diags.consequence(called, f"picture(): card {card!r} of '{deck.id}' could not be drawn")
    return faces, deck.cards[index].name if index is not None else card


def _plan_diagrams(run, book, diags: Diagnostics) -> None:
    """Every diagram the book calls, read, checked and planned once; what each shows is recorded as a value."""
    from pnpgen.rulebook.blocks import Diagram
    from pnpgen.rulebook.checks import _walk
    from pnpgen.rulebook.diagrams import load_diagram
    from pnpgen.schema.diagrams import MAX_DIAGRAMS, MAX_PLACED

    placed = 0
    for block in _walk(book.blocks):
        if not isinstance(block, Diagram):
            continue
        placed += 1
        called = Location(block.path or display_path(book.path), block.line, 1)
        if placed > MAX_PLACED:
            diags.error(called, f"a rulebook places at most {MAX_PLACED} diagrams")
            return
        if block.diagram in book.diagrams:
            continue
        if len(book.diagrams) >= MAX_DIAGRAMS:
            diags.error(called, f"a rulebook shows at most {MAX_DIAGRAMS} different diagrams")
            return
        with run.using() as used:
            plan = load_diagram(run, block.diagram, diags, called)
        book.diagrams[block.diagram] = plan
        if plan is not None:
            run.reader.note_value(f"{SCOPE}diagram/{block.diagram}", plan.snapshot())
            _remember(run, f"diagram/{block.diagram}", used, plan.snapshot())


def values_hold(run, inputs: dict, drawn_on: dict | None = None) -> bool:
    """Whether the content values a rulebook recorded are still what they were (see `pnpgen.recorded`). `drawn_on`
    is what its last build found each diagram and the cover to draw on (its manifest entry's `shown`)."""
    from pnpgen.model import Board
    from pnpgen.recorded import value_at, value_digest

    data = None
    by_id = {c.id: c for c in run.game.components}
    for key, digest in sorted(inputs.items(), key=_dearest_last):
        if not key.startswith("=" + SCOPE):
            continue
        path = key[len(SCOPE) + 1 :]
        if path.startswith("picture/"):
            deck = by_id.get(path[len("picture/") :])
            if deck is not None and deck.id in run.kept_decks:
                continue  # its sheets are kept: drawn from the same inputs, its pictured card is the one recorded
            faces = run.first_faces(deck) if deck is not None else None
            if faces is None or value_digest(_snapshot(faces)) != digest:
                return False
            continue
        if path.startswith("card/"):  # picture(id, card): the named card drawn again
            cid, _, card = path[len("card/") :].partition("/")
            deck = by_id.get(cid)
            if deck is None or isinstance(deck, Board):
                return False
            faces, name = _card_faces(run, deck, card, Diagnostics(), Location(""))
            if faces is None or value_digest(f"{name}\n--\n{_snapshot(faces)}") != digest:
                return False
            continue
        if path == "cover" or path.startswith("diagram/"):
            if _still(run, path, digest, drawn_on or {}):
                continue
            from pnpgen.rulebook.diagrams import load_cover, load_diagram

            shown: Any
            with run.using() as used:
                if path == "cover":
                    shown = load_cover(run, Diagnostics())
                else:
                    shown = load_diagram(run, path[len("diagram/") :], Diagnostics())
            if shown is None or value_digest(shown.snapshot()) != digest:
                return False
            _remember(run, path, used, digest=digest)
            continue
        data = data if data is not None else template_data(run.game)
        if value_digest(value_at(data, path)) != digest:
            return False
    return True


def _dearest_last(item: tuple) -> int:
    """The order values are judged in, the first that moved deciding: pictures (a card, drawn already when its
    deck is stale) and the content's values first, diagrams and the cover (each planned with its pieces) last."""
    key = item[0][len(SCOPE) + 1 :]
    return 1 if key == "cover" or key.startswith("diagram/") else 0


def _still(run, path: str, digest: str, shown: dict) -> bool:
    """Whether a diagram (or the cover) is what an earlier build found it to be, without planning it again. It is
    when that build saw the same digest, the game's own files are the same, and every component it drew pieces
    from is kept by this build (drawn from inputs that all hold). The diagram's and cover's files themselves are
    among the rulebook's inputs, checked before any value is. The earlier build is the last one of a resident
    process (its memo), else the one that wrote the manifest (the rulebook entry's `shown`)."""
    known = run.memo.shown(run.game.id, path)
    if known is not None:
        return (
            known.digest == digest and known.game_inputs == dict(run.game.inputs) and known.used <= run.kept
        )
    last = shown.get(path)
    if not isinstance(last, dict) or not isinstance(last.get("used"), list):
        return False  # a manifest from before `shown`, or not pnpgen's: plan it
    return (
        last.get("digest") == digest
        and last.get("game") == _game_digest(run)
        and set(last["used"]) <= run.kept
    )


def _game_digest(run) -> str:
    from pnpgen.recorded import value_digest

    return value_digest(sorted(run.game.inputs.items()))


def _remember(run, path: str, used: set, snapshot: str = "", digest: str = "") -> None:
    """Keep what a diagram or the cover drew on and what it came to (`_still`): in the build's `shown`, which the
    rulebook's manifest entry carries to the next build, and in a resident process's memo."""
    from pnpgen.recorded import value_digest

    digest = digest or value_digest(snapshot)
    run.shown[path] = {"used": sorted(used), "game": _game_digest(run), "digest": digest}
    if run.memo.keeps:
        from pnpgen.memo import Shown

        run.memo.keep_shown(run.game.id, path, Shown(dict(run.game.inputs), frozenset(used), digest))


def _snapshot(faces) -> str:
    return "\n--\n".join(f.snapshot() if f is not None else "" for f in faces)

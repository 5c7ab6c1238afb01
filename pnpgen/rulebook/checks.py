"""What a rulebook must get right: counts written in its Components chapter, characters its fonts can draw, and
the keywords and icons its components use (introduced in the book; every term its glossary defines, used)."""

from __future__ import annotations

import re
from pathlib import Path

from pnpgen.errors import ContentError, Diagnostics, Location, display_path
from pnpgen.rulebook.blocks import Heading, Para, Rulebook, TableBlock
from pnpgen.rulebook.sources import read_source


def check_glyphs(book: Rulebook, game, icons: dict, diags: Diagnostics) -> None:
    """A character the rulebook's fonts cannot draw is a warning at its line (it would silently vanish)."""
    from pnpgen.text.fit import missing_in, stray_markup

    display = display_path(book.path)
    texts = [(game.title, "display-bold", 1), (game.credits, "sans-italic", 1)]
    for block in _walk(book.blocks):
        line = getattr(block, "line", 0) or 1
        if isinstance(block, Heading):
            texts.append((block.text, "display-bold", line))
        elif isinstance(block, Para):
            texts.append((block.text, "sans", line))
        elif isinstance(block, TableBlock):
            texts += [(cell, "sans-bold", line) for cell in block.header]
            texts += [(cell, "sans", line) for row in block.rows for cell in row]
    places = [(text, font, Location(display, line, 1)) for text, font, line in texts]
    for diagram, plan in getattr(book, "diagrams", {}).items():  # words drawn in diagrams, plainly
        where = Location(display_path(game.root / "diagrams" / f"{diagram}.yaml"), 1, 1)
        if plan is not None:
            words = [a[4] or "" for a in plan.arrows] + [lab[2] for lab in plan.labels]
            places += [(plan.caption, "sans-italic", where)] + [(w, "sans-bold", where) for w in words]
    for text, font, loc in places:
        for problem in stray_markup(text or "", lambda name: name in icons, icons, emphasis=False):
            diags.warning(loc, f"the rulebook: {problem}")
        lost = missing_in(text or "", font, lambda name: name in icons)
        if lost:
            codes = ", ".join(f"'{ch}' (U+{ord(ch):04X})" for ch in lost)
            diags.warning(loc, f"the rulebook's font {font} has no {codes}; it would not print")


_COUNT = r"(?<![\d.])(\d+)\s+(?:\*\*)?"
# a Components chapter's title, in the languages pnpgen prints (`language:`): Components, Spielmaterial,
# Spielinhalt, Matériel, Composants, Contenu
_COMPONENTS = re.compile(r"component|composant|mat[eé]riel|material|inhalt|contenu", re.IGNORECASE)
# a share or a limit, not the component's total: English, German, French
_SHARE = re.compile(
    r"\b(each|per|every|deck of|of them|up to|at most|at least"
    r"|je|pro|jede[rnms]?|davon|bis zu|höchstens|mindestens"
    r"|chaque|par|chacun|chacune|dont|jusqu'à|au plus|au moins)\b"
)


def check_component_counts(sources: list[Path], game, diags: Diagnostics, reader=None) -> None:
    """In a Components chapter, a number written before a component's name must equal the content's count."""
    for src in sources:
        in_components = False
        for n, line in enumerate(read_source(src, reader).splitlines(), 1):
            if line.startswith("## "):
                in_components = _COMPONENTS.search(line) is not None
                continue
            if not in_components:
                continue
            for deck in game.components:
                for name in _names(deck.name):
                    for m in re.finditer(_COUNT + re.escape(name) + r"\b", line, re.IGNORECASE):
                        sentence = re.split(r"[.!?;|]", line[: m.start()])[-1].lower()
                        if _SHARE.search(sentence):
                            continue  # a share or a limit, not the component's total
                        found = int(m.group(1))
                        if found != deck.faces:
                            diags.error(
                                Location(display_path(src), n, m.start(1) + 1),
                                f"the rulebook says {found} {name} but the content has {deck.faces}",
                                "write the count as {{ components['" + deck.id + "'].faces }}",
                            )


def _names(name: str) -> list[str]:
    base = name.strip()
    out = {base}
    if base.lower().endswith("s"):
        out.add(base[:-1])
    return sorted(out, key=len, reverse=True)


def _walk(blocks):
    for b in blocks:
        yield b
        for inner in getattr(b, "blocks", []) or []:
            yield from _walk([inner])
        for item in getattr(b, "items", []) or []:
            yield from _walk(item)


# -- keywords and icons: every one a card uses is introduced in the book; every term it defines is used --------
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_GLYPH = re.compile(r":([a-z0-9][a-z0-9_-]*):")
_LABEL = re.compile(r"^\s*\*\*([^*:\n]*?[A-Za-z][^*:\n]*?):\*\*")  # a line opened by "**Term:**"
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_GLOSSARY = re.compile(  # English, German, French
    r"\b(glossary|keywords?|terms|glossar|begriffe|schlüsselwörter|glossaire|mots-clés|termes)\b",
    re.IGNORECASE,
)
_ENTRY = re.compile(r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?\*\*([^*\n]+?)\*\*")  # a list item or line led by **Term**
_ICON_FIELD = re.compile(r"(^|_)icons?$")


def check_keywords(
    sources: list[Path], game, diags: Diagnostics, reader=None, declared=(), icons=None
) -> None:
    """A keyword or icon a component uses that the rulebook never introduces is a warning at the card's field;
    a term the book's glossary defines that no component uses, a warning at the book's line.

    A component's keywords: a **Term:** label opening a line of its text, and every term the game declares
    (facts.yaml's `keywords`) that its text names. Its icons: each `:name:` in its text, and the value of a
    field called `icon` (or `..._icon`, `icons`). The book introduces a keyword in a heading, in **bold** or in
    a table's first column; an icon by showing it (`:name:`) or naming it (its name, `-` read as a space). With
    the game's icon names (`icons`), a name that is none of them is left to the drawing, which tells it once."""
    book = _Book(sources, reader)
    if not book.lines:
        return
    said: set[str] = set()  # every component's text, lower case, for the glossary's side
    for comp in game.components:
        pieces = getattr(comp, "cards", None)
        pieces = pieces if pieces is not None else comp.sides
        said.add(comp.name.lower())
        warned: set[tuple[str, str]] = set()
        for piece in pieces:
            for key, inner, text in _texts(piece.fields):
                said.add(text.lower())
                where = piece.value_locs.get(key) or piece.field_locs.get(key) or piece.loc
                for word, what in _used(inner, text, declared):
                    if what == "icon" and icons is not None and word not in icons:
                        continue  # no icon at all: the drawing says so, with the names it might mean
                    known = book.shows(word) if what == "icon" else book.introduces(word)
                    if known or (what, word.lower()) in warned:
                        continue
                    warned.add((what, word.lower()))
                    diags.warning(where, _unintroduced(what, word, comp.id))
    pieces_say = "\n".join(sorted(said))
    layouts_say = None  # read only when a term is not on a piece: what the check read is what it stands on
    for term, loc in book.glossary:
        if any(_says(pieces_say, form) for form in _forms(term)):
            continue
        layouts_say = _layout_texts(game, reader) if layouts_say is None else layouts_say
        if not any(_says(layouts_say, form) for form in _forms(term)):
            diags.warning(
                loc,
                f"the rulebook defines '{term}' but no component uses it",
                "name it on a card, tile or board, or take it out of the glossary",
            )


def _unintroduced(what: str, word: str, comp: str) -> str:
    if what == "icon":
        return f"{comp} uses the icon :{word}: but the rulebook never shows or names it"
    return (
        f"{comp} uses the keyword '{word}' but the rulebook never introduces it (heading, bold or glossary)"
    )


def _used(key: str, text: str, declared) -> list[tuple[str, str]]:
    out = [(m.group(1).strip(), "keyword") for line in text.splitlines() if (m := _LABEL.match(line))]
    out += [(name, "icon") for name in _GLYPH.findall(text)]
    if _ICON_FIELD.search(key) and re.fullmatch(r"[a-z0-9][a-z0-9_-]*", text):
        out.append((text, "icon"))
    out += [(term, "keyword") for term in declared if _says(text, term)]
    return out


def _texts(fields, key: str = "", inner: str = ""):
    """(top-level field, the key holding it, text) for every string a piece's fields hold, nested lists and
    mappings included: a list's items are held by the list's key."""
    from collections.abc import Mapping

    for name, value in fields.items() if isinstance(fields, Mapping) else enumerate(fields):
        top, holder = key or str(name), str(name) if isinstance(fields, Mapping) else inner
        if isinstance(value, str):
            yield top, holder, value
        elif isinstance(value, (Mapping, list, tuple)):
            yield from _texts(value, top, holder)


def _layout_texts(game, reader) -> str:
    """The words the game's own layouts print (their lines, comments left out)."""
    folder = game.root / "layouts"
    try:
        if reader is None:
            texts = [p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.yaml"))]
        else:
            texts = [
                reader.read_text(p, "layout") for p in reader.listing(folder, "*.yaml", "layouts folder")
            ]
    except (OSError, ContentError):
        return ""
    return "\n".join(line for t in texts for line in t.splitlines() if not line.lstrip().startswith("#"))


def _forms(term: str) -> list[str]:
    """A glossary term and the short form it gives in brackets: "Victory Points (VP)" is used as either."""
    inner = re.findall(r"\((.*?)\)", term)
    return [f for f in [re.sub(r"\s*\(.*?\)\s*", " ", term).strip(), *inner] if f.strip()]


def _says(text: str, term: str) -> bool:
    """Whether `text` names `term` as whole words, in any case, singular or plural."""
    term = term.strip()
    if term.endswith("s") and not term.endswith("ss"):
        term = term[:-1]  # "Monuments" is also "Monument"
    words = r"[\s_-]+".join(re.escape(w) for w in re.split(r"[\s_-]+", term) if w)
    return bool(words) and re.search(rf"(?<!\w){words}(?:s|es)?(?!\w)", text, re.IGNORECASE) is not None


class _Book:
    """The rulebook's sources as lines: what it shows, introduces and defines (its glossary), where."""

    def __init__(self, sources: list[Path], reader) -> None:
        self.lines: list[tuple[str, int, str]] = []  # (file as shown, line number, text)
        for src in sources:
            text = read_source(src, reader)
            self.lines += [(display_path(src), n, line) for n, line in enumerate(text.splitlines(), 1)]
        self.text = "\n".join(line for _, _, line in self.lines)
        self.glyphs = set(_GLYPH.findall(self.text))
        marked = []
        for _, _, line in self.lines:
            heading = _HEADING.match(line)
            marked += [heading.group(2)] if heading else []
            marked += _BOLD.findall(line)
            if line.lstrip().startswith("|"):
                marked.append(line.strip().strip("|").split("|")[0])
        self.marked = "\n".join(marked)
        self.glossary = self._glossary()

    def introduces(self, term: str) -> bool:
        return _says(self.marked, term)

    def shows(self, icon: str) -> bool:
        return icon in self.glyphs or _says(self.text, icon)

    def _glossary(self) -> list[tuple[str, Location]]:
        """Each term a glossary section defines: a table row's first cell, or a line led by a **Term**."""
        out, level = [], 0
        for i, (display, n, line) in enumerate(self.lines):
            heading = _HEADING.match(line)
            if heading:
                depth = len(heading.group(1))
                if level and depth <= level:
                    level = 0
                if not level and _GLOSSARY.search(heading.group(2)):
                    level = depth
                continue
            if not level:
                continue
            term = ""
            if line.lstrip().startswith("|"):
                cell = line.strip().strip("|").split("|")[0].strip()
                following = self.lines[i + 1][2] if i + 1 < len(self.lines) else ""
                header = "-" in following and set(following.replace("|", "").strip()) <= set("-: ")
                if not header and not set(cell) <= set("-: "):
                    term = cell.replace("**", "")
            elif m := _ENTRY.match(line):
                term = m.group(1)
            term = term.strip().rstrip(":").strip()
            if term:
                out.append((term, Location(display, n, max(1, line.find(term) + 1))))
        return out

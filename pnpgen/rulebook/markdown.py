"""Markdown -> rulebook blocks, with markdown-it-py (CommonMark and tables). Each block remembers its file and
line; numbering of chapters and sections runs on across a book's files."""

from __future__ import annotations

import re
from pathlib import Path

from pnpgen.errors import Diagnostics, Location, display_path, short
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

_MARKER = re.compile(r"%%pnpgen (picture|components|diagram)(?: ([a-z0-9_-]+))?(?: ([0-9a-f]+))?%%")


def parse(
    text: str, path: Path, diags: Diagnostics, book: Rulebook | None = None, kept: dict | None = None
) -> Rulebook:
    """Markdown -> blocks, appended to `book` (a new one when None); each block remembers its file and line.
    `kept` (a resident process's, per source file): the last text read from `path` and its tokens, which are
    only ever read, so a rebuild whose source text did not change does not tokenize it again (10 ms a book)."""
    alone = book is None
    book = book or Rulebook(path, title="")
    if not _few_marks(text, book, display_path(path), diags):
        return book
    last = kept.get(str(path)) if kept is not None else None
    if last is not None and last[0] == text:
        tokens = last[1]
    else:
        from markdown_it import MarkdownIt  # only when a rulebook is actually parsed

        tokens = MarkdownIt("commonmark").enable("table").parse(text)
        if kept is not None:
            kept[str(path)] = (text, tokens)
    if _too_deep(tokens, text, display_path(path), diags):
        return book
    counters = book.counters
    display = display_path(path)
    pos = 0
    shift: int | None = None  # a chapter file that starts with `# Variants` after the title: its levels + 1
    # a heading's column, told where it cannot begin a section; split as the tokens count lines (not at U+2028)
    text_lines = text.split("\n")

    def inline(tok, line: int) -> str:
        """A block's inline markup; what cannot be printed as written is warned about at its line."""
        lost: list[str] = []
        text = _inline(tok, lost)
        for what in lost:
            diags.warning(Location(display, line, 1), what)
        return text

    def blocks_until(end_type: str | None) -> list:
        nonlocal pos
        out: list = []  # blocks of every kind
        while pos < len(tokens):
            tok = tokens[pos]
            line = (tok.map[0] + 1) if tok.map else 0
            if end_type and tok.type == end_type:
                pos += 1
                return out
            if tok.type == "heading_open" and not tokens[pos + 1].content.strip():  # `##`, nothing after it
                pos += 3
                source = text_lines[line - 1] if 0 < line <= len(text_lines) else ""
                diags.warning(
                    Location(display, line, source.find(tok.markup) + 1 if tok.markup in source else 1),
                    "a heading with no text is left out: it begins no section and takes no number",
                    "write its title after the marks, or delete the line",
                )
            elif tok.type == "heading_open" and end_type is not None:  # in a list item or a call-out
                text = inline(tokens[pos + 1], line)
                pos += 3
                source = text_lines[line - 1] if 0 < line <= len(text_lines) else ""
                # where it begins: its `#`, or an underlined one's first word (`> Setup` over `> =====`)
                first = (
                    tok.markup if tok.markup.startswith("#") else tokens[pos - 2].content.split("\n")[0][:20]
                )
                diags.warning(
                    Location(display, line, source.find(first) + 1 if first and first in source else 1),
                    f"the heading '{text}' is inside a list or a call-out, where no section can begin: it is "
                    "printed as a bold line, not numbered nor in the contents",
                    "to make it a section, start it at the line's beginning, without '>' or an indent",
                )
                out.append(Para("**" + text.replace("**", "") + "**", line, display))
            elif tok.type == "heading_open":
                nonlocal shift
                level = int(tok.tag[1])
                text = inline(tokens[pos + 1], line)
                pos += 3
                number = ""
                if level == 1 and not book.title:
                    book.title = text
                else:  # a heading after the title: a chapter's `# Variants` is a chapter, never dropped
                    # the first heading after the title is a chapter (`##`), whatever its marks
                    if shift is None:
                        shift = 2 - level
                    level = min(6, max(2, level + shift))
                if level in (2, 3):
                    idx = level - 2
                    counters[idx] += 1
                    for j in range(idx + 1, len(counters)):
                        counters[j] = 0
                    number = ".".join(str(c) for c in counters[: idx + 1])
                out.append(Heading(level, text, number, line, display))
            elif tok.type == "paragraph_open":
                text = inline(tokens[pos + 1], line)
                pos += 3
                out.extend(_paragraph(text, line, display))
            elif tok.type in ("bullet_list_open", "ordered_list_open"):
                ordered = tok.type == "ordered_list_open"
                start = int(tok.attrGet("start") or 1) if ordered else 1
                close = "ordered_list_close" if ordered else "bullet_list_close"
                pos += 1
                items = []
                while tokens[pos].type != close:
                    if tokens[pos].type == "list_item_open":
                        pos += 1
                        items.append(blocks_until("list_item_close"))
                    else:
                        pos += 1
                pos += 1
                out.append(ListBlock(ordered, start, items))
            elif tok.type == "blockquote_open":
                pos += 1
                inner = blocks_until("blockquote_close")
                first = inner[0].text if inner and isinstance(inner[0], Para) else ""
                kind = (
                    "note"
                    if "designer" in first.lower()[:40]
                    else "example"
                    if "example" in first.lower()[:30]
                    else "quote"
                )
                out.append(Quote(inner, kind))
            elif tok.type == "table_open":
                header: list[str] = []
                rows: list[list[str]] = []
                row: list[str] = []
                pos += 1
                while tokens[pos].type != "table_close":
                    t = tokens[pos]
                    if t.type == "tr_open":
                        row = []
                    elif t.type in ("th_open", "td_open"):
                        row.append(inline(tokens[pos + 1], line))
                        pos += 2
                    elif t.type == "tr_close":
                        if header:
                            rows.append(row)
                        else:
                            header.extend(row)
                    pos += 1
                pos += 1
                out.append(TableBlock(header, rows, line, display))
            elif tok.type == "hr":
                pos += 1
                out.append(Rule())
            elif tok.type in ("fence", "code_block", "html_block"):
                pos += 1
                if tok.type == "html_block" and _COMMENT.fullmatch(tok.content.strip()):
                    continue  # an HTML comment: the designer's own note, left out as Markdown means it
                if tok.type == "html_block":
                    diags.warning(
                        Location(display, line, 1),
                        "HTML is not drawn in a rulebook: it is printed as it is written",
                        "write it in Markdown (or as a comment, <!-- ... -->, to leave it out)",
                    )
                out.append(Para(_as_written(tok.content.strip()), line, display))
            else:
                if tok.type.endswith("_open"):
                    diags.warning(Location(display, line, 1), f"Markdown '{tok.type}' is not printed")
                pos += 1
        return out

    book.blocks += blocks_until(None)
    if alone and not book.title:
        diags.error(Location(display_path(path), 1, 1), "a rulebook needs a '# Title' heading")
    return book


# Markdown's emphasis and link marks: markdown-it's work grows with their number far faster than with plain text
# (a megabyte of `*[_` takes it 12 s, of `![` 14 s, of prose 0.03 s; other marks measured under 0.5 s). Our five
# rulebooks hold 140 to 380.
_MARKS = re.compile(r"[*_\[\]]")
MAX_MARKS = 20_000  # in one rulebook, all its files together


def _few_marks(text: str, book: Rulebook, display: str, diags: Diagnostics) -> bool:
    """Count the marks of `text` into the book's tally; past MAX_MARKS, an error at the line where it went over."""
    left = MAX_MARKS - book.marks
    for i, m in enumerate(_MARKS.finditer(text)):
        if i >= left:
            line = text.count("\n", 0, m.start()) + 1
            diags.error(
                Location(display, line, m.start() - text.rfind("\n", 0, m.start())),
                f"the rulebook holds more than {MAX_MARKS:,} Markdown marks (* _ [ ]); "
                "the limit keeps reading it quick",
            )
            return False
    book.marks += len(_MARKS.findall(text))
    return True


# markdown-it reads lists and quotes nested at most this many tokens deep (its `maxNesting`); past it, it stops
# reading and the rest of the file is silently gone: a list ten deep dropped every chapter after it
_NESTING = 20
_CONTAINERS = ("blockquote_open", "bullet_list_open", "ordered_list_open", "list_item_open")
_OPENER = re.compile(r"[ \t]*(>|[-*+]|[0-9]{1,9}[.)])")


def _too_deep(tokens: list, text: str, display: str, diags: Diagnostics) -> bool:
    """An error at the list or quote that Markdown nests too deeply to read on (True), where markdown-it would
    drop the rest of the file without a word."""
    for n, tok in enumerate(tokens):
        if tok.type in _CONTAINERS and tok.level >= _NESTING - 1 and tok.map:
            line = tok.map[0] + 1
            source = text.split("\n", line)[line - 1] if line <= text.count("\n") + 1 else ""
            # its mark: the k-th on its line, after those of the quotes around it (`> > - x` nests three on a line)
            k = sum(
                1
                for t in _enclosing(tokens[:n])
                if t.type == "blockquote_open" or (t.type == "list_item_open" and t.map[0] == line - 1)
            )
            column, at = 1, 0
            for _ in range(k + 1):
                m = _OPENER.match(source, at)
                if m is None:
                    break
                column, at = m.start(1) + 1, m.end()
            diags.error(
                Location(display, line, column),
                "lists and quotes are nested too deeply here for Markdown to read on: the rest of the rulebook "
                "would be lost",
                "nest fewer lists or quotes inside each other (a list nine deep reads)",
            )
            return True
    return False


def _enclosing(tokens: list) -> list:
    """The lists, items and quotes still open after `tokens`, outermost first."""
    open_: list = []
    for t in tokens:
        if t.type in _CONTAINERS and t.map:
            open_.append(t)
        elif t.type.replace("_close", "_open") in _CONTAINERS and open_:
            open_.pop()
    return open_


def _paragraph(inline: str, line: int, display: str) -> list:
    """A paragraph, split where picture(), diagram() or component_table() placed a marker."""
    out: list = []
    last = 0
    for m in _MARKER.finditer(inline):
        try:  # a marker typed into the text, not made by picture(): its card may be no hex of UTF-8 (text, then)
            card = bytes.fromhex(m.group(3)).decode("utf-8") if m.group(3) else None
        except ValueError:
            continue
        before = inline[last : m.start()].strip()
        if before:
            out.append(Para(before, line, display))
        if m.group(1) == "picture":
            out.append(Picture(m.group(2), line, display, card))
        elif m.group(1) == "diagram":
            out.append(Diagram(m.group(2), line, display))
        else:
            out.append(ComponentTable(line, display))
        last = m.end()
    rest = inline[last:].strip()
    if rest or not out:
        out.append(Para(rest, line, display))
    return out


_COMMENT = re.compile(r"<!--.*?-->", re.S)
_ICON_COLON = re.compile(r":(?=[a-z0-9][a-z0-9_-]*:)")


def _as_written(text: str) -> str:
    """Code or HTML printed as it is written: its `*` (U+2217) and an icon's first `:` (U+2236) are characters
    that look the same but set no emphasis and draw no icon (`a * b * c` lost its signs, `b` set italic)."""
    return _ICON_COLON.sub("\u2236", text.replace("*", "\u2217"))


def _inline(tok, lost: list[str] | None = None) -> str:
    """markdown-it inline tokens -> pnpgen's inline markup (**bold**, *italic*, :icon:). A link prints its text
    and its address; what cannot be drawn (an image, HTML) is printed as text and named in `lost`."""
    out: list[str] = []
    links: list[tuple[int, str]] = []
    lost = [] if lost is None else lost
    for child in tok.children or []:
        t = child.type
        if t == "link_open":  # where the link's text starts, and its address
            links.append((len(out), str(child.attrGet("href") or "")))
            continue
        if t == "link_close" and links:
            mark, href = links.pop()
            shown = "".join(out[mark:]).strip()
            if href and not href.startswith("#") and href not in (shown, f"mailto:{shown}"):
                out.append(f" ({href})")
            continue
        if t == "image":
            alt = "".join(c.content for c in child.children or []) or str(child.attrGet("src") or "")
            out.append(alt.replace("*", "\u2217"))
            lost.append(
                f"an image in Markdown is not drawn in a rulebook: its text '{short(alt)}' is printed "
                "(picture('component') or a diagram draws one)"
            )
            continue
        if t == "text":
            out.append(child.content.replace("*", "\u2217"))
        elif t in ("strong_open", "strong_close"):
            out.append("**")
        elif t in ("em_open", "em_close"):
            out.append("*")
        elif t == "code_inline":
            out.append(_as_written(child.content))
        elif t in ("softbreak",):
            out.append(" ")
        elif t == "hardbreak":
            out.append("\n")
        elif t == "html_inline":
            if _COMMENT.fullmatch(child.content):
                continue  # a comment: left out, as Markdown means it
            out.append(_as_written(child.content))
            lost.append(
                f"HTML is not drawn in a rulebook: '{short(child.content)}' is printed as it is written"
            )
    return "".join(out).strip()

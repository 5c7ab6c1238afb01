"""Text in a box: markup (**bold**, *italic*, :icon:), wrapping, alignment and shrink-to-fit.

Measures with the shipped fonts' metrics and returns draw operations; faster than platypus Paragraph and
able to put vector icons inline on the baseline.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from pnpgen.faces import Icon, Text
from pnpgen.text.breaks import tokens
from pnpgen.text.fonts import FALLBACKS, missing_glyphs, runs, unit_width, variant, vertical_metrics

_TOKEN = re.compile(r"(\*\*|\*|:[a-z0-9][a-z0-9_-]*:|\s+)")
_MARKUP = re.compile(r"\*|:[a-z0-9][a-z0-9_-]*:")  # what makes a paragraph more than words and spaces
# An icon-like `:name:` standing apart from letters and digits (not the `:30:` of "12:30:45"): when it names no
# icon it prints as typed, so it is told (`stray_markup`).
_LONE_NAME = re.compile(r"(?<![A-Za-z0-9]):([a-z0-9][a-z0-9_-]*):(?![A-Za-z0-9])")
ICON_SCALE = 0.92  # an inline icon's height, relative to the font size
ICON_PAD = 0.08  # space either side of an inline icon, relative to the font size


@dataclass(frozen=True, slots=True)
class Piece:
    kind: str  # "text" | "icon"
    value: str
    font: str


@dataclass
class Word:
    pieces: list
    unit: float | None = None  # the width at 1 pt of a word that is one run of text in one font (most words)

    def width(self, size: float) -> float:
        if self.unit is not None:
            return self.unit * size
        total = 0.0
        for p in self.pieces:
            if p.kind == "icon":
                total += size * (ICON_SCALE + 2 * ICON_PAD)
            else:
                total += unit_width(p.value, p.font) * size
        return total


def parse(text: str, font: str, is_icon, fallbacks: tuple = FALLBACKS) -> list[list[Word]]:
    """Markup -> paragraphs of words; a word is pieces joined without space."""
    paragraphs: list[list[Word]] = []
    bold = italic = False
    for para in str(text).replace("\r\n", "\n").split("\n"):
        if _MARKUP.search(para) is None:  # no markup: each word as it was the last time it was seen
            plain = tokens(para)
            if plain:
                vfont = variant(font, bold, italic)
                paragraphs.append([_plain_word(tok, vfont, fallbacks) for tok in plain])
            else:
                paragraphs.append([])
            continue
        words: list[Word] = []
        for run in tokens(para):  # the runs a line may break between (`text.breaks`)
            current: list[Piece] = []
            for tok in _TOKEN.split(run):
                if tok == "**":
                    bold = not bold
                elif tok == "*":
                    italic = not italic
                elif tok.startswith(":") and tok.endswith(":") and len(tok) > 2 and is_icon(tok[1:-1]):
                    current.append(Piece("icon", tok[1:-1], font))
                else:  # text or a space in the run; a character the font lacks in a fallback font that has it
                    for f, part in runs(tok, variant(font, bold, italic), fallbacks) if tok else ():
                        if current and current[-1].kind == "text" and current[-1].font == f:
                            current[-1] = Piece("text", current[-1].value + part, f)
                        else:
                            current.append(Piece("text", part, f))
            if current:
                words.append(Word(current))
        paragraphs.append(words)
    return paragraphs


def icon_names(text: str) -> list[str]:
    """Each `:name:` standing apart in `text` (no letter or digit just before or after it), once, in order."""
    return list(dict.fromkeys(m.group(1) for m in _LONE_NAME.finditer(str(text))))


def stray_markup(text: str, is_icon, icons=(), emphasis: bool = True) -> list[str]:
    """What in marked-up text would not print as meant: each `:name:` standing apart that names no icon (with
    the nearest icon names), and a `**` or `*` left open at the end (the rest of the text set bold/italic)."""
    from difflib import get_close_matches

    text = str(text)
    found = []
    for name in dict.fromkeys(m.group(1) for m in _LONE_NAME.finditer(text)):
        if not is_icon(name):
            near = get_close_matches(name, sorted(icons), n=3, cutoff=0.6)
            hint = f"; did you mean {', '.join(f':{n}:' for n in near)}?" if near else ""
            found.append(f"':{name}:' names no icon of the game; it would print as typed{hint}")
    bold = italic = False
    for tok in _TOKEN.split(text) if emphasis else ():
        if tok == "**":
            bold = not bold
        elif tok == "*":
            italic = not italic
    for is_open, mark, style in ((bold, "**", "bold"), (italic, "*", "italic")):
        if is_open:
            found.append(f"a '{mark}' is never closed; the rest of the text would be set {style}")
    return found


def words_of(text: str, font: str, fallbacks: tuple = FALLBACKS) -> list[list[Word]]:
    """Text without markup -> paragraphs of words for `wrap`: a `*` or `:name:` prints as typed (pnpgen's own
    words around a game's names, as on the print-and-build page)."""
    return [
        [_plain_word(tok, font, fallbacks) for tok in tokens(para)]
        for para in str(text).replace("\r\n", "\n").split("\n")
    ]


@lru_cache(maxsize=100_000)
def _plain_word(tok: str, font: str, fallbacks: tuple) -> Word:
    """A word without markup, in `font` (falling back glyph by glyph). Shared by every text that has it: a
    `Word` is never changed once parsed."""
    pieces = [Piece("text", part, f) for f, part in runs(tok, font, fallbacks)]
    unit = unit_width(pieces[0].value, pieces[0].font) if len(pieces) == 1 else None
    return Word(pieces, unit)


def wrap(paragraphs, width: float, size: float):
    """Greedy line breaking -> list of lines (each a list of words) and the widest word's overflow."""
    space = unit_width(" ", paragraphs_font(paragraphs)) * size
    lines, too_wide = [], False
    for words in paragraphs:
        line: list[Word] = []
        line_w = 0.0
        for word in words:
            ww = word.unit * size if word.unit is not None else word.width(size)  # `width`, inlined
            if ww > width + 0.01:
                too_wide = True
            if line and line_w + space + ww > width + 0.01:
                lines.append(line)
                line, line_w = [word], ww
            else:
                line_w = line_w + space + ww if line else ww
                line.append(word)
        lines.append(line)
    return lines, too_wide, space


def broken(paragraphs, width: float, size: float) -> list[list[Word]]:
    """`paragraphs` with each word wider than `width` broken into words that fit (at least one character or icon
    each): a long address or name is set over several lines of a column, not past its edge off the page."""

    def fits(w: Word) -> bool:
        return (w.unit * size if w.unit is not None else w.width(size)) <= width + 0.01

    return [
        words
        if all(map(fits, words))
        else [p for w in words for p in ([w] if fits(w) else _split(w, width, size))]
        for words in paragraphs
    ]


def _split(word: Word, width: float, size: float) -> list[Word]:
    parts: list[Word] = []
    pieces: list[Piece] = []
    used = 0.0
    for p in word.pieces:
        if p.kind == "icon":
            units = [(p, size * (ICON_SCALE + 2 * ICON_PAD))]
        else:
            units = [(Piece("text", ch, p.font), unit_width(ch, p.font) * size) for ch in p.value]
        for piece, w in units:
            if pieces and used + w > width + 0.01:
                parts.append(_joined(pieces))
                pieces, used = [], 0.0
            if pieces and piece.kind == pieces[-1].kind == "text" and pieces[-1].font == piece.font:
                pieces[-1] = Piece("text", pieces[-1].value + piece.value, piece.font)
            else:
                pieces.append(piece)
            used += w
    if pieces:
        parts.append(_joined(pieces))
    return parts


def _joined(pieces: list[Piece]) -> Word:
    one = len(pieces) == 1 and pieces[0].kind == "text"
    return Word(pieces, unit_width(pieces[0].value, pieces[0].font) if one else None)


def break_word(word: str, font: str, size: float, width: float) -> list[str]:
    """A word of plain text in parts no wider than `width` (at least one character each), as `broken` breaks."""
    parts = broken(words_of(word, font), width, size)[0]
    return ["".join(p.value for p in w.pieces) for w in parts] or [word]


def paragraphs_font(paragraphs) -> str:
    for words in paragraphs:
        for w in words:
            for p in w.pieces:
                return p.font
    return "sans"


@dataclass
class Fitted:
    ops: list
    size: float
    fits: bool
    height: float = 0.0  # pt the lines take at `size` (when it does not fit: at the minimum size)
    too_wide: bool = False  # a word is wider than the box at that size


def fit_text(
    text: str,
    *,
    x: float,
    y: float,
    w: float,
    h: float,
    font: str,
    size: float,
    min_size: float,
    color: str,
    align: str = "left",
    valign: str = "top",
    leading: float = 1.2,
    is_icon=lambda name: False,
    tint=None,
    fallbacks: tuple = FALLBACKS,
) -> Fitted:
    """Lay `text` into the box, shrinking from `size` down to `min_size` (0.25 pt steps) until it fits."""
    paragraphs = parse(text, font, is_icon, fallbacks)
    ascent, descent = vertical_metrics(font)

    def layout_at(s: float):
        lines, too_wide, space = wrap(paragraphs, w, s)
        height = (len(lines) - 1) * s * leading + (ascent + descent) * s
        return lines, space, (not too_wide and height <= h + 0.01), height, too_wide

    steps = max(0, int(round((size - min_size) / 0.25)))
    candidates = [size - 0.25 * i for i in range(steps + 1)]
    lo, hi = 0, len(candidates) - 1
    chosen = None
    result = layout_at(candidates[0])
    if result[2]:
        chosen = (candidates[0], result)
    else:  # binary search for the largest size that fits
        while lo <= hi:
            mid = (lo + hi) // 2
            r = layout_at(candidates[mid])
            if r[2]:
                chosen = (candidates[mid], r)
                hi = mid - 1
            else:
                lo = mid + 1
    fits = chosen is not None
    if chosen is None:
        chosen = (candidates[-1], layout_at(candidates[-1]))
    s, (lines, space, _, height, too_wide) = chosen
    ops = place(lines, space, s, x, y, w, h, height, ascent, align, valign, leading, color, tint)
    return Fitted(ops, s, fits, height, too_wide)


def place(lines, space, s, x, y, w, h, height, ascent, align, valign, leading, color, tint):
    runs = _Runs()
    if valign == "middle":
        top = y + (h - height) / 2
    elif valign == "bottom":
        top = y + h - height
    else:
        top = y
    baseline = top + ascent * s
    for n, line in enumerate(lines):
        widths = [wd.unit * s if wd.unit is not None else wd.width(s) for wd in line]  # `width`, inlined
        natural = sum(widths) + space * max(0, len(line) - 1)
        gap = space
        if align == "center":
            cx = x + (w - natural) / 2
        elif align == "right":
            cx = x + w - natural
        else:
            cx = x
            last = n == len(lines) - 1 or not lines[n + 1]
            if align == "justify" and len(line) > 1 and not last:
                gap = space + (w - natural) / (len(line) - 1)
        if gap == space and line and s * leading >= 0.02 and _one_run(line, s, gap):
            runs.line(
                cx, baseline, line[0].pieces[0].font, s, color, " ".join([wd.pieces[0].value for wd in line])
            )
            baseline += s * leading
            continue
        for word, ww in zip(line, widths):
            if word.unit is not None:  # one run of text: its width is the word's
                piece = word.pieces[0]
                runs.text(cx, baseline, piece.font, s, color, piece.value, ww)
            else:
                _emit_word(runs, word, cx, baseline, s, color, tint)
            cx += ww + gap
        baseline += s * leading
    return runs.done()


def _one_run(line, s: float, gap: float) -> bool:
    """Whether `_Runs` would join a line's words into one run: each one run of text in one font, set a space of
    that font apart (the line is then the words joined by spaces; a line never joins the one above it)."""
    font = line[0].pieces[0].font
    for word in line:
        if word.unit is None or word.pieces[0].font != font:
            return False
    return unit_width(" ", font) * s == gap


def _emit_word(runs, word, x, baseline, s, color, tint):
    for p in word.pieces:
        if p.kind == "icon":
            side = s * ICON_SCALE
            runs.other(Icon(p.value, x + s * ICON_PAD, baseline - side, side, side, tint))
            x += s * (ICON_SCALE + 2 * ICON_PAD)
        else:
            width = unit_width(p.value, p.font) * s
            runs.text(x, baseline, p.font, s, color, p.value, width)
            x += width


class _Runs:
    """Draw operations of placed text, neighbouring runs of one line, font, size and colour joined as they come
    (a space between them when they sit one space apart, nothing when they touch): one `Text` per run of a line,
    not one per word joined afterwards."""

    def __init__(self):
        self.ops: list = []
        self.run: list | None = None  # [x, y, font, size, color, parts, end]

    def text(self, x, y, font, size, color, value, width) -> None:
        run = self.run
        if (
            run is not None
            and run[2] == font
            and abs(run[1] - y) < 0.01
            and run[3] == size
            and run[4] == color
        ):
            end = run[6]
            if abs(end + unit_width(" ", font) * size - x) < 0.01:
                run[5].append(" ")
                run[5].append(value)
                run[6] = x + width
                return
            if abs(end - x) < 0.01:
                run[5].append(value)
                run[6] = x + width
                return
        self._flush()
        self.run = [x, y, font, size, color, [value], x + width]

    def line(self, x, y, font, size, color, text) -> None:
        """A whole line that is one run (`_one_run`), as `text` would join it word by word."""
        self._flush()
        self.ops.append(Text(x, y, font, size, color, text))

    def other(self, op) -> None:
        self._flush()
        self.ops.append(op)

    def _flush(self) -> None:
        run = self.run
        if run is not None:
            self.ops.append(Text(run[0], run[1], run[2], run[3], run[4], "".join(run[5])))
            self.run = None

    def done(self) -> list:
        self._flush()
        return self.ops


def missing_in(markup: str, font: str, is_icon=lambda name: False) -> str:
    """The characters of marked-up text (**bold**, *italic*, :icon:) that its fonts cannot draw."""
    lost: set[str] = set()
    for words in parse(markup, font, is_icon):
        for word in words:
            for piece in word.pieces:
                if piece.kind == "text":
                    lost.update(missing_glyphs(piece.value, piece.font))
    return "".join(sorted(lost))

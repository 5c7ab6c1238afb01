"""SVG art and icons: checked, then turned into a ReportLab vector drawing by svglib (its one place in pnpgen).

A file is read as untrusted data. Its XML is parsed without entities from outside, DTDs or the network; its root
must be <svg>; its size is bounded in bytes and in shapes (each <use> counted with what it repeats) before svglib
sees it. Nothing an SVG names outside itself is ever read: a reference to a file or an address (`href`, `url()`)
is an error, and svglib is handed the parsed tree with no file name, so it could not resolve one either.

What svglib cannot draw (filters, masks, patterns, markers, text, embedded bitmaps) is taken out first and
listed in `SvgFile.left_out`, with whatever svglib itself logged, so a build says once per file what is missing.
Text is always taken out: its fonts would be the system's, not embedded; convert text to paths.

Each file is converted once per process, cached by its real path and digest (`load`); the drawing is shared and
never changed (`pnpgen.render.vector` draws it, or a recoloured copy for a tinted icon).
"""

from __future__ import annotations

import hashlib
import io
import logging
import os
import re
import stat
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from pnpgen.svgnumbers import NumberError, check_drawing, check_tree
from pnpgen.textfiles import READ_FLAGS

MAX_SVG_BYTES = 5_000_000
MAX_SVG_SHAPES = 20_000  # the elements it draws, each <use> counting what it repeats: as a face's shapes

_SVG = "http://www.w3.org/2000/svg"
_HREFS = ("{http://www.w3.org/1999/xlink}href", "href")
_DRAWN = frozenset(
    "svg g defs a style symbol use switch clipPath linearGradient radialGradient stop "
    "circle ellipse line path polygon polyline rect".split()
)
_SILENT = frozenset(("title", "desc", "metadata"))  # never drawn by anyone: dropped without a word
_WHAT = {  # how the warning names what was left out
    "text": "text (convert it to paths)",
    "image": "bitmap images",
    "filter": "filter effects",
    "mask": "masks",
    "pattern": "pattern fills",
    "marker": "markers",
}
_EFFECTS = {  # attributes asking for what svglib does not draw
    "filter": "filter",
    "mask": "mask",
    "marker": "marker",
    "marker-start": "marker",
    "marker-mid": "marker",
    "marker-end": "marker",
}
_STYLE_EFFECT = re.compile(
    r"(?:^|;)\s*(filter|mask|marker(?:-start|-mid|-end)?)\s*:\s*(?!none\b)[^;\s]", re.I
)
_OUTSIDE_URL = re.compile(r"url\(\s*['\"]?\s*([^#)'\"\s][^)'\"]*)", re.I)
_IMPORT = re.compile(r"@import\s+(?:url\(\s*)?['\"]?([^'\")\s;]*)", re.I)


class SvgError(Exception):
    """Why a file cannot be drawn; `line` and `column` place it in the file when known (else 0)."""

    def __init__(self, message: str, line: int = 0, column: int = 0):
        super().__init__(message)
        self.message, self.line, self.column = message, line or 0, column or 0


@dataclass(frozen=True, eq=False)
class SvgFile:
    """An SVG file as a drawing: `drawing` is ReportLab's, y upwards, `width` by `height` points."""

    drawing: Any
    width: float
    height: float
    colours: tuple[str, ...]  # '#rrggbb' of every fill and stroke, sorted
    gradients: bool  # some fill is a gradient (so it cannot take one tint)
    shapes: int
    left_out: tuple[str, ...]  # what could not be drawn, for one warning

    @property
    def single_colour(self) -> bool:
        """Every fill and stroke one colour (black when it sets none, as game-icons.net files do)."""
        return not self.gradients and len(self.colours) <= 1

    @property
    def colour(self) -> str:
        return self.colours[0] if self.colours else "#000000"

    def ink(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) of what it draws, in its own points, y upwards (its box when it draws nothing)."""
        try:
            x0, y0, x1, y1 = self.drawing.getBounds()
        except Exception:  # an empty drawing has no bounds
            return 0.0, 0.0, self.width, self.height
        return max(x0, 0.0), max(y0, 0.0), min(x1, self.width), min(y1, self.height)

    def in_icon_box(self) -> tuple[float, float, float]:
        """(scale, x, y): the drawing fitted whole (contain) and centred in the 100 x 100 icon box, y upwards."""
        scale = min(100 / self.width, 100 / self.height)
        return scale, (100 - self.width * scale) / 2, (100 - self.height * scale) / 2

    def icon_bounds(self) -> tuple[float, float, float, float]:
        """Where its ink lies in the 100 x 100 icon box, y downwards (as an icon's `bounds`)."""
        scale, ox, oy = self.in_icon_box()
        x0, y0, x1, y1 = self.ink()
        return ox + x0 * scale, 100 - (oy + y1 * scale), ox + x1 * scale, 100 - (oy + y0 * scale)


def load(real: Path, digest: str, icon: bool = False) -> SvgFile:
    """The drawing of the file at `real` whose sha256 is `digest` (as the build's reader recorded it): converted
    once per process. Raises SvgError; a file that no longer has that digest is an error, never drawn."""
    result = _load(str(real), digest, icon)
    if isinstance(result, SvgError):
        raise SvgError(result.message, result.line, result.column)  # a fresh one: the cached one stays clean
    return result


@lru_cache(maxsize=64)
def _load(real: str, digest: str, icon: bool = False) -> SvgFile | SvgError:
    data = _read(real)  # an error reading is raised, never cached
    if hashlib.sha256(data).hexdigest() != digest:
        raise SvgError("changed while pnpgen was reading it; build again")
    try:
        return convert(data, icon)
    except SvgError as exc:  # a bad file stays bad for this digest: its error is cached like a drawing
        return exc


def _read(real: str) -> bytes:
    try:
        fd = os.open(real, READ_FLAGS)  # binary; a pipe never blocks
    except OSError as exc:
        raise SvgError(f"cannot be read: {exc.strerror}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise SvgError("is not a regular file; refused")
        chunks, size = [], 0
        while block := os.read(fd, 1 << 20):
            size += len(block)
            if size > MAX_SVG_BYTES:
                raise SvgError(f"is over {MAX_SVG_BYTES:,} bytes, the limit for an SVG")
            chunks.append(block)
    finally:
        os.close(fd)
    return b"".join(chunks)


def convert(data: bytes, icon: bool = False) -> SvgFile:
    """Check an SVG file's bytes and convert them (not cached: `load` is); an `icon` loses a full-bleed
    background (`svgbackdrop`)."""
    if len(data) > MAX_SVG_BYTES:
        raise SvgError(f"is {len(data):,} bytes; the limit for an SVG is {MAX_SVG_BYTES:,}")
    root = _parse(data)
    left_out = _clean(root)
    _count(root)
    try:
        check_tree(root)  # every number at its element, before svglib reads one
        drawing, logged = _draw(root)
        check_drawing(drawing)  # and what svglib made of them, transforms composed
        if icon:
            from pnpgen.svgbackdrop import drop_backdrop

            drop_backdrop(drawing, float(drawing.width), float(drawing.height))
    except NumberError as exc:
        raise SvgError(exc.message, exc.line) from None
    return _measure(drawing, left_out, logged)


def _parse(data: bytes):
    from lxml import etree

    parser = etree.XMLParser(
        resolve_entities=False,  # an entity naming a file is never read
        no_network=True,
        load_dtd=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,  # an xml-stylesheet naming a file is dropped, never read
    )
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        _not_utf8(data, exc.msg or "")
        line, column = exc.position if exc.position else (0, 0)
        said = re.sub(r", line \d+, column \d+$", "", exc.msg or "")
        raise SvgError(f"is not SVG: not well-formed XML ({said})", line, column) from None
    except ValueError as exc:  # lxml refuses some inputs outright
        raise SvgError(f"is not SVG: {exc}") from None
    ns, name = _split(root.tag)
    if name != "svg" or ns not in (_SVG, None):
        raise SvgError(f"is not SVG: its root element is <{name}>, not <svg>", root.sourceline or 0)
    return root


def _not_utf8(data: bytes, said: str) -> None:
    """An SVG that declares no other encoding is UTF-8: bytes that are not (an editor saving in Windows-1252)
    are refused at their line and column, with how to save it, rather than in the parser's words."""
    if "encoding" not in said.lower() and "utf-8" not in said.lower():
        return
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        from pnpgen.errors import utf8_fault

        line, column, byte = utf8_fault(data, exc.start)
        raise SvgError(
            f"is not UTF-8 text ({byte}): save it as UTF-8, or name its encoding in its first line "
            '(<?xml version="1.0" encoding="windows-1252"?>)',
            line,
            column,
        ) from None


def _split(tag) -> tuple[str | None, str]:
    if not isinstance(tag, str):
        return None, ""
    if tag.startswith("{"):
        ns, _, name = tag[1:].partition("}")
        return ns, name
    return None, tag


def _clean(root) -> Counter:
    """Take out what svglib would not draw (counted, for the warning) and what belongs to other programs (an
    editor's own elements, without a word); refuse every reference to anything outside the file."""
    root_ns = _split(root.tag)[0]
    left_out: Counter = Counter()
    drop = []
    stack = [root]
    while stack:
        el = stack.pop()
        for child in el:
            ns, name = _split(child.tag)
            if not name or ns != root_ns or name in _SILENT:
                drop.append(child)  # an entity reference, or another program's element (Inkscape's)
            elif name not in _DRAWN:
                _refuse_outside(child)
                left_out[_WHAT.get(name, f"<{name}> elements")] += 1
                drop.append(child)
            else:
                stack.append(child)
        _refuse_outside(el)
        _effects(el, left_out)
    for el in drop:
        el.getparent().remove(el)
    return left_out


def _refuse_outside(el) -> None:
    """An error for any reference to a file or an address: pnpgen never reads what an SVG names."""
    name = _split(el.tag)[1]
    for key in _HREFS:
        value = (el.get(key) or "").strip()
        if not value or value.startswith("#"):
            continue
        if name == "a":  # a link, which nothing follows: dropped
            del el.attrib[key]
        elif not value.lower().startswith("data:"):  # embedded data is left out with its element, not read
            _outside(value, el)
    texts = [v for k, v in el.attrib.items() if k not in _HREFS]
    if name == "style" and el.text:
        texts.append(el.text)
        found = _IMPORT.search(el.text)
        if found:
            _outside(found.group(1) or "@import", el)
    for text in texts:
        found = _OUTSIDE_URL.search(text)
        if found and not found.group(1).lower().startswith("data:"):
            _outside(found.group(1), el)


def _outside(ref: str, el) -> None:
    shown = ref if len(ref) <= 60 else ref[:57] + "..."
    raise SvgError(
        f"refers to '{shown}' outside itself, which pnpgen never reads (a file or an address); refused. "
        "Keep the art inside the SVG itself",
        el.sourceline or 0,
    )


def _effects(el, left_out: Counter) -> None:
    """Attributes asking for what svglib does not draw (a filter, a mask, markers)."""
    for key, what in _EFFECTS.items():
        value = (el.get(key) or "").strip()
        if value and value != "none":
            left_out[_WHAT[what]] += 1
            del el.attrib[key]
    style = el.get("style")
    if style:
        for found in _STYLE_EFFECT.finditer(style):
            left_out[_WHAT[_EFFECTS[found.group(1).lower()]]] += 1


def _count(root) -> None:
    """Refuse a file that would draw more than MAX_SVG_SHAPES elements, each <use> counting what it repeats
    (so a few lines of <use> cannot ask for millions of shapes); a <use> that contains itself is an error."""
    ids = {el.get("id"): el for el in root.iter() if isinstance(el.tag, str) and el.get("id")}
    weight: dict = {}
    busy: set = set()
    stack: list = [(root, False)]
    while stack:
        el, done = stack.pop()
        if el in weight:
            continue
        target = _use_target(el, ids)
        parts = [*el, *([target] if target is not None else [])]
        if not done:
            if el in busy:
                raise SvgError("has a <use> that contains itself", el.sourceline or 0)
            busy.add(el)
            stack.append((el, True))
            stack.extend((p, False) for p in parts if p not in weight)
            continue
        busy.discard(el)
        weight[el] = 1 + sum(weight.get(p, 0) for p in parts)
        if weight[el] > MAX_SVG_SHAPES:
            raise SvgError(
                f"draws more than {MAX_SVG_SHAPES:,} shapes (each <use> counting what it repeats); "
                "simplify it or use a bitmap",
                el.sourceline or 0,
            )


def _use_target(el, ids: dict):
    if _split(el.tag)[1] != "use":
        return None
    for key in _HREFS:
        value = (el.get(key) or "").strip()
        if value.startswith("#"):
            return ids.get(value[1:])
    return None


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage()
        except Exception:
            message = str(record.msg)
        if message not in self.messages:
            self.messages.append(message)


def _draw(root) -> tuple[Any, list[str]]:
    """svglib's drawing of the cleaned tree, and what svglib logged while drawing it (instead of printing it)."""
    from svglib.svglib import SvgRenderer

    from pnpgen.budget import TooMuchWork

    package, module = logging.getLogger("svglib"), logging.getLogger("svglib.svglib")
    collect = _Collect()
    propagate, level = package.propagate, module.level
    package.addHandler(collect)
    package.propagate = False
    module.setLevel(logging.WARNING)  # spares svglib its debugging walk over every attribute
    try:
        # a file object, never a file name: svglib then resolves no reference relative to any folder
        drawing = SvgRenderer(io.BytesIO()).render(root)
    except RecursionError:
        raise SvgError("is nested too deeply to draw") from None
    except TooMuchWork:  # the face's time limit struck: not a fault of the file, never cached as one
        raise
    except Exception as exc:
        raise SvgError(f"could not be drawn ({type(exc).__name__}: {exc})") from None
    finally:
        package.removeHandler(collect)
        package.propagate = propagate
        module.setLevel(level)
    return drawing, collect.messages


def _measure(drawing, left_out: Counter, logged: list[str]) -> SvgFile:
    """Walk the drawing: its shapes counted, its colours listed; a bitmap or text that got through is taken out."""
    colours: set[str] = set()
    gradients, shapes = False, 0
    stack = [drawing]
    while stack:
        node = stack.pop()
        contents = getattr(node, "contents", None)
        if contents is not None:
            for child in list(contents):
                kind = type(child).__name__
                if kind in ("Image", "String"):  # never in a cleaned tree; never drawn if they were
                    contents.remove(child)
                    left_out[_WHAT["image" if kind == "Image" else "text"]] += 1
                else:
                    stack.append(child)
            continue
        shapes += 1
        if "Gradient" in type(node).__name__:
            gradients = True
        for attr in ("fillColor", "strokeColor"):
            c = getattr(node, attr, None)
            if c is not None and (attr == "fillColor" or (getattr(node, "strokeWidth", 1) or 0) > 0):
                colours.add("#" + c.hexval()[2:].lower()[-6:])
    if shapes > MAX_SVG_SHAPES:
        raise SvgError(f"draws more than {MAX_SVG_SHAPES:,} shapes; simplify it or use a bitmap")
    width, height = float(drawing.width), float(drawing.height)
    if not (0 < width < 1e6 and 0 < height < 1e6):
        raise SvgError("has no size: give it a viewBox, or a width and a height")
    said = [f"{n} {what}" if n > 1 else what for what, n in sorted(left_out.items())]
    said += [f"svglib: {m}" for m in logged[:3]] + ([f"{len(logged) - 3} more"] if len(logged) > 3 else [])
    return SvgFile(drawing, width, height, tuple(sorted(colours)), gradients, shapes, tuple(said))

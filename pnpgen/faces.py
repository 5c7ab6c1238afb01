"""A face is what one side of a card shows: a list of draw operations in points.

Coordinates run from the top-left corner of the trim, y downwards; negative values reach into the bleed.
Pure data: the render stage turns it into PDF, tests can read it as text.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from operator import attrgetter
from typing import Any


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    radius: float = 0.0
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.5
    dash: tuple[float, ...] = ()
    opacity: float = 1.0


@dataclass(frozen=True, slots=True)
class Ellipse:
    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.5
    dash: tuple[float, ...] = ()
    opacity: float = 1.0


@dataclass(frozen=True, slots=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str = "#000000"
    stroke_width: float = 0.5
    dash: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class Polygon:
    points: tuple[tuple[float, float], ...]
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.5
    opacity: float = 1.0
    dash: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class Text:
    x: float
    y: float  # baseline
    font: str
    size: float
    color: str
    text: str
    turn: int = 0  # degrees clockwise about (x, y): 0, 90, 180 or 270 (a `text` element's `rotate`)


@dataclass(frozen=True, slots=True)
class Icon:
    name: str
    x: float
    y: float
    w: float
    h: float
    tint: str | None = None
    turn: int = 0  # its drawing turned clockwise about the box's centre (`rotate`, or its text's); the box is
    # where it lands


def turned(op: Text | Icon, box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """The box (x0, y0, x1, y1) that `op` covers, given the box it would cover unturned: a text run turns about
    its origin (x, y), an icon about its box's centre (its box, already where it lands, is kept)."""
    turn = op.turn
    if not turn or type(op) is Icon:
        return box
    x0, y0, x1, y1 = box
    ox, oy = op.x, op.y
    corners = [_turn_point(x - ox, y - oy, turn) for x in (x0, x1) for y in (y0, y1)]
    xs, ys = [ox + dx for dx, _ in corners], [oy + dy for _, dy in corners]
    return min(xs), min(ys), max(xs), max(ys)


def turned_bounds(op: Icon, bounds: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """An icon's drawn bounds in its 100 x 100 box (`x0, y0, x1, y1`), as they land when the icon is turned."""
    x0, y0, x1, y1 = bounds
    turn = op.turn
    if turn == 90:
        return 100 - y1, x0, 100 - y0, x1
    if turn == 180:
        return 100 - x1, 100 - y1, 100 - x0, 100 - y0
    if turn == 270:
        return y0, 100 - x1, y1, 100 - x0
    return bounds


def _turn_point(dx: float, dy: float, turn: int) -> tuple[float, float]:
    """(dx, dy), y down, turned `turn` degrees clockwise (a quarter turn: exact, no trigonometry)."""
    if turn == 90:
        return -dy, dx
    if turn == 180:
        return -dx, -dy
    if turn == 270:
        return dy, -dx
    return dx, dy


@dataclass(frozen=True, slots=True)
class Image:
    path: str  # absolute path of the image file
    x: float
    y: float
    w: float
    h: float
    clip: tuple[float, float, float, float]  # (x, y, w, h): the box the image is cut to


@dataclass(frozen=True, slots=True)
class Vector:
    """SVG art, drawn as vectors: the renderer draws the file's drawing (`pnpgen.svg`) scaled to the box."""

    path: str  # absolute path of the SVG file
    digest: str  # its sha256 when the face was drawn: the renderer draws exactly those bytes
    x: float
    y: float
    w: float
    h: float
    clip: tuple[float, float, float, float]  # (x, y, w, h): the box the art is cut to


Op = Rect | Ellipse | Line | Polygon | Text | Icon | Image | Vector  # a draw operation


@dataclass(frozen=True)
class Face:
    width_pt: float
    height_pt: float
    bleed_pt: float
    ops: tuple[Op, ...]
    shape: str = "rect"  # what the face is cut to: rect, square, hex, hex-flat, triangle, circle

    def __hash__(self) -> int:
        """Computed once: a face is looked up once per copy placed on a sheet, and may hold 20,000 shapes."""
        try:
            known: int = self.__dict__["_hash"]
            return known
        except KeyError:
            value = hash((self.width_pt, self.height_pt, self.bleed_pt, self.ops, self.shape))
            object.__setattr__(self, "_hash", value)
            return value

    def __getstate__(
        self,
    ) -> dict[str, object]:  # a hash is only good in the process that computed it; a snapshot is big
        return {k: v for k, v in self.__dict__.items() if k not in ("_hash", "_snapshot")}

    def snapshot(self) -> str:
        """Stable text of the draw operations, rounded to 0.01 pt (for snapshot tests and diffs, and what a
        rulebook records of the faces it pictures). Made once per face: a resident process judges the same kept
        faces at every save (45 ms of a pictured card's rebuild)."""
        known = self.__dict__.get("_snapshot")
        if known is None:
            known = self._snapshot_text()
            object.__setattr__(self, "_snapshot", known)
        return known

    def _snapshot_text(self) -> str:
        lines = []
        for op in self.ops:
            fields = []
            for name in op.__slots__:
                v = getattr(op, name)
                if name == "turn" and not v:  # unturned: as before turning existed
                    continue
                if isinstance(v, float):
                    v = f"{v:.2f}"
                elif isinstance(v, tuple):
                    v = "(" + " ".join(f"{x:.2f}" if isinstance(x, float) else str(x) for x in v) + ")"
                fields.append(f"{name}={v}")
            lines.append(type(op).__name__ + " " + " ".join(fields))
        return "\n".join(lines)


def face_digest(face: Face) -> str:
    """What a face prints, as 16 hex digits: its size, cut and every draw operation (numbers to 0.01 pt), with
    art named by its bytes, not its path. Two builds print a face the same exactly when its digest is the same
    (`pnpgen changes` compares them face by face). Computed once per face (a shared back is one face); a face that
    draws bitmap art keeps the digests of its art files with it, and is computed again when one of them differs
    (a file may change under a face kept by a long-running process)."""
    known: str | None = face.__dict__.get("_digest")
    if known is not None:
        art: tuple[tuple[str, str], ...] = face.__dict__.get("_art", ())
        if all(file_digest(path) == digest for path, digest in art):
            return known
    parts = [f"{face.width_pt:.2f} {face.height_pt:.2f} {face.bleed_pt:.2f} {face.shape}"]
    used: list[tuple[str, str]] = []
    for op in face.ops:
        cls: Any = type(op)
        if cls is Image or cls is Vector:
            if cls is Image:
                image: Any = op
                used.append((image.path, file_digest(image.path)))
            parts.append(op_text(op))
            continue
        values = _getter(cls)(op)
        fmt, tuples = _line_format(cls, tuple(map(type, values)))
        if tuples:
            texts = list(values)
            for i in tuples:
                texts[i] = _tuple_text(texts[i])
            parts.append(fmt.format(*texts))
        else:
            parts.append(fmt.format(*values))
        if (cls is Text or cls is Icon) and (turn := turn_of(op)):  # unturned: as before turning existed
            parts[-1] += f" turn={turn}"
    digest = hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]
    object.__setattr__(face, "_digest", digest)
    if used:
        object.__setattr__(face, "_art", tuple(used))
    return digest


def op_text(op: Op) -> str:
    """One draw operation as `face_digest` reads it: its type, then each field, numbers to 0.01 pt."""
    image, vector = isinstance(op, Image), isinstance(op, Vector)
    fields = []
    for name in _fields(type(op)):
        v = getattr(op, name)
        if name == "path" and (image or vector):
            if vector:
                continue  # its `digest` names its bytes
            v = file_digest(v)
        elif isinstance(v, float):
            v = f"{v:.2f}"
        elif isinstance(v, tuple):
            v = _tuple_text(v)
        fields.append(f"{name}={v}")
    turn = turn_of(op)
    return type(op).__name__ + " " + " ".join(fields) + (f" turn={turn}" if turn else "")


def turn_of(op: Any) -> int:
    """A text run's or an icon's turn (0 for every other operation)."""
    turn: int = getattr(op, "turn", 0)
    return turn


def _fields(cls: Any) -> tuple[str, ...]:
    """The fields a digest reads of an operation of class `cls`: all but `turn`, which is added when not 0 (so
    a face without turned text has the digest it had before text could turn)."""
    return tuple(name for name in cls.__slots__ if name != "turn")


def _tuple_text(v: tuple[object, ...]) -> str:
    if not v:  # no dash: most shapes
        return "()"
    return "(" + " ".join([f"{x:.2f}" if isinstance(x, float) else str(x) for x in v]) + ")"


@lru_cache(maxsize=64)
def _getter(cls: Any) -> Callable[[Any], tuple[Any, ...]]:
    """The fields of an operation of class `cls`, as a tuple, in one call."""
    fields = _fields(cls)
    getter = attrgetter(*fields)
    return getter if len(fields) > 1 else lambda op: (getter(op),)


@lru_cache(maxsize=1024)
def _line_format(cls: Any, types: tuple[type, ...]) -> tuple[str, tuple[int, ...]]:
    """`op_text` as a format string for an operation of class `cls` whose fields have these types (floats to two
    places, everything else as `str` gives it), and which fields are tuples, to be made text first."""
    fields, tuples = [], []
    for i, (name, t) in enumerate(zip(_fields(cls), types)):
        if issubclass(t, float):
            fields.append(f"{name}={{:.2f}}")
        else:
            fields.append(f"{name}={{}}")
            if issubclass(t, tuple):
                tuples.append(i)
    return cls.__name__ + " " + " ".join(fields), tuple(tuples)


# The process's: an art file's sha256 by its path, modification time and size (a file edited in place under a
# resident process gets another key). A face's digest names its art by its bytes, and a build, or a resident
# process's builds, would hash the same art for every face that draws it.
_FILE_DIGESTS: dict[tuple[str, int, int], str] = {}


def file_digest(path: str) -> str:
    """The sha256 of an art file a face draws (read by the build already: confined and checked)."""
    try:
        st = os.stat(path)
    except OSError:
        return "missing"
    key = (path, st.st_mtime_ns, st.st_size)
    if key not in _FILE_DIGESTS:
        with open(path, "rb") as fh:
            _FILE_DIGESTS[key] = hashlib.file_digest(fh, "sha256").hexdigest()
    return _FILE_DIGESTS[key]


def known_digest(path: str, digest: str) -> None:
    """The sha256 of a file the build's reader has just hashed (`inputs.Reader`), so that `file_digest` does not
    read it again."""
    try:
        st = os.stat(path)
    except OSError:
        return
    _FILE_DIGESTS[(path, st.st_mtime_ns, st.st_size)] = digest

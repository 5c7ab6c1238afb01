"""Where a back goes: which edge the sheet is flipped on, and a printer's drift corrected.

Pure geometry, like the rest of `imposition`. A `Duplex` maps a front's place on the sheet to its back's place on
the back page, so that after the flip the back lies behind its own front:

- `long` (flip on the long edge of a portrait sheet, what printers call "long-edge binding"): x -> paper width - x;
- `short` (flip on the short edge): y -> paper height - y, and each back turned half round in its place, so a
  card turned over sideways, as players turn cards, shows its back the right way up;
- `none` (no duplex: backs printed as pages of their own, for single-sided printing and gluing): where the front
  is, unmirrored.

`offset` (dx, dy in pt) and `angle` (degrees, anticlockwise about the page's centre) move everything on a back
page, to undo a printer that shifts or skews its second side; `pnpgen calibrate` prints the sheet that measures
them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Box = tuple[float, float, float, float]  # (x0, y0, x1, y1), or a slot's bleed (left, bottom, right, top)

FLIPS = ("long", "short", "none")
MAX_OFFSET_MM = 10.0  # printers drift 1 to 4 mm; more than this is a mistake
MAX_ANGLE = 2.0  # degrees


@dataclass(frozen=True)
class Duplex:
    flip: str = "long"
    dx: float = 0.0  # pt, added to every back page's content
    dy: float = 0.0
    angle: float = 0.0

    @property
    def turned(self) -> bool:
        """Whether each back is drawn turned half round in its place."""
        return self.flip == "short"

    @property
    def moved(self) -> bool:
        return bool(self.dx or self.dy or self.angle)

    def point(self, x: float, y: float, paper_w: float, paper_h: float) -> tuple[float, float]:
        """Where the back of the front's point (x, y) is drawn, before the offset."""
        if self.flip == "long":
            return paper_w - x, y
        if self.flip == "short":
            return x, paper_h - y
        return x, y

    def box(
        self, x: float, y: float, w: float, h: float, paper_w: float, paper_h: float
    ) -> tuple[float, float, float, float]:
        """The back's box (x, y, w, h: bottom-left, size) of a front's box."""
        if self.flip == "long":
            return paper_w - x - w, y, w, h
        if self.flip == "short":
            return x, paper_h - y - h, w, h
        return x, y, w, h

    def bleed(self, bleed: Box) -> Box:
        """A slot's bleed (left, bottom, right, top) on the back page."""
        left, bottom, right, top = bleed
        if self.flip == "long":
            return right, bottom, left, top
        if self.flip == "short":
            return left, top, right, bottom
        return bleed

    def key(self) -> str:
        """What the manifest records of it: outputs are reused only for the same flip and offset."""
        return f"{self.flip} {self.dx:.3f} {self.dy:.3f} {self.angle:.3f}"


LONG = Duplex()


# <deck>.pdf, <deck>-short.pdf, <deck>-single.pdf, and the fold-over form <deck>-fold.pdf (`imposition.fold`)
SUFFIX = {"long": "", "short": "-short", "none": "-single", "fold": "-fold"}
FORMS = (*FLIPS, "fold")
INKS = ("full", "low")
INK_SUFFIX = {"full": "", "low": "-lowink"}  # <deck>-lowink.pdf, <deck>-short-lowink.pdf, ...


@dataclass(frozen=True)
class Printing:
    """How a build prints its sheets: the duplex forms written (each its own file) and the printer's back
    offset, the same for every form."""

    flips: tuple[str, ...] = ("long",)
    dx: float = 0.0  # pt
    dy: float = 0.0
    angle: float = 0.0
    inks: tuple[str, ...] = ("full",)  # full colour, low ink (`pnpgen.lowink`), or both
    whole: bool = True  # and the print-all file (`pipeline/printall.py`); watch and serve leave it out

    def __post_init__(self) -> None:  # the offset drawn is what `key` records (0.001 pt and degree, no -0)
        for name in ("dx", "dy", "angle"):
            object.__setattr__(self, name, round(getattr(self, name), 3) + 0.0)

    def duplex(self, flip: str) -> Duplex:
        """The back pages' placing for a duplex form (the fold form has no back pages: it takes none)."""
        return Duplex(flip if flip in FLIPS else "long", self.dx, self.dy, self.angle)

    def names(self, stem: str) -> list[str]:
        """The files of a sheet output `stem`, one per form."""
        return [f"{stem}{SUFFIX[flip]}{INK_SUFFIX[ink]}.pdf" for flip in self.flips for ink in self.inks]

    def flip_of(self, name: str, stem: str) -> str:
        return next(
            f for f in self.flips for ink in self.inks if name == f"{stem}{SUFFIX[f]}{INK_SUFFIX[ink]}.pdf"
        )

    @staticmethod
    def ink_of(name: str) -> str:
        return "low" if name.endswith(f"{INK_SUFFIX['low']}.pdf") else "full"

    def key(self) -> str:
        """What the manifest records: outputs are reused only when printed the same way (the print-all file
        aside: it is one more file, and the manifest records whether it was asked for)."""
        inks = "" if self.inks == ("full",) else f" ink {'+'.join(self.inks)}"
        return f"{'+'.join(self.flips)} {self.dx:.3f} {self.dy:.3f} {self.angle:.3f}{inks}"


DEFAULT = Printing()


def parse_offset(text: str) -> tuple[float, float, float]:
    """'X,Y' or 'X,Y,ANGLE' (mm, mm, degrees) -> (dx pt, dy pt, angle); ValueError with a message otherwise."""
    parts = [p.strip() for p in str(text).split(",")]
    if len(parts) not in (2, 3):
        raise ValueError(f"expected X,Y or X,Y,ANGLE in mm and degrees, such as 1.5,-0.5 (got {text!r})")
    try:
        values = [float(p) for p in parts]
    except ValueError:
        raise ValueError(f"expected numbers such as 1.5,-0.5 (got {text!r})") from None
    if not all(math.isfinite(v) for v in values):  # nan passes every comparison below: refused first
        raise ValueError(f"expected finite numbers such as 1.5,-0.5 (got {text!r})")
    x, y, angle = (*values, 0.0)[:3]
    if not all(abs(v) <= MAX_OFFSET_MM for v in (x, y)) or abs(angle) > MAX_ANGLE:
        raise ValueError(
            f"a back offset is at most {MAX_OFFSET_MM:g} mm each way and {MAX_ANGLE:g} degrees (got {text!r}); "
            "measure it with pnpgen calibrate"
        )
    mm = 72 / 25.4
    return x * mm, y * mm, angle

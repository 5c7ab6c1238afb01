"""The duplex calibration sheet (`pnpgen calibrate`): printed on both sides, it shows how far a printer puts its
back page from where the front says, in the numbers `--back-offset` takes.

The front carries four scales, in mm from -5 to +5: across the sheet near its top and its bottom (they read X)
and up the sheet near its left and right edges (they read Y). The back carries one long pointer behind the zero
of each scale, placed for the flip the sheet is printed with. Held up to a light, each pointer shows through on
its scale at the correction to give: each scale is numbered so that its reading is what `--back-offset` takes
(the sign already turned). Top and bottom X readings that differ mean the back is also turned: the sheet prints
the factor that turns their difference into the ANGLE.
"""

from __future__ import annotations

import math
from pathlib import Path

from pnpgen.imposition.duplex import Duplex
from pnpgen.render.pdf import colour, new_canvas
from pnpgen.text.fonts import pdf_name
from pnpgen.units import MM, paper_pt

REACH = 5  # mm each way
INSET = 30 * MM  # the X scales stand this far inside the top and bottom edges, the Y scales inside the sides


def scales(paper_w: float, paper_h: float) -> dict:
    """Each scale's zero on the front page (pt) and the axis it reads."""
    return {
        "top": ("x", paper_w / 2, paper_h - INSET),
        "bottom": ("x", paper_w / 2, INSET),
        "left": ("y", INSET, paper_h / 2),
        "right": ("y", paper_w - INSET, paper_h / 2),
    }


def reading_sign(axis: str, flip: str) -> int:
    """+1 when a tick t mm from the zero reads t, -1 when it reads -t (see the module's docstring)."""
    mirrored = (axis == "x" and flip == "long") or (axis == "y" and flip == "short")
    return 1 if mirrored else -1


def angle_factor(paper_h: float, flip: str) -> float:
    """Degrees per mm of difference (top reading minus bottom reading) between the X scales."""
    distance_mm = (paper_h - 2 * INSET) / MM
    sign = -1 if flip == "long" else 1
    return sign * 180 / (math.pi * distance_mm)


def write_calibration(path: Path, paper: str, flip: str) -> int:
    pw, ph = paper_pt(paper)
    c = new_canvas(path, (pw, ph), f"pnpgen duplex calibration ({paper.upper()}, {flip}-edge)")
    black, grey = colour("#000000"), colour("#555555")
    # front: the scales and how to read them
    c.setFillColor(black)
    c.setFont(pdf_name("sans-bold"), 13)
    c.drawCentredString(
        pw / 2, ph - 14 * MM, f"Duplex calibration · {paper.upper()} · flip on the {flip} edge"
    )
    c.setFont(pdf_name("sans"), 8.5)
    factor = angle_factor(ph, flip)
    lines = [
        "Print both pages on one sheet at 100 % (no scaling), duplex, flipping on the edge named above.",
        "Hold the sheet up to a light: each line printed on the back shows through on one scale.",
        "X = the average of the top and bottom readings; Y = the average of the left and right readings.",
        f"If top and bottom differ, ANGLE = (top - bottom) x {factor:.4f} degrees.",
        "Then build with --back-offset X,Y (or X,Y,ANGLE), or keep it in printers.yaml (see the README).",
    ]
    for i, text in enumerate(lines):
        c.drawCentredString(pw / 2, ph - (45 + 6 * i) * MM, text)
    c.setStrokeColor(black)
    for name, (axis, x0, y0) in scales(pw, ph).items():
        sign = reading_sign(axis, flip)
        for half in range(-2 * REACH, 2 * REACH + 1):
            t = half / 2
            length = 6 * MM if half % 4 == 0 else 4.5 * MM if half % 2 == 0 else 3 * MM
            c.setLineWidth(0.3 if half else 0.6)
            if axis == "x":
                c.line(x0 + t * MM, y0, x0 + t * MM, y0 + length)
            else:
                c.line(x0, y0 + t * MM, x0 + length, y0 + t * MM)
            if half % 4 == 0:  # every 2 mm: a label each mm would not fit
                c.setFont(pdf_name("sans"), 5)
                label = f"{sign * t:+.0f}" if t else "0"
                away = (7 if half % 8 == 0 else 9.5) * MM  # staggered: neighbours 2 mm apart never touch
                if axis == "x":
                    c.drawCentredString(x0 + t * MM, y0 + away, label)
                else:
                    c.drawString(x0 + away, y0 + t * MM - 1.0, label)  # centred on its tick
        c.setFillColor(grey)
        c.setFont(pdf_name("sans"), 7)
        where = (x0 - 30 * MM, y0 - 5 * MM) if axis == "x" else (x0 - 8 * MM, y0 - 12 * MM)
        c.drawString(*where, f"{name}: {axis.upper()}")
        c.setFillColor(black)
    c.showPage()
    # back: one pointer behind each scale's zero
    duplex = Duplex(flip)
    c.setStrokeColor(black)
    c.setLineWidth(0.6)
    for axis, x0, y0 in scales(pw, ph).values():
        x, y = duplex.point(x0, y0, pw, ph)
        if axis == "x":
            ends = duplex.point(x0, y0 - 4 * MM, pw, ph), duplex.point(x0, y0 + 10 * MM, pw, ph)
        else:
            ends = duplex.point(x0 - 4 * MM, y0, pw, ph), duplex.point(x0 + 10 * MM, y0, pw, ph)
        c.line(*ends[0], *ends[1])
    c.setFont(pdf_name("sans"), 8)
    c.setFillColor(grey)
    c.drawCentredString(pw / 2, ph / 2, "back of the calibration sheet: read the front against a light")
    c.showPage()
    c.save()
    return 2

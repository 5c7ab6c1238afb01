"""A piece's cut guide shows on the darkest art and on the lightest, for every shape: measured in the pixels of
a written sheet, beside every side of every outline. (A grey line alone vanished on dark hex tiles.)"""

from __future__ import annotations

import math

import pypdfium2
import pytest
from conftest import fast_once

from pnpgen.faces import Face, Rect
from pnpgen.imposition.pieces import plan_pieces
from pnpgen.render.sheets import PdfWriter
from pnpgen.shapes import SHAPES, bbox
from pnpgen.units import MM

DPI = 300
ARTS = {"dark": "#1b1b24", "light": "#f4f1e8"}


def _points(guide) -> list[tuple[float, float]]:
    """Points on the outline, in PDF points: each side's middle and quarters (a circle: 16 points round)."""
    if guide[0] == "circle":
        _, cx, cy, r = guide
        return [(cx + r * math.cos(a * math.pi / 8), cy + r * math.sin(a * math.pi / 8)) for a in range(16)]
    pts = list(guide[1])
    out = []
    for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1]):
        out += [(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t) for t in (0.25, 0.5, 0.75)]
    return out


@pytest.mark.parametrize("art", fast_once(list(ARTS)))
@pytest.mark.parametrize("shape", SHAPES)
def test_a_cut_guide_stands_out_from_any_art(tmp_path, shape, art):
    w, h = bbox(shape, (25 * MM, 18 * MM))
    bleed = 2 * MM
    plan = plan_pieces("a4", shape, w, h, bleed)
    fill = Rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, fill=ARTS[art])
    face = Face(w, h, bleed, (fill,), shape)
    faces = [face] * min(plan.per_sheet, 6)
    pdf = tmp_path / "sheet.pdf"
    writer = PdfWriter(pdf, (plan.paper_w, plan.paper_h), "guides", "guides", {})
    writer.drawer.count(faces)
    writer.piece_page(plan, faces, False, "guides")
    writer.save()
    doc = pypdfium2.PdfDocument(str(pdf))
    image = doc[0].render(scale=DPI / 72).to_pil().convert("L")
    doc.close()
    k = DPI / 72
    ground = int(sum(int(ARTS[art][i : i + 2], 16) for i in (1, 3, 5)) / 3)
    weak = []
    for slot in plan.opened([True] * len(faces))[: len(faces)]:
        for x, y in _points(slot.guide):
            px, py = round(x * k), round((plan.paper_h - y) * k)
            near = [image.getpixel((px + dx, py + dy)) for dx in range(-3, 4) for dy in range(-3, 4)]
            if max(abs(v - ground) for v in near) < 120:  # nothing there differs from the art: unseen
                weak.append((round(x / MM, 1), round(y / MM, 1)))
    assert not weak, f"{len(weak)} places where the guide does not stand out, e.g. {weak[:4]} (mm)"

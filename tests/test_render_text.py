"""Text on a sheet is written with the operators ReportLab's drawString writes, byte for byte."""

from __future__ import annotations

from pnpgen.render.pdf import FaceDrawer, new_canvas
from pnpgen.text.fonts import pdf_name

TEXTS = [
    "Hello (world) \\ back",
    "",
    "na\u00efve \u2014 caf\u00e9",
    "".join(map(chr, [*range(0x100, 0x180), *range(0x400, 0x460)])) + " and ASCII again",  # two subsets
    "Hello once more, (now) in the first subset",
]


def test_strings_are_written_as_reportlab_writes_them(tmp_path):
    ours, theirs = (
        new_canvas(tmp_path / "a.pdf", (300, 300), "t"),
        new_canvas(tmp_path / "b.pdf", (300, 300), "t"),
    )
    drawer = FaceDrawer(ours, {})
    for font, size in (("sans", 9), ("display-bold", 13.25)):
        for c in (ours, theirs):
            c.setFont(pdf_name(font), size)
        for i, text in enumerate(TEXTS):
            drawer.text.string(10.5, 20.25 + i * 11.1, text)
            theirs.drawString(10.5, 20.25 + i * 11.1, text)
    assert ours._code == theirs._code
    assert any(" Tj /" in line for line in ours._code)  # a string that changes subset half way
    ours.save()
    theirs.save()
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()


def test_text_ops_are_written_as_reportlab_writes_them(tmp_path):
    """A face's text: colour, font and string as `setFillColor`, `setFont` and `drawString` write them, also when
    a run is written again from what the file kept of it, or its characters are all in the first subset."""
    from pnpgen.faces import Face, Text
    from pnpgen.render.pdf import colour

    texts = [*TEXTS, "Hello (world) \\ back", "na\u00efve\u00a0caf\u00e9", *TEXTS]  # again: kept, or quick
    ops = [
        Text(10.5, 20.25 + i * 3.1, font, size, col, text)
        for font, size, col in (
            ("sans", 9, "#1a2b3c"),
            ("display-bold", 13.25, "cmyk(0, 20, 80, 10)"),
            ("sans", 9, "#000000"),
        )
        for i, text in enumerate(texts)
    ]
    face = Face(180.0, 252.0, 9.0, tuple(ops), "rect")
    ours, theirs = (
        new_canvas(tmp_path / "a.pdf", (300, 300), "t"),
        new_canvas(tmp_path / "b.pdf", (300, 300), "t"),
    )
    FaceDrawer(ours, {})._draw_ops(face)
    for op in ops:
        theirs.setFillColor(colour(op.color))
        theirs.setFont(pdf_name(op.font), op.size)
        theirs.drawString(op.x, 252.0 - op.y, op.text)
    assert ours._code == theirs._code
    assert sum(" rg" in line for line in ours._code) == 2 * len(texts)
    ours.save()
    theirs.save()
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()

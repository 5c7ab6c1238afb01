"""What one PDF keeps of what it wrote (colour and width operators, runs of text, rectangles' paths, icons'
placings, clipping paths, cut marks) is written again byte for byte: a build with nothing kept is the same file."""

from __future__ import annotations

import shutil

import pytest
from conftest import FIXTURES, run_cli

from pnpgen.render import pdf, sheets
from pnpgen.render.pdf import FaceDrawer, new_canvas
from pnpgen.render.pdftext import PdfText, colour


class Forgets(dict):
    """A cache that keeps nothing: every lookup misses, so everything is drawn afresh."""

    def get(self, key, default=None):
        return default

    def __setitem__(self, key, value):
        pass


def forgetful(monkeypatch):
    drawer_init, writer_init = FaceDrawer.__init__, sheets.PdfWriter.__init__

    def drawer(self, *args, **kwargs):
        drawer_init(self, *args, **kwargs)
        self._kept = Forgets()
        for name in ("fills", "strokes", "widths", "fonts", "runs"):
            setattr(self.text, name, Forgets())

    def writer(self, *args, **kwargs):
        writer_init(self, *args, **kwargs)
        self._clips, self._mark_lines = Forgets(), Forgets()

    monkeypatch.setattr(pdf.FaceDrawer, "__init__", drawer)
    monkeypatch.setattr(sheets.PdfWriter, "__init__", writer)


@pytest.mark.parametrize("fixture", ["duplex", "pieces", "basic"])
def test_a_build_that_keeps_nothing_writes_the_same_bytes(fixture, tmp_path, monkeypatch):
    shutil.copytree(FIXTURES / fixture, tmp_path / "p")
    content = tmp_path / "p" / "content"
    kept = run_cli("build", "-j", "1", "--content", content, "--out", tmp_path / "kept")
    assert kept.exit_code == 0, kept.output
    forgetful(monkeypatch)
    fresh = run_cli("build", "-j", "1", "--content", content, "--out", tmp_path / "fresh")
    assert fresh.exit_code == 0, fresh.output
    pdfs = sorted(p.relative_to(tmp_path / "kept") for p in (tmp_path / "kept").rglob("*.pdf"))
    assert pdfs and pdfs == sorted(
        p.relative_to(tmp_path / "fresh") for p in (tmp_path / "fresh").rglob("*.pdf")
    )
    for rel in pdfs:
        assert (tmp_path / "kept" / rel).read_bytes() == (tmp_path / "fresh" / rel).read_bytes(), rel


def test_strokes_and_widths_are_written_as_reportlab_writes_them(tmp_path):
    ours, theirs = (
        new_canvas(tmp_path / "a.pdf", (100, 100), "t"),
        new_canvas(tmp_path / "b.pdf", (100, 100), "t"),
    )
    text = PdfText(ours)
    for value, width in (("#7a3b1d", 1.2), ("#000000", 0.25), ("cmyk(0, 20, 80, 10)", 1), ("#7a3b1d", 1.2)):
        text.stroke(value)
        text.width(width)
        text.fill(value)
        theirs.setStrokeColor(colour(value))
        theirs.setLineWidth(width)
        theirs.setFillColor(colour(value))
        assert (ours._strokeColorObj, ours._lineWidth) == (theirs._strokeColorObj, theirs._lineWidth)
    assert ours._code == theirs._code

"""What a shop's PDF/X-1a preflight reads, in every PDF a shop target writes: each embedded font subset named
once (two different subsets under one name, `AAAAAA+NotoSans-Regular` from the rulebook and again from its back
cover, both ReportLab's first tag, let a RIP that caches fonts by name set one page with the other's glyphs);
and `pdfx.problems`, run on every file before it is kept, saying what breaks the rules. Read from written files."""

from __future__ import annotations

import hashlib
import re

import pikepdf
import pytest
from conftest import run_cli

from pnpgen.shop import pdfx

RULES = "# {{ game.title }}\n\n" + "".join(
    f"## Part {i}\n\n" + ("Words of the rules, written out to fill a page. " * 60) + "\n\n"
    for i in range(1, 4)
)
TAG = re.compile(r"^/[A-Z]{6}\+")


def _subsets(pdf: pikepdf.Pdf) -> dict[str, set[str]]:
    """Each subset-tagged BaseFont -> the digests of the font programs written under it (a CID font's too)."""
    found: dict[str, set[str]] = {}
    for obj in pdf.objects:
        if not isinstance(obj, pikepdf.Dictionary) or obj.get("/Type") != "/Font":
            continue
        descriptor = obj.get("/FontDescriptor")
        if descriptor is None:
            continue
        program = next(
            (descriptor[k] for k in ("/FontFile", "/FontFile2", "/FontFile3") if k in descriptor), None
        )
        name = str(obj.BaseFont)
        if program is not None and TAG.match(name):
            assert str(descriptor.FontName) == name, (name, str(descriptor.FontName))
            found.setdefault(name, set()).add(hashlib.sha256(program.read_bytes()).hexdigest())
    return found


@pytest.fixture
def exported(project, tmp_path):
    root = project("basic")
    (root / "content" / "sample" / "rulebook.md").write_text(RULES)
    out = tmp_path / "out"

    def run(target: str):
        result = run_cli("export", "shop", target, "sample", "--content", "content", "--out", out, cwd=root)
        assert result.exit_code == 0, result.output
        return out / "sample" / "shop" / target

    return run


@pytest.mark.parametrize("target", ["dtc", "pdfx", "factory"])
def test_no_two_font_subsets_share_a_name(exported, target):
    folder = exported(target)
    pdfs = sorted(p for p in folder.glob("*.pdf") if p.name != "spec.pdf")
    assert pdfs
    if target != "dtc":
        assert folder / "rulebook-booklet.pdf" in pdfs  # the file that joins two drawn documents
    for path in pdfs:
        with pikepdf.open(path) as pdf:
            subsets = _subsets(pdf)
        assert subsets, path.name
        shared = {name: len(programs) for name, programs in subsets.items() if len(programs) > 1}
        assert not shared, (path.name, shared)
        assert not pdfx.problems(path), path.name


def test_the_check_finds_two_subsets_under_one_name(exported, tmp_path):
    """`pdfx.problems` (run on every file before it is kept) says so when a file has them."""
    folder = exported("pdfx")
    broken = tmp_path / "broken.pdf"
    with pikepdf.open(folder / "rulebook-booklet.pdf") as pdf:
        fonts = [
            o
            for o in pdf.objects
            if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/Font" and "/FontDescriptor" in o
        ]
        programs = {f.FontDescriptor.FontFile2.objgen for f in fonts}
        assert len(programs) >= 2
        for font in fonts:
            font.BaseFont = pikepdf.Name("/AAAAAA+Same")
            font.FontDescriptor.FontName = pikepdf.Name("/AAAAAA+Same")
        pdf.save(broken)
    assert any("AAAAAA+Same" in p and "subset" in p for p in pdfx.problems(broken)), pdfx.problems(broken)


def _drop_intent_info(pdf):
    del pdf.Root.OutputIntents[0].Info


def _drop_registry(pdf):
    del pdf.Root.OutputIntents[0].RegistryName


def _two_intents(pdf):
    pdf.Root.OutputIntents.append(pdf.Root.OutputIntents[0])


def _drop(key: str):
    def drop(pdf):
        del pdf.trailer.Info[key]

    return drop


BREAKS = {
    "the intent's Info": (_drop_intent_info, "Info"),
    "the registry of a condition with no profile": (_drop_registry, "registry"),
    "two PDF/X intents": (_two_intents, "2 PDF/X output intents"),
    "the Title": (_drop("/Title"), "Title"),
    "the CreationDate": (_drop("/CreationDate"), "CreationDate"),
    "the ModDate": (_drop("/ModDate"), "ModDate"),
}


@pytest.mark.parametrize("what", sorted(BREAKS))
def test_the_check_finds_what_pdf_x_1a_asks_of_its_intent_and_information(exported, tmp_path, what):
    """The PDF/X-1a keys a shop's preflight reads (ISO 15930-4 as preflight tools list them): one GTS_PDFX intent
    with Info, naming its registry when it embeds no profile; Title, CreationDate and ModDate. Each removed from
    a written file is said."""
    folder = exported("dtc")
    source = sorted(folder.glob("*-fronts.pdf"))[0]
    assert not pdfx.problems(source)
    broken = tmp_path / "broken.pdf"
    damage, said = BREAKS[what]
    with pikepdf.open(source) as pdf:
        damage(pdf)
        pdf.save(broken)
    assert any(said in p for p in pdfx.problems(broken)), pdfx.problems(broken)

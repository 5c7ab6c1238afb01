"""Did a change move pnpgen's output? Compare a build with a reference build of the same content.

    .venv/bin/pnpgen build --out /tmp/ref            # before the change
    .venv/bin/pnpgen build --out /tmp/new            # after it
    .venv/bin/python bench/same_output.py /tmp/ref /tmp/new

Every file of the reference must be in the new build and the reverse. A PDF passes when it is byte-identical,
or, failing that, when it has the same pages and every page renders to the same pixels at 100 dpi (poppler's
pdftoppm; pypdfium2 where poppler is not installed): a change such as not wrapping a face printed once in a PDF
form changes the bytes, never what is printed. (pdfium's anti-aliasing rounds an edge drawn in a form a shade
apart from the same edge drawn on the page: 92 of 967,590 pixels by 1/255 on one card sheet; poppler renders the
two the same, so it is the judge here.) A
manifest passes when it is the same apart from what names the engine and the bytes of the PDFs (`engine`, each
file's `sha256`) and fields one build's entries have and the other's lack (added since, as the rulebook's
`contents`); the digests of the printed faces must not move. Other files must be byte-identical.
Prints one line per difference and exits 1 when there is any; prints a summary and exits 0 when there is none.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

DPI = 100


def _poppler_pages(pdf: Path, folder: Path) -> list[Path]:
    subprocess.run(["pdftoppm", "-r", str(DPI), "-png", str(pdf), str(folder / "p")], check=True)
    return sorted(folder.glob("p-*.png"))


def pixels_same(a: Path, b: Path) -> str | None:
    """None when the two PDFs print the same, else why not."""
    from PIL import Image, ImageChops

    if shutil.which("pdftoppm") is None:  # no poppler: pypdfium2, where a form may shift an edge by a shade
        import pypdfium2 as pdfium

        da, db = pdfium.PdfDocument(str(a)), pdfium.PdfDocument(str(b))
        pages_a = [da[i].render(scale=DPI / 72).to_pil().convert("RGB") for i in range(len(da))]
        pages_b = [db[i].render(scale=DPI / 72).to_pil().convert("RGB") for i in range(len(db))]
    else:
        with tempfile.TemporaryDirectory() as ta, tempfile.TemporaryDirectory() as tb:
            pages_a = [Image.open(p).convert("RGB") for p in _poppler_pages(a, Path(ta))]
            pages_b = [Image.open(p).convert("RGB") for p in _poppler_pages(b, Path(tb))]
    if len(pages_a) != len(pages_b):
        return f"{len(pages_a)} pages against {len(pages_b)}"
    for i, (ia, ib) in enumerate(zip(pages_a, pages_b)):
        if ia.size != ib.size:
            return f"page {i + 1}: size differs"
        worst = max(hi for _lo, hi in ImageChops.difference(ia, ib).getextrema())
        if worst:
            return f"page {i + 1}: pixels differ (by up to {worst}/255)"
    return None


def manifest_view(path: Path, fields: frozenset = frozenset()) -> object:
    """The manifest less what names the engine and the PDFs' bytes, and less the entries' `fields` (those the
    other build's manifest does not have: a field added since, such as a rulebook's `contents`)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    data.pop("engine", None)
    for entry in data.get("files", []):
        if isinstance(entry, dict):
            entry.pop("sha256", None)
            for field in fields:
                entry.pop(field, None)
    return data


def _entry_fields(path: Path) -> set:
    data = json.loads(path.read_text(encoding="utf-8"))
    return {k for e in data.get("files", []) if isinstance(e, dict) for k in e}


def compare(ref: Path, new: Path) -> tuple[list[str], dict[str, int]]:
    problems: list[str] = []
    counts = {"identical": 0, "pixel-identical": 0}
    ref_files = {p.relative_to(ref) for p in ref.rglob("*") if p.is_file()}
    new_files = {p.relative_to(new) for p in new.rglob("*") if p.is_file()}
    for rel in sorted(ref_files - new_files):
        problems.append(f"{rel}: missing from the new build")
    for rel in sorted(new_files - ref_files):
        problems.append(f"{rel}: not in the reference")
    for rel in sorted(ref_files & new_files):
        a, b = ref / rel, new / rel
        if a.read_bytes() == b.read_bytes():
            counts["identical"] += 1
            continue
        if rel.name == "manifest.json":
            only = frozenset(_entry_fields(a) ^ _entry_fields(b))  # in one build's entries, not the other's
            if manifest_view(a, only) == manifest_view(b, only):
                counts["identical"] += 1
            else:
                problems.append(f"{rel}: manifest differs beyond the engine and the PDFs' digests")
            continue
        if rel.suffix == ".pdf":
            why = pixels_same(a, b)
            if why is None:
                counts["pixel-identical"] += 1
            else:
                problems.append(f"{rel}: {why}")
            continue
        problems.append(f"{rel}: bytes differ")
    return problems, counts


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    problems, counts = compare(Path(argv[0]), Path(argv[1]))
    for line in problems:
        print(line)
    if problems:
        return 1
    print(
        f"same output: {counts['identical']} files byte-identical, {counts['pixel-identical']} pixel-identical"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Did a change move pnpgen's output? Compare a build with a reference build of the same content.

    .venv/bin/pnpgen build --out /tmp/ref            # before the change
    .venv/bin/pnpgen build --out /tmp/new            # after it
    .venv/bin/python bench/same_output.py /tmp/ref /tmp/new

Every file of the reference must be in the new build and the reverse. A PDF passes when it is byte-identical,
or, failing that, when it has the same pages and every page renders to the same pixels at 100 dpi (pypdfium2):
a change such as not wrapping a face printed once in a PDF form changes the bytes, never what is printed. A
manifest passes when it is the same apart from what names the engine and the bytes of the PDFs (`engine`, each
file's `sha256`); the digests of the printed faces must not move. Other files must be byte-identical.
Prints one line per difference and exits 1 when there is any; prints a summary and exits 0 when there is none.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

DPI = 100


def pixels_same(a: Path, b: Path) -> str | None:
    """None when the two PDFs print the same, else why not."""
    import pypdfium2 as pdfium

    da, db = pdfium.PdfDocument(str(a)), pdfium.PdfDocument(str(b))
    try:
        if len(da) != len(db):
            return f"{len(da)} pages against {len(db)}"
        for i in range(len(da)):
            pa, pb = da[i], db[i]
            if (round(pa.get_width(), 3), round(pa.get_height(), 3)) != (
                round(pb.get_width(), 3),
                round(pb.get_height(), 3),
            ):
                return f"page {i + 1}: size differs"
            ia = pa.render(scale=DPI / 72).to_pil()
            ib = pb.render(scale=DPI / 72).to_pil()
            if ia.size != ib.size or ia.tobytes() != ib.tobytes():
                return f"page {i + 1}: pixels differ"
        return None
    finally:
        da.close()
        db.close()


def manifest_view(path: Path) -> object:
    data = json.loads(path.read_text(encoding="utf-8"))
    data.pop("engine", None)
    for entry in data.get("files", []):
        if isinstance(entry, dict):
            entry.pop("sha256", None)
    return data


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
            if manifest_view(a) == manifest_view(b):
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

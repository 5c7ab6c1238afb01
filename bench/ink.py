"""Ink coverage of every shipped component in full colour and in low ink: the README's ink table.

Ink is the share of the page's area covered, weighted by darkness (0 = white paper, 100 % = solid black all
over), averaged over every page of the component's PDF, rendered at 24 dpi in grey. Run: `make ink` (or
`.venv/bin/python bench/ink.py [OUT]`); it builds the five games with `--ink both` into a temporary folder.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def coverage(pdf: Path, dpi: int = 24) -> float:
    """Mean darkness of every page of `pdf`, 0..1."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        total = 0.0
        for page in doc:
            image = page.render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
            histogram = image.histogram()
            pixels = sum(histogram)
            total += sum((255 - v) * n for v, n in enumerate(histogram)) / (255 * pixels)
        return total / max(len(doc), 1)
    finally:
        doc.close()


def table(out: Path) -> list[tuple[str, str, float, float]]:
    rows = []
    for game_dir in sorted(p for p in out.iterdir() if p.is_dir()):
        files = json.loads((game_dir / "manifest.json").read_text())["files"]
        for e in files:
            name = e["path"]
            if e["kind"] == "rulebook" or name.endswith("-lowink.pdf"):
                continue
            low = game_dir / name.replace(".pdf", "-lowink.pdf")
            if low.exists():
                rows.append((game_dir.name, name[:-4], coverage(game_dir / name), coverage(low)))
    return rows


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tmp)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pnpgen",
                "build",
                "--ink",
                "both",
                "--out",
                str(out),
                "--content",
                str(ROOT / "content"),
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        rows = table(out)
    print("| game | component | full | low ink | low / full |")
    print("|---|---|---:|---:|---:|")
    for game, comp, full, low in rows:
        print(f"| {game} | {comp} | {full * 100:.1f} % | {low * 100:.1f} % | {low / full:.2f} |")
    full_all = sum(r[2] for r in rows)
    low_all = sum(r[3] for r in rows)
    print(
        f"| all | {len(rows)} components | {full_all / len(rows) * 100:.1f} % | {low_all / len(rows) * 100:.1f} % "
        f"| {low_all / full_all:.2f} |"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

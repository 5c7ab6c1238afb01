"""pnpgen beside Squib on the same job, when Squib is installed: `.venv/bin/python bench/peers/squib.py [N]`.

The job (`make bench`'s, without its back): N distinct poker cards (default 1,000) from one CSV of name, type
and body text (different on every card: `bench.card_rows`), each with a background, a rounded border, a title, a
type line, a wrapped body and a 150 px PNG icon, laid out 3 x 3 on A4 with crop marks. Squib (a Ruby
gem, https://squib.readthedocs.io) runs it twice, with its default raster backend and with its SVG backend;
pnpgen runs the same cards from the same CSV and PNG. Each figure is the median of 3 runs of a fresh process,
with its peak memory (the kernel's accounting of the child). Squib's cards are 825 x 1125 px at 300 dpi
(poker with 1/8 in bleed), trimmed by 37.5 px when laid out, as its own docs do.

Without Ruby or the squib gem, the script says what to install and exits 0: no figure for Squib is quoted
anywhere that this script cannot reproduce.
"""

from __future__ import annotations

import csv
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from bench import LAYOUT_JOB, card_rows, make_icon, timed  # noqa: E402  (make bench's job and its timer)

RUNS = int(os.environ.get("BENCH_RUNS", "3"))
SQUIB = """
require 'squib'
data = Squib.csv file: 'cards.csv'
Squib::Deck.new(cards: data['name'].size, width: 825, height: 1125, config: ARGV[0]) do
  background color: '#f6efe0'
  rect x: 72, y: 72, width: 681, height: 981, radius: 24, stroke_color: '#7a3b1d', stroke_width: 5
  text str: data['name'], x: 108, y: 108, width: 609, height: 95, font: 'Serif Bold 13'
  text str: data['type'], x: 108, y: 215, width: 609, height: 59, font: 'Sans 8'
  png file: 'icon.png', x: 320, y: 297, width: 177, height: 177
  text str: data['text'], x: 108, y: 650, width: 609, height: 260, font: 'Sans 9'
  save_pdf file: 'squib.pdf', dir: 'out', width: '210mm', height: '297mm', margin: '10mm', trim: 37.5,
           crop_marks: true
end
"""

LAYOUT = LAYOUT_JOB  # bench.py's card: a title, a type line, the PNG icon, a body


def squib_ready() -> str | None:
    """None when Ruby and the squib gem are there; else what to install."""
    if shutil.which("ruby") is None:
        return "Ruby is not installed (Debian: apt install ruby ruby-dev libcairo2-dev libpango1.0-dev; then gem install squib)"
    probe = subprocess.run(["ruby", "-e", "require 'squib'"], capture_output=True, text=True)
    if probe.returncode != 0:
        return "the squib gem is not installed (gem install squib; it builds cairo and pango bindings)"
    return None


def make_job(folder: Path, n: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "cards.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["name", "type", "text"])
        writer.writeheader()
        writer.writerows(card_rows(n))
    for config, backend in (("raster.yml", "memory"), ("svg.yml", "svg")):
        (folder / config).write_text(f"backend: {backend}\n")
    (folder / "deck.rb").write_text(SQUIB)
    game = folder / "content" / "peer"
    (game / "layouts").mkdir(parents=True)
    (game / "art").mkdir()
    make_icon(game / "art" / "icon.png")
    shutil.copy(folder / "cards.csv", game / "cards.csv")
    (game / "layouts" / "front.yaml").write_text(LAYOUT)
    (game / "game.yaml").write_text("id: peer\ntitle: Peer\nplayers: 2\ncomponents: [deck.yaml]\n")
    (game / "deck.yaml").write_text(
        "id: deck\nkind: cards\nsize: poker\nfront: front\ncards_from: cards.csv\n"
    )
    shutil.copy(game / "art" / "icon.png", folder / "icon.png")


def median(cmd: list, cwd: Path) -> tuple[float, float]:
    runs = [timed(cmd, cwd) for _ in range(RUNS)]
    return statistics.median(t for t, _ in runs), max(m for _, m in runs)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    missing = squib_ready()
    if missing:
        print(f"Squib: not measured: {missing}.")
        return
    work = Path(tempfile.mkdtemp(prefix="pnpgen-peer-"))
    try:
        make_job(work, n)
        rows = [
            (
                "pnpgen",
                median([sys.executable, "-m", "pnpgen", "build", "--out", "out", "--no-print-all"], work),
            ),
            ("Squib, raster backend", median(["ruby", "deck.rb", "raster.yml"], work)),
            ("Squib, SVG backend", median(["ruby", "deck.rb", "svg.yml"], work)),
        ]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(
        f"{n:,} distinct poker cards, A4 3x3 with crop marks: median of {RUNS} runs; {os.cpu_count()} cores"
    )
    print()
    print("| tool | time | peak memory |")
    print("|---|---:|---:|")
    for name, (t, m) in rows:
        print(f"| {name} | {t:.2f} s | {m:.0f} MB |")


if __name__ == "__main__":
    main()

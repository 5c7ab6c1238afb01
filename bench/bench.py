"""pnpgen's benchmark: `make bench`. Prints a table; each figure is the median of several runs, each run a fresh
process (end to end, as a user runs it), peak memory from the kernel's accounting of that process."""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
# BENCH_ROWS=decks (or games, or png): only those rows, for a quick look while working on one of them
ROWS = set(os.environ.get("BENCH_ROWS", "decks,games,png").split(","))

LAYOUT_FRONT = """
elements:
  - type: rect
    area: bleed
    fill: "#f6efe0"
  - type: rect
    x: 3
    y: 3
    w: 57.5
    h: 82.9
    radius: 2
    stroke: "#7a3b1d"
    stroke_width: 1.2
  - type: text
    x: 6
    y: 6
    w: 51.5
    h: 8
    text: "{{ card.name }}"
    font: display-bold
    size: 13
  - type: icon
    name: star
    x: 24
    y: 20
    size: 15
  - type: text
    x: 6
    y: 52
    w: 51.5
    h: 22
    text: "{{ card.text }}"
    size: 9
"""
LAYOUT_BACK = """
elements:
  - type: rect
    area: bleed
    fill: "#2b2140"
  - type: text
    x: 5
    y: 38
    w: 53.5
    h: 12
    text: "BENCH"
    font: display-bold
    size: 18
    color: "#d8b45a"
    align: center
"""

BARE = """
import sys
from reportlab.lib.colors import HexColor
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
n, out, fonts = int(sys.argv[1]), sys.argv[2], sys.argv[3]
art = sys.argv[4] if len(sys.argv) > 4 else None
pdfmetrics.registerFont(TTFont("S", fonts + "/NotoSans-Regular.ttf"))
pdfmetrics.registerFont(TTFont("D", fonts + "/NotoSerifDisplay-Bold.ttf"))
mm = 72 / 25.4
W, H, B = 63.5 * mm, 88.9 * mm, 3 * mm
c = Canvas(out, pagesize=(210 * mm, 297 * mm), invariant=1, initialFontName="S")
x0, y0 = (210 * mm - 3 * W) / 2, (297 * mm - 3 * H) / 2
c.beginForm("back", -B, -B, W + B, H + B)
c.setFillColor(HexColor("#2b2140")); c.rect(-B, -B, W + 2 * B, H + 2 * B, stroke=0, fill=1)
c.setFillColor(HexColor("#d8b45a")); c.setFont("D", 18); c.drawCentredString(W / 2, H / 2, "BENCH")
c.endForm()
def star(c, x, y, s):
    p = c.beginPath(); pts = [(50,4),(61,37),(96,37),(68,58),(78,92),(50,71),(22,92),(32,58),(4,37),(39,37)]
    p.moveTo(x + pts[0][0] * s, y - pts[0][1] * s)
    for a, b in pts[1:]: p.lineTo(x + a * s, y - b * s)
    p.close(); c.setFillColor(HexColor("#e0a526")); c.drawPath(p, stroke=0, fill=1)
def marks(c):
    c.setLineWidth(0.25)
    for i in range(4):
        c.line(x0 + i * W, y0 + 3 * H + 3, x0 + i * W, y0 + 3 * H + 15); c.line(x0 + i * W, y0 - 3, x0 + i * W, y0 - 15)
        c.line(x0 - 3, y0 + i * H, x0 - 15, y0 + i * H); c.line(x0 + 3 * W + 3, y0 + i * H, x0 + 3 * W + 15, y0 + i * H)
for start in range(0, n, 9):
    idx = list(range(start, min(n, start + 9)))
    for k, i in enumerate(idx):
        r, col = divmod(k, 3); x, y = x0 + col * W, y0 + (2 - r) * H
        c.saveState(); p = c.beginPath(); p.rect(x, y, W, H); c.clipPath(p, stroke=0, fill=0)
        c.setFillColor(HexColor("#f6efe0")); c.rect(x, y, W, H, stroke=0, fill=1)
        if art: c.drawImage(f"{art}/card{i + 1}.jpg", x - B, y - B, W + 2 * B, H + 2 * B)
        c.setStrokeColor(HexColor("#7a3b1d")); c.setLineWidth(1.2); c.roundRect(x + 3 * mm, y + 3 * mm, W - 6 * mm, H - 6 * mm, 2 * mm)
        c.setFillColor(HexColor("#000000")); c.setFont("D", 13); c.drawString(x + 6 * mm, y + H - 12 * mm, f"Card {i + 1}")
        star(c, x + 24 * mm, y + H - 20 * mm, 15 * mm / 100)
        t = c.beginText(x + 6 * mm, y + H - 56 * mm); t.setFont("S", 9, 10.8)
        for line in simpleSplit(f"Card {i + 1}: spend two tokens to move any piece one space, then draw a card and keep it hidden until your next turn.", "S", 9, 51.5 * mm): t.textLine(line)
        c.drawText(t); c.restoreState()
    marks(c); c.showPage()
    for k, i in enumerate(idx):
        r, col = divmod(k, 3); x = 210 * mm - (x0 + col * W) - W; y = y0 + (2 - r) * H
        c.saveState(); c.translate(x, y); c.doForm("back"); c.restoreState()
    marks(c); c.showPage()
c.save()
"""


ART_LAYER = """
  - type: image
    area: bleed
    src: "{{ card.art }}"
    fit: cover
"""
# Poker with its 3 mm bleed (69.5 x 94.9 mm) at 300 dpi, as a print shop asks: 1,000 cards come to 920
# megapixels, which the reader's bound (`inputs.MAX_PIXELS`, 400) takes because a JPEG counts a quarter.
ART_SIZE = (821, 1121)


def make_art(folder: Path, n: int) -> None:
    """n distinct full-bleed JPEGs, card1.jpg ..., the same every run: a gradient and shapes seeded by the card."""
    from PIL import Image, ImageDraw

    folder.mkdir(parents=True, exist_ok=True)
    w, h = ART_SIZE
    for i in range(1, n + 1):
        a, b = (i * 37) % 256, (i * 91) % 256
        im = Image.linear_gradient("L").resize((w, h)).convert("RGB")
        im = Image.merge(
            "RGB",
            (
                im.getchannel(0),
                im.getchannel(0).point(lambda v, a=a: (v + a) % 256),
                Image.new("L", (w, h), b),
            ),
        )
        d = ImageDraw.Draw(im)
        for k in range(6):
            x, y = (i * 53 + k * 131) % w, (i * 29 + k * 197) % h
            r = 40 + (i * 7 + k * 23) % 160
            d.ellipse(
                (x - r, y - r, x + r, y + r), fill=((a + k * 40) % 256, (b + k * 70) % 256, (i * k) % 256)
            )
        d.text((40, 40), f"art {i}", fill=(255, 255, 255))
        im.save(folder / f"card{i}.jpg", quality=85)


def synthetic(folder: Path, n: int, art: bool = False) -> Path:
    """A game `bench` with one deck of n distinct poker cards; with art, a full-bleed JPEG behind each card."""
    content = folder / "content" / "bench"
    (content / "layouts").mkdir(parents=True)
    (content / "game.yaml").write_text("id: bench\ntitle: Bench\nplayers: 2\ncomponents: [deck.yaml]\n")
    front = LAYOUT_FRONT
    if art:
        front = front.replace('    fill: "#f6efe0"\n', '    fill: "#f6efe0"\n' + ART_LAYER, 1)
        make_art(content / "art", n)
    (content / "layouts" / "front.yaml").write_text(front)
    (content / "layouts" / "back.yaml").write_text(LAYOUT_BACK)
    lines = ["id: deck", "kind: cards", "size: poker", "front: front", "back: back", "cards:"]
    for i in range(n):
        lines.append(f"  - name: Card {i + 1}")
        if art:
            lines.append(f"    art: card{i + 1}.jpg")
        lines.append(
            f'    text: "Card {i + 1}: spend two tokens to move any piece one space, then draw a card'
            ' and keep it hidden until your next turn."'
        )
    (content / "deck.yaml").write_text("\n".join(lines) + "\n")
    return folder / "content"


def timed(cmd: list, cwd: Path, env=None) -> tuple[float, float]:
    """(seconds, peak MB) of one child process."""
    with tempfile.TemporaryFile() as err:  # a file, not a pipe: a thousand warnings must not block the child
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        took = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            raise SystemExit(f"failed: {' '.join(map(str, cmd))}\n{err.read().decode()[-4000:]}")
    return took, usage.ru_maxrss / 1024


def median_run(make_cmd, cwd, prepare=lambda i: None, runs=RUNS):
    times, mems = [], []
    for i in range(runs):
        prepare(i)
        t, m = timed(make_cmd(i), cwd)
        times.append(t)
        mems.append(m)
    return statistics.median(times), max(mems)


def deck_rows(work: Path, pnpgen: list, fonts: Path, only_100: bool = False) -> list:
    """The synthetic decks, each next to the bare ReportLab floor of the same run (`only_100`: the 100-card
    deck alone, whose content the png row exports). BENCH_DECKS=1000,10000 runs only those sizes."""
    rows = []
    sizes = os.environ.get("BENCH_DECKS")
    for n, art, ratio, memory in (
        (100, False, None, None),
        (1000, False, 2.0, None),
        (1000, True, 2.0, None),
        (10000, False, 2.5, 150),
    ):
        if (only_100 and n != 100) or (sizes and str(n) not in sizes.split(",")):
            continue
        folder = work / f"syn{n}{'art' if art else ''}"
        content = synthetic(folder, n, art)
        runs = RUNS if n <= 1000 else max(1, RUNS - 1)
        t, m = median_run(
            lambda i, content=content, folder=folder: (
                pnpgen + ["build", "--content", str(content), "--out", str(folder / f"o{i}")]
            ),
            folder,
            runs=runs,
        )
        bare = [str(content / "bench" / "art")] if art else []
        tb, _mb = median_run(
            lambda i, n=n, folder=folder, bare=bare: [
                PY,
                "-c",
                BARE,
                str(n),
                str(folder / f"bare{i}.pdf"),
                str(fonts),
                *bare,
            ],
            folder,
            runs=runs,
        )
        what = "full-bleed JPEG art, " if art else "vector icon, "
        name = f"{n:,}-card poker deck ({what}backs, A4 3x3)"
        targets = []
        ok = True
        if ratio:
            targets.append(f"<= {ratio:g}x bare")
            ok = ok and t / tb <= ratio
        if memory:
            targets.append(f"< {memory} MB")
            ok = ok and m < memory
        rows.append((name, t, m, tb, ", ".join(targets), ok if targets else None))
    return rows


def game_rows(work: Path, pnpgen: list) -> list:
    rows = []
    proj = work / "games"
    shutil.copytree(ROOT / "content", proj / "content")
    shutil.copytree(ROOT / "layouts", proj / "layouts")
    t, m = median_run(lambda i: pnpgen + ["build", "--out", f"out{i}"], proj)
    rows.append(("all five games from scratch", t, m, None, "< 2 s", t < 2.0))
    # a twentieth of a second is within the machine's noise after a heavy build: this row takes more runs
    t, m = median_run(lambda i: pnpgen + ["build", "--out", "out0"], proj, runs=max(RUNS, 7))
    rows.append(("rebuild, nothing changed", t, m, None, "< 0.1 s", t < 0.1))
    deck = proj / "content" / "elements-of-the-gods" / "decks" / "divinity.yaml"
    original = deck.read_text()
    for old, what in (
        ("Blood Oaths", "one card's name changed"),
        ("Offering", "the first card's name changed (the rulebook pictures it)"),
    ):

        def edit(i, old=old):
            deck.write_text(original.replace(f"name: {old}", f"name: {old} {i}"))

        t, m = median_run(lambda i: pnpgen + ["build", "--out", "out0"], proj, prepare=edit)
        rows.append((f"rebuild after {what}", t, m, None, "< 0.4 s", t < 0.4))
        deck.write_text(original)
        median_run(lambda i: pnpgen + ["build", "--out", "out0"], proj, runs=1)  # back as it was
    return rows


def watch_rows(work: Path, pnpgen: list) -> list:
    """`pnpgen watch` (no print-all, as while editing): from saving a one-card edit to the "rebuilt" line, the
    watcher's wait for the save to settle (50-150 ms) included; median of RUNS edits each."""
    import selectors

    proj = work / "games"
    deck = proj / "content" / "elements-of-the-gods" / "decks" / "divinity.yaml"
    original = deck.read_text()
    proc = subprocess.Popen(
        pnpgen + ["watch", "elements-of-the-gods", "--out", "outw"],
        cwd=proj,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    pending = [b""]  # what was read past the last whole line

    def line_with(word: str) -> str:
        while True:
            while b"\n" in pending[0]:
                line, pending[0] = pending[0].split(b"\n", 1)
                if word.encode() in line:
                    return line.decode()
            if not sel.select(timeout=120):
                raise SystemExit(f"watch said nothing with '{word}' in 120 s")
            chunk = os.read(proc.stdout.fileno(), 65536)
            if not chunk:
                raise SystemExit("watch stopped")
            pending[0] += chunk

    rows = []
    try:
        line_with("watching")
        for old, what in (
            ("Blood Oaths", "one card's name changed"),
            ("Offering", "the first card's name changed (the rulebook pictures it)"),
        ):
            times = []
            for i in range(RUNS):
                start = time.perf_counter()
                deck.write_text(original.replace(f"name: {old}", f"name: {old} w{i}"))
                line_with("rebuilt")
                times.append(time.perf_counter() - start)
                deck.write_text(original)
                line_with("rebuilt")
            t = statistics.median(times)
            rows.append((f"watch: save to rebuilt, {what}", t, 0.0, None, "< 0.4 s", t < 0.4))
    finally:
        proc.terminate()
        proc.wait(10)
        deck.write_text(original)
    return rows


def main() -> None:
    pnpgen = [PY, "-m", "pnpgen"]
    fonts = ROOT / "pnpgen" / "fonts"
    rows = []
    # pnpgen's bytecode compiled first, as an installed copy has it (pip compiles on install): where Python may
    # not write it (PYTHONDONTWRITEBYTECODE, a read-only checkout), every run would compile the modules it
    # imports again (0.15 s a run on the 2-core machine), a cost no user pays twice and the floor never pays
    subprocess.run([PY, "-m", "compileall", "-q", str(ROOT / "pnpgen")], check=True)
    work = Path(tempfile.mkdtemp(prefix="pnpgen-bench-"))
    try:
        if "decks" in ROWS or "png" in ROWS:
            rows += deck_rows(work, pnpgen, fonts, only_100="decks" not in ROWS)
        if "games" in ROWS:
            rows += game_rows(work, pnpgen)
            rows += watch_rows(work, pnpgen)
        if "png" in ROWS:
            rows.append(png_row(work, pnpgen))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"pnpgen benchmark: median of {RUNS} runs, each a fresh process; {os.cpu_count()} cores")
    print()
    print("| job | pnpgen | peak memory | bare ReportLab | ratio | target | met |")
    print("|---|---:|---:|---:|---:|---|---|")
    for name, t, m, tb, target, ok in rows:
        bare = f"{tb:.2f} s" if tb is not None else ""
        ratio = f"{t / tb:.2f}x" if tb else ""
        met = "" if ok is None else ("yes" if ok else "**no**")
        memory = f"{m:.0f} MB" if m else ""  # not measured for a process that keeps running (watch)
        print(f"| {name} | {t:.2f} s | {memory} | {bare} | {ratio} | {target} | {met} |")


def png_row(work: Path, pnpgen: list) -> tuple:
    """export png: 100 cards at 300 dpi (the 100-card deck's content)."""
    folder = work / "syn100"
    if not folder.exists():
        synthetic(folder, 100)
    t, m = median_run(
        lambda i: (
            pnpgen
            + [
                "export",
                "png",
                "bench",
                "--content",
                str(folder / "content"),
                "--out",
                str(folder / f"png{i}"),
                "--dpi",
                "300",
            ]
        ),
        folder,
    )
    return ("export png, 100 cards at 300 dpi", t, m, None, "", None)


if __name__ == "__main__":
    main()

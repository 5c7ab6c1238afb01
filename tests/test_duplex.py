"""Duplex forms, measured from the written PDFs: after the flip each form names, every back lies behind its own
front within 0.5 mm, and a back offset moves every back exactly as far as asked. The calibration sheet's scales
read the correction that cancels a printer's drift; printer profiles carry it from one build to the next."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pdfplumber
import pytest
from conftest import FIXTURES, MM, fast_once, run_cli

from pnpgen.render.calibration import reading_sign, scales

FILES = {"long": "poker.pdf", "short": "poker-short.pdf", "none": "poker-single.pdf"}


def texts(page, size: float | None = None) -> list[tuple[str, float, float]]:
    """Each card's centre text (F... on fronts, B... on backs): its string and centre, upright or turned half
    round (a turned word's letters run right to left); text of `size` only when given, else 10 pt and over."""
    rows: dict = {}
    for ch in page.chars:
        if (ch["size"] < 10) if size is None else abs(ch["size"] - size) > 0.01:  # the margin label
            continue
        rows.setdefault((round(ch["top"]), ch["matrix"][0] < 0), []).append(ch)
    out = []
    for (_, turned), chars in rows.items():
        chars.sort(key=lambda c: c["x0"])
        group = [chars[0]]
        for ch in chars[1:] + [None]:
            if ch is not None and ch["x0"] - group[-1]["x1"] < 3:
                group.append(ch)
                continue
            word = "".join(c["text"] for c in group)
            x = (group[0]["x0"] + group[-1]["x1"]) / 2
            y = sum((c["top"] + c["bottom"]) / 2 for c in group) / len(group)
            out.append((word[::-1] if turned else word, x, y))
            if ch is not None:
                group = [ch]
    return out


def build(tmp_path: Path, *flags) -> Path:
    project = tmp_path / "p"
    if not project.exists():
        shutil.copytree(FIXTURES / "duplex", project)
    result = run_cli("build", "--out", "out", *flags, cwd=project)
    assert result.exit_code == 0, result.output
    return project / "out" / "duplex"


def behind(flip: str, x: float, y: float, width: float, height: float) -> tuple[float, float]:
    """Where a front's point is on the back page (page coordinates, y down) after the flip."""
    return {"long": (width - x, y), "short": (x, height - y), "none": (x, y)}[flip]


@pytest.mark.parametrize("paper", fast_once(["a4", "letter"]))
@pytest.mark.parametrize("flip", ["long", "short", "none"])
def test_each_back_lands_behind_its_own_front(tmp_path, flip, paper):
    out = build(tmp_path, "--duplex", flip, "--paper", paper)
    with pdfplumber.open(out / FILES[flip]) as pdf:
        width, height = pdf.pages[0].width, pdf.pages[0].height
        for i in range(0, len(pdf.pages), 2):
            fronts = [t for t in texts(pdf.pages[i]) if t[0].startswith("F")]
            backs = [t for t in texts(pdf.pages[i + 1]) if t[0].startswith("B")]
            assert len(fronts) == len(backs) > 0
            for name, x, y in fronts:
                bx, by = behind(flip, x, y, width, height)
                match = [b for b in backs if abs(b[1] - bx) < 0.5 * MM and abs(b[2] - by) < 0.5 * MM]
                assert [m[0] for m in match] == ["B" + name[1:]], (flip, name, x, y, backs)


def test_short_edge_backs_are_turned_half_round(tmp_path):
    out = build(tmp_path, "--duplex", "short")
    with pdfplumber.open(out / "poker-short.pdf") as pdf:
        turned = [c for c in pdf.pages[1].chars if c["size"] >= 10]
        assert turned and all(c["matrix"][0] == -1 and c["matrix"][3] == -1 for c in turned)
        assert all(c["matrix"][0] == 1 for c in pdf.pages[0].chars if c["size"] >= 10)


@pytest.mark.parametrize("flip", ["long", "short"])
def test_a_back_offset_moves_every_back_exactly(tmp_path, flip):
    plain = build(tmp_path, "--duplex", flip)
    with pdfplumber.open(plain / FILES[flip]) as pdf:
        before = [sorted(texts(p)) for p in pdf.pages]
    moved = build(tmp_path, "--duplex", flip, "--back-offset", "1.5,-0.75")
    with pdfplumber.open(moved / FILES[flip]) as pdf:
        after = [sorted(texts(p)) for p in pdf.pages]
    for n, (old, new) in enumerate(zip(before, after)):
        assert [t[0] for t in old] == [t[0] for t in new]
        for (_, x0, y0), (_, x1, y1) in zip(old, new):
            if n % 2 == 0:  # fronts stay where they are
                assert (x1, y1) == pytest.approx((x0, y0), abs=0.01)
            else:  # backs: 1.5 mm right, 0.75 mm down (PDF y up is page y down)
                assert (x1 - x0) / MM == pytest.approx(1.5, abs=0.02)
                assert (y1 - y0) / MM == pytest.approx(0.75, abs=0.02)
    data = json.loads((moved / "manifest.json").read_text())
    assert data["printing"].startswith(flip)


def test_every_form_at_once_and_the_manifest_lists_them(tmp_path):
    out = build(tmp_path, "--forms", "all")
    names = {f["path"] for f in json.loads((out / "manifest.json").read_text())["files"]}
    assert {"poker.pdf", "poker-short.pdf", "poker-single.pdf", "mini-short.pdf", "tarot-single.pdf"} <= names
    assert all((out / n).is_file() for n in names)
    out = build(tmp_path)  # back to the one default form: the others are pnpgen's own, and go
    assert not (out / "poker-short.pdf").exists() and (out / "poker.pdf").is_file()


@pytest.mark.parametrize("flip", ["long", "short"])
@pytest.mark.parametrize("drift_mm", [(1.2, -0.7), (-2.0, 1.5)])
def test_the_calibration_sheet_reads_the_correction(tmp_path, flip, drift_mm):
    sheet = tmp_path / "cal.pdf"
    assert run_cli("calibrate", "--duplex", flip, "--out", sheet).exit_code == 0
    with pdfplumber.open(sheet) as pdf:
        front, back = pdf.pages
        width, height = front.width, front.height
        pointers = [ln for ln in back.lines]
        labels = [
            (w["text"], (w["x0"] + w["x1"]) / 2, (w["top"] + w["bottom"]) / 2)
            for w in front.extract_words(x_tolerance=1)
        ]
    assert len(pointers) == 4
    dx, dy = drift_mm[0] * MM, drift_mm[1] * MM  # the printer moves the back's content so (PDF y up)
    readings: dict = {"x": [], "y": []}
    for axis, x0, y0 in scales(width, height).values():
        zero = (x0, height - y0)  # page coordinates, y down
        # the pointer behind this zero, as the drifting printer puts it, seen from the front
        line = next(
            ln
            for ln in pointers
            if abs((ln["x0"] + ln["x1"]) / 2 - behind(flip, *zero, width, height)[0]) < 15 * MM
            and abs((ln["top"] + ln["bottom"]) / 2 - behind(flip, *zero, width, height)[1]) < 15 * MM
        )
        px, py = (line["x0"] + line["x1"]) / 2 + dx, (line["top"] + line["bottom"]) / 2 - dy
        seen = behind(flip, px, py, width, height)  # the flip is its own inverse
        t = (seen[0] - zero[0]) / MM if axis == "x" else (zero[1] - seen[1]) / MM
        readings[axis].append(reading_sign(axis, flip) * t)
        # the number printed nearest that spot says the same (to the 2 mm its labels step by)
        ticks = [
            (float(w), lx, ly) for w, lx, ly in labels if w.lstrip("+-").isdigit() and abs(float(w)) <= 5
        ]
        if axis == "x":  # the labels of this scale, then the one nearest along it
            near = min(
                (tk for tk in ticks if abs(tk[2] - seen[1]) < 15 * MM), key=lambda tk: abs(tk[1] - seen[0])
            )
        else:
            near = min(
                (tk for tk in ticks if abs(tk[1] - seen[0]) < 15 * MM), key=lambda tk: abs(tk[2] - seen[1])
            )
        assert abs(near[0] - reading_sign(axis, flip) * t) <= 1.01
    # the readings are the correction: the back moved by them lands where the front expects it
    assert sum(readings["x"]) / 2 == pytest.approx(-drift_mm[0], abs=0.01)
    assert sum(readings["y"]) / 2 == pytest.approx(-drift_mm[1], abs=0.01)


def test_a_printer_profile_carries_the_settings(tmp_path):
    project = tmp_path / "p"
    shutil.copytree(FIXTURES / "duplex", project)
    (project / "printers.yaml").write_text(
        "office:\n  duplex: short\n  back_offset: 1.5,-0.75\n  paper: letter\nbroken:\n  duplex: sideways\n"
    )
    out = build(tmp_path, "--printer", "office")
    data = json.loads((out / "manifest.json").read_text())
    assert data["paper"] == "letter" and data["printing"] == "short 4.252 -2.126 0.000"
    assert (out / "poker-short.pdf").is_file()
    result = run_cli("build", "--out", "out", "--printer", "office", "--duplex", "none", cwd=project)
    assert result.exit_code == 0 and (out / "poker-single.pdf").is_file()  # a flag wins over the profile
    result = run_cli("build", "--out", "out", "--printer", "nosuch", cwd=project)
    assert result.exit_code == 2 and "no printer 'nosuch'" in result.output
    result = run_cli("build", "--out", "out", "--printer", "broken", cwd=project)
    assert (
        result.exit_code == 1
        and "printers.yaml:6:11: error: 'duplex' must be one of long, short, none" in result.output
    )
    result = run_cli("build", "--out", "out", "--back-offset", "40,0", cwd=project)
    assert result.exit_code == 2 and "at most 10 mm" in result.output


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("deck, count", fast_once([("poker", 11), ("mini", 17), ("tarot", 3)]))
def test_fold_over_puts_each_back_behind_its_front_on_one_page(tmp_path, paper, deck, count):
    out = build(tmp_path, "--fold", "--paper", paper)
    data = json.loads((out / "manifest.json").read_text())
    assert f"{deck}-fold.pdf" in {f["path"] for f in data["files"]} and f"{deck}.pdf" in {
        f["path"] for f in data["files"]
    }
    seen = 0
    with pdfplumber.open(out / f"{deck}-fold.pdf") as pdf:
        for page in pdf.pages:
            dashed = [
                ln
                for ln in page.lines
                if ln.get("dash") or ln["stroking_color"] not in (None, (0,), [0], (0, 0, 0))
            ]
            fold_x = [ln["x0"] for ln in dashed if abs(ln["x0"] - ln["x1"]) < 0.01]
            fold_y = [ln["top"] for ln in dashed if abs(ln["top"] - ln["bottom"]) < 0.01]
            assert len(fold_x) + len(fold_y) == 1, (fold_x, fold_y)  # one fold line, drawn dashed
            fronts = [t for t in texts(page) if t[0].startswith("F")]
            backs = [t for t in texts(page) if t[0].startswith("B")]
            assert len(fronts) == len(backs) > 0
            for name, x, y in fronts:
                bx, by = (2 * fold_x[0] - x, y) if fold_x else (x, 2 * fold_y[0] - y)
                match = [b for b in backs if abs(b[1] - bx) < 0.5 * MM and abs(b[2] - by) < 0.5 * MM]
                assert [m[0] for m in match] == ["B" + name[1:]], (name, x, y)
            seen += len(fronts)
            for obj in page.chars + page.lines:  # nothing within 5 mm of the paper's edge
                assert obj["x0"] >= 5 * MM - 0.01 and obj["x1"] <= page.width - 5 * MM + 0.01
                assert obj["top"] >= 5 * MM - 0.01 and obj["bottom"] <= page.height - 5 * MM + 0.01
    assert seen == count


def test_pieces_without_a_fold_layout_say_so(tmp_path):
    project = tmp_path / "p"
    shutil.copytree(FIXTURES / "pieces", project)
    result = run_cli("build", "--out", "out", "--fold", cwd=project)
    assert result.exit_code == 0, result.output
    assert "hex-fold.pdf is not written: hex pieces have no fold-over layout" in result.output
    assert (project / "out/pieces/squares-fold.pdf").is_file() and not (
        project / "out/pieces/hex-fold.pdf"
    ).exists()


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_partial_sheet_keeps_bleed_on_every_edge_facing_an_empty_slot(tmp_path, paper):
    import pypdfium2 as pdfium

    from pnpgen.imposition import plan_sheet

    out = build(tmp_path, "--paper", paper)
    plan = plan_sheet(paper, 63.5 * MM, 88.9 * MM, 3 * MM)
    assert plan.mode == "shared"  # the case that matters: cards butt, inner edges have no bleed of their own
    per, cards = plan.per_sheet, 11
    last = cards - (cards - 1) // per * per  # faces on the last sheet
    doc = pdfium.PdfDocument(str(out / "poker.pdf"))
    try:
        scale = 4 / MM  # px per pt: 4 px a mm
        checked = 0
        for page_no, slots in ((len(doc) - 2, plan.slots), (len(doc) - 1, plan.back_slots())):
            image = doc[page_no].render(scale=scale).to_pil().convert("RGB")
            height = doc[page_no].get_height()
            for k in range(last):
                r, c = divmod(k, plan.cols)
                s = slots[k]
                sides = {"right": (r, c + 1), "left": (r, c - 1), "below": (r + 1, c), "above": (r - 1, c)}
                for side, (rr, cc) in sides.items():
                    if not (0 <= rr < plan.rows and 0 <= cc < plan.cols) or rr * plan.cols + cc < last:
                        continue
                    if page_no == len(doc) - 1:  # the back page is mirrored: left and right swap
                        side = {"left": "right", "right": "left"}.get(side, side)
                    x, y = {
                        "right": (s.x + s.w + 2 * MM, s.y + s.h / 2),
                        "left": (s.x - 2 * MM, s.y + s.h / 2),
                        "below": (s.x + s.w / 2, s.y - 2 * MM),
                        "above": (s.x + s.w / 2, s.y + s.h + 2 * MM),
                    }[side]
                    pixel = image.getpixel((round(x * scale), round((height - y) * scale)))
                    assert min(pixel) < 200, (page_no, k, side, pixel)  # the card's colour, not paper white
                    checked += 1
        assert checked >= 4
    finally:
        doc.close()


def test_a_card_too_large_to_fold_is_left_out_with_a_warning_not_an_error(tmp_path):
    project = tmp_path / "p"
    shutil.copytree(FIXTURES / "duplex", project)
    game = project / "content" / "duplex"
    (game / "decks" / "sheet.yaml").write_text(
        "id: sheet\nkind: cards\nsize: 148mm x 210mm\nfront: ident-front\nback: ident-back\n"
        "cards:\n  - {name: A1, count: 2}\n"
    )
    (game / "game.yaml").write_text((game / "game.yaml").read_text() + "  - decks/sheet.yaml\n")
    result = run_cli("build", "--out", "out", "--fold", "--paper", "letter", cwd=project)
    assert result.exit_code == 0, result.output
    assert "sheet-fold.pdf is not written: a 148.0 x 210.0 mm card and its back do not fit" in result.output
    out = project / "out" / "duplex"
    assert (out / "sheet.pdf").is_file() and (out / "poker-fold.pdf").is_file()
    assert not (out / "sheet-fold.pdf").exists()
    again = run_cli("build", "--out", "out", "--fold", "--paper", "letter", cwd=project)
    assert "up to date duplex" in again.output  # the form left out is not asked for again and again


# back offsets nearer to the last build's than the manifest's printing key tells apart (0.001 pt, 0.001 degree)
NEAR = {
    "x": ("0,0", "0.0001,0"),
    "y": ("1,-2", "1,-2.00005"),
    "angle": ("0,0,0.2", "0,0,0.2004"),
    "negative-zero": ("0,0", "-0.0001,-0.0001,-0.0001"),
}


@pytest.mark.parametrize("case", sorted(NEAR))
def test_a_back_offset_the_manifest_cannot_tell_apart_builds_what_a_clean_build_writes(tmp_path, case):
    """A build reuses the last build's files when its manifest records the same printing: what it records of
    the back offset must then be all that was drawn, or a build keeps backs placed for another offset."""
    first, then = NEAR[case]
    project = tmp_path / "p"
    shutil.copytree(FIXTURES / "basic", project)
    assert run_cli("build", "--out", "out", "--back-offset", first, cwd=project).exit_code == 0
    assert run_cli("build", "--out", "out", "--back-offset", then, cwd=project).exit_code == 0
    assert run_cli("build", "--out", "clean", "--back-offset", then, cwd=project).exit_code == 0
    built, clean = project / "out" / "sample", project / "clean" / "sample"
    assert sorted(p.name for p in built.iterdir()) == sorted(p.name for p in clean.iterdir())
    for path in clean.iterdir():
        assert (built / path.name).read_bytes() == path.read_bytes(), path.name

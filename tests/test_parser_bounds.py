"""Files other libraries parse are bounded by pnpgen first, from their own structure (issue 28, class 1): every
workbook kind, game fonts, raster images, PDFs read back; a native reader that aborts takes only a child process
down, never `watch` or `serve`. The corpus (tests/hostile/) runs the same files through the CLI under limits."""

from __future__ import annotations

import io
import os
import shutil
import struct
import subprocess
import sys
import threading
import zlib
from pathlib import Path

import hostile_files as hf
import pypdfium2 as pdfium
import pytest
from conftest import FIXTURES, ROOT, run_cli

from pnpgen.bounds import Refused, child, fonts, images, pdfs, sheets
from pnpgen.errors import ContentError, Location
from pnpgen.schema import datasheets

LIMIT = "outside what a data sheet may use (rows 1 to 20,001, columns A to GR)"
HEAD = hf.ods_row(hf.ods_cell("name"))


def load(data: bytes, name: str = "h.xlsx", sheet: str | None = None):
    return datasheets._workbook_cells(data, Path(name), sheet, Location("deck.yaml", 9, 13))


def refusal(data: bytes, name: str = "h.xlsx", sheet: str | None = None) -> str:
    with pytest.raises(ContentError) as caught:
        load(data, name, sheet)
    return str(caught.value)


# -- workbooks ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name, data, where",
    [
        ("h.xlsx", hf.xlsx({"A1": "name", "A2": "x", "XFD1048576": "y"}), "Heroes!XFD1048576"),
        ("h.xlsx", hf.xlsx({"XFD1048576": "y"}), "Heroes!XFD1048576"),  # alone: calamine's range from 0
        ("h.xlsx", hf.xlsx({"A1": "name", "A20002": "x"}), "Heroes!A20002"),  # the first row past the limit
        ("h.xlsx", hf.xlsx({"A1": "name", "GS1": "x"}), "Heroes!GS1"),  # the first column past it
        ("h.xlsx", hf.xlsx({"A1": "name", "ZZ900000": 1}, dimension="A1:B2"), "Heroes!ZZ900000"),  # it lies
        (
            "h.xlsx",
            hf.xlsx(
                raw="<worksheet><sheetData><row><c><v>1</v></c></row>"
                + "<row/>" * 20_001
                + "<row><c><v>1</v></c></row></sheetData></worksheet>"
            ),
            "Heroes!A20003",
        ),  # no refs
        ("h.ods", hf.ods(HEAD + hf.ods_row(hf.ods_cell("x", repeat=16_384))), "Heroes!GS2"),
        ("h.ods", hf.ods(HEAD + hf.ods_row(hf.ods_cell("x"), repeat=1_048_000)), "Heroes!A20002"),
        (
            "h.ods",
            hf.ods(HEAD + hf.ods_row("<table:table-cell/>", repeat=1_048_000) + hf.ods_row(hf.ods_cell("x"))),
            "Heroes!A1048002",
        ),
        (
            "h.ods",
            hf.ods(
                HEAD
                + hf.ods_row(
                    '<table:table-cell table:number-columns-repeated="300"><text:p>x'
                    "</text:p></table:table-cell>"
                )
            ),
            "Heroes!GS2",
        ),  # text, no value type
    ],
)
def test_a_filled_cell_past_the_limits_is_named_before_calamine_loads_the_sheet(name, data, where):
    message = refusal(data, name)
    assert (
        message
        == f"{name}:{where}: error: sheet 'Heroes' has a filled cell {LIMIT}: remove it, or split the sheet"
    )


@pytest.mark.parametrize(
    "name, data, rows",
    [
        (
            "h.xlsx",
            hf.xlsx({"A1": "name", "A2": "x", "B3": "y"}, dimension="A1:XFD1048576"),
            3,
        ),  # a harmless claim
        (
            "h.xlsx",
            hf.xlsx(
                raw='<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>name</t></is></c>'
                '</row><row r="1048576"><c r="XFD1048576" s="1"/></row></sheetData></worksheet>'
            ),
            1,
        ),
        (
            "h.ods",
            hf.ods(
                HEAD
                + hf.ods_row(hf.ods_cell("x"))
                + hf.ods_row('<table:table-cell table:number-columns-repeated="1024"/>', repeat=1_048_000)
            ),
            2,
        ),  # LibreOffice's tail
        ("h.xlsx", hf.xlsx({"A1": "name", "GR20001": "corner"}), 2),  # the last cell a sheet may use
    ],
)
def test_what_calamine_never_loads_is_not_refused(name, data, rows):
    table, sheet = load(data, name)
    assert sheet == "Heroes" and len(table) == rows


@pytest.mark.parametrize(
    "make, message",  # made when the case runs, not while every worker collects the cases
    [
        (
            lambda: hf.xlsx_bomb(megabytes=60),
            "'h.xlsx' is a damaged zip file: 'xl/worksheets/sheet1.xml' unpacks to more "
            "bytes than the 1,024 it declares",
        ),
        (
            lambda: hf.zip_of_many(10_001),
            "'h.xlsx' holds 10,001 files in its zip; a workbook may hold 10,000",
        ),
        (lambda: b"PK\x03\x04 not a zip", "'h.xlsx' is not a readable workbook (a damaged zip file)"),
    ],
    ids=["bomb", "entries", "damaged"],
)
def test_a_zip_workbook_is_bounded_before_anything_unpacks_it(make, message):
    assert refusal(make()) == f"deck.yaml:9:13: error: {message}"


def test_a_zip_declaring_more_than_the_limit_is_refused_unread():
    with pytest.raises(Refused, match=r"unpacks to [\d,]+ bytes; the limit is 2,000"):
        sheets.check_zip(hf.xlsx(raw="x" * 3000), 2000)


def test_an_xls_file_is_read_in_a_child_process_whose_crash_is_a_located_error(monkeypatch):
    assert "cannot be read as a workbook: " in refusal(hf.xls_damaged(), "h.xls")
    monkeypatch.setenv(child.ABORT_HOOK, "1")  # the child aborts as a crashing native library does
    assert refusal(hf.xls_damaged(), "h.xls") == (
        "deck.yaml:9:13: error: 'h.xls' cannot be read as a workbook: the reader stopped (killed by SIGABRT); "
        "the file is damaged or too large"
    )


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_the_child_answers_raises_and_dies_the_platforms_way(monkeypatch, method):
    if method == "fork" and not hasattr(os, "fork"):
        pytest.skip("no fork here")
    monkeypatch.setenv("PNPGEN_START_METHOD", method)
    table, name, names = child.isolated(datasheets.calamine_cells, hf.xlsx({"A1": "name", "A2": "Ash"}), None)
    assert (table, name, names) == ([(1, {1: "name"}), (2, {1: "Ash"})], "Heroes", ["Heroes"])
    with pytest.raises(Refused, match="cannot be read as a workbook"):
        child.isolated(datasheets.calamine_cells, hf.xls_damaged(), None)
    monkeypatch.setenv(child.ABORT_HOOK, "1")
    with pytest.raises(child.ChildDied, match="killed by SIGABRT"):
        child.isolated(datasheets.calamine_cells, b"", None)


# -- fonts -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "fault, message",
    [
        ("truncated", "is cut short or damaged: table "),
        ("table-past-end", "is cut short or damaged: table 'glyf' (2,147,483,632 bytes at "),
        ("glyphs", "is damaged: it claims 65,535 glyphs, but its 'hmtx' table holds metrics for fewer"),
        ("loca", "is damaged: glyph 5's offset ("),
        ("tables", "says it holds 4000 tables; a font holds 1 to 100"),
        ("cff", "lacks the table CFF an OpenType (CFF) font needs"),
    ],
)
def test_a_broken_font_is_refused_from_its_table_directory(fault, message):
    with pytest.raises(Refused) as caught:
        fonts.check_font_bytes(hf.font(fault))
    assert caught.value.message.startswith(message), caught.value.message


@pytest.mark.parametrize("path", sorted((ROOT / "pnpgen" / "fonts").glob("*.ttf")), ids=lambda p: p.stem)
def test_every_shipped_font_passes_the_check(path):
    fonts.check_font(path)


def test_a_broken_game_font_fails_the_build_at_its_line_naming_the_file(tmp_path):
    root = tmp_path / "p"
    shutil.copytree(FIXTURES / "basic", root)
    (root / "content/sample/fonts").mkdir()
    (root / "content/sample/fonts/Mine-Regular.ttf").write_bytes(hf.font("glyphs"))
    game = root / "content/sample/game.yaml"
    game.write_text(
        game.read_text().replace(
            "icons: icons.yaml", "icons: icons.yaml\nfonts:\n  mine: {regular: fonts/Mine-Regular.ttf}"
        )
    )
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1
    assert (
        "content/sample/game.yaml:9:19: error: font 'mine' regular: 'content/sample/fonts/Mine-Regular.ttf' is "
        "damaged: it claims 65,535 glyphs"
    ) in result.output
    assert not (root / "out").exists()


# -- raster images -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "data, message",
    [
        (
            hf.jpeg(120, 90, "truncated"),
            "is cut short: its image data ends without the JPEG end-of-image marker",
        ),
        (
            hf.jpeg(120, 90, "no-eoi"),
            "is cut short: its image data ends without the JPEG end-of-image marker",
        ),
        (hf.jpeg(120, 90, "headers-only"), "is cut short: it ends inside its headers"),
        (b"\xff\xd8\xff\xd9", "is damaged: it ends before any image data"),
        (hf.png(64, 48, "truncated"), "is cut short: chunk 'IDAT' ends past the end of the file"),
        (hf.png(64, 48, "short-data"), "is cut short: its image data unpacks to 4,632 of the 9,264 bytes"),
        (hf.png(64, 48, "crc"), "is damaged: chunk 'IDAT' fails its checksum"),
    ],
    ids=[
        "jpeg-truncated",
        "jpeg-no-eoi",
        "jpeg-headers",
        "jpeg-no-scan",
        "png-truncated",
        "png-short",
        "png-crc",
    ],
)
def test_a_damaged_image_is_refused_before_it_is_embedded(data, message):
    with pytest.raises(Refused) as caught:
        images.image_size(data, 60_000_000)
    assert caught.value.message.startswith(message), caught.value.message


@pytest.mark.parametrize("fault, size", [("huge", (65000, 65000)), ("", (120, 90))])
def test_a_jpeg_gives_the_size_its_frame_header_claims(fault, size):
    assert images.image_size(hf.jpeg(120, 90, fault), 60_000_000) == ("JPEG", *size)


def test_a_png_bomb_is_sized_from_its_header_without_inflating_and_its_data_is_held_to_that_size():
    assert images.image_size(hf.png(fault="bomb"), 60_000_000) == ("PNG", 30_000, 30_000)
    small = struct.pack(">IIBBBBB", 100, 100, 8, 2, 0, 0, 0)  # says 30 kB of pixels; its data holds 18 MB
    with pytest.raises(Refused, match="unpacks to more than the 30,100 bytes its size needs"):
        images.image_size(hf._png_file(small, zlib.compress(b"\0" * 18_000_000, 9)), 60_000_000)


@pytest.mark.parametrize(
    "save",
    [
        {"format": "JPEG", "progressive": True},
        {"format": "JPEG", "quality": 50},
        {"format": "PNG", "optimize": True},
    ],
    ids=["progressive", "baseline", "png"],
)
def test_sound_images_pass_and_a_jpeg_goes_into_the_pdf_byte_for_byte(tmp_path, save):
    from PIL import Image

    buffer = io.BytesIO()
    Image.effect_noise((240, 160), 40).convert("RGB").save(buffer, **save)
    data = buffer.getvalue()
    kind = images.image_size(data, 60_000_000)
    assert kind == (save["format"], 240, 160)
    root = tmp_path / "p"
    shutil.copytree(FIXTURES / "basic", root)
    (root / "content/sample/art/photo.img").write_bytes(data)
    layout = root / "content/sample/layouts/hero.yaml"
    layout.write_text(
        layout.read_text().replace(
            "elements:\n", "elements:\n  - {type: image, src: photo.img, area: trim}\n", 1
        )
    )
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 0, result.output
    pdf = (root / "out/sample/heroes.pdf").read_bytes()
    assert (data in pdf) == (save["format"] == "JPEG")  # a JPEG is embedded as its own bytes


# -- PDFs read back ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "w, h, scale, message",
    [
        (14_173, 14_173, 110 / 72, "has a page 1 of 5,000 x 5,000 mm, which would render to 469 megapixels"),
        (20_000, 100, 0.01, "has a page 1 of 7,056 x 35 mm; a page may be 5,080 mm on a side"),
        (float("nan"), 100, 1, "has a page 1 of no usable size"),
        (0, 100, 1, "has a page 1 of no usable size"),
    ],
)
def test_a_page_too_large_to_render_is_refused_before_pdfium_allocates_it(w, h, scale, message):
    with pytest.raises(Refused) as caught:
        pdfs.check_page(w, h, scale)
    assert caught.value.message.startswith(message), caught.value.message


def test_a_poster_page_at_proof_resolution_still_renders():
    pdfs.check_page(841 / 25.4 * 72, 1189 / 25.4 * 72, 110 / 72)  # A0 at 110 dpi: 19 megapixels


def test_changes_refuses_a_saved_build_whose_pages_are_five_metres_wide(tmp_path):
    root = tmp_path / "p"
    shutil.copytree(FIXTURES / "basic", root)
    assert run_cli("build", "--out", "out", cwd=root).exit_code == 0
    shutil.copytree(root / "out", root / "old")
    (root / "old/sample/heroes.pdf").write_bytes(hf.pdf(pages=40))
    deck = root / "content/sample/decks/heroes.yaml"
    deck.write_text(deck.read_text().replace("Gain :drop::drop:", "Gain :drop:"))
    result = run_cli("changes", "old", "--out", "out", cwd=root)
    assert result.exit_code == 1
    assert (
        "old/sample/heroes.pdf: error: the PDF has a page 1 of 5,000 x 5,000 mm, which would render to 469 "
        "megapixels; the limit is 60"
    ) in result.output
    assert not (root / "out/sample/changes").exists()


def test_a_preview_of_a_huge_page_is_not_drawn(tmp_path):
    from pnpgen.serve.preview import _render_page

    (tmp_path / "heroes.pdf").write_bytes(hf.pdf(pages=1))
    assert _render_page(tmp_path / "heroes.pdf", 0, 50) is None
    (tmp_path / "minis.pdf").write_bytes(hf.pdf(pages=1, width_pt=180, height_pt=252))
    image, height = _render_page(tmp_path / "minis.pdf", 0, 72)
    assert image.size == (180, 252) and height == 252


# -- watch and serve keep running --------------------------------------------------------------------------------
DECK = (
    "id: heroes\nkind: cards\nname: Hero cards\nsize: poker\nfront: hero\nback: sample-back\ncards_from: {}\n"
)
SAVES = [  # a deck saved to read each sheet, and what the error says
    (
        "h.xls",
        "heroes.yaml:7:13: error: 'content/sample/data/h.xls' cannot be read as a workbook: the reader stopped "
        "(killed by SIGABRT)",
    ),
    (
        "h.xlsx",
        "content/sample/data/h.xlsx:Heroes!XFD1048576: error: sheet 'Heroes' has a filled cell outside",
    ),
]


def shown_errors(state: dict) -> str:
    """The errors the page shows, one `at: error: message` a line."""
    games = state["games"].values() if isinstance(state["games"], dict) else state["games"]
    return "\n".join(f"{e['at']}: error: {e['message']}" for g in games for e in g.get("errors", []))


def with_hostile_sheets(tmp_path: Path) -> Path:
    """The basic game, with a sheet whose reader aborts (with the test hook set) and one that would abort calamine."""
    root = tmp_path / "p"
    shutil.copytree(FIXTURES / "basic", root)
    (root / "content/sample/data").mkdir()
    (root / "content/sample/data/h.xls").write_bytes(hf.xls_damaged())
    (root / "content/sample/data/h.xlsx").write_bytes(hf.xlsx({"A1": "name", "A2": "x", "XFD1048576": "y"}))
    return root


@pytest.mark.slow
def test_watch_survives_a_reader_that_aborts_and_a_sheet_that_would_abort(tmp_path):
    import queue
    import time

    from test_watch import _reader, wait_for

    root = with_hostile_sheets(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1", child.ABORT_HOOK: "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "pnpgen", "watch", "--out", "out"],
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    q: queue.Queue = queue.Queue()
    threading.Thread(target=_reader, args=(proc.stdout, q), daemon=True).start()
    deck = root / "content/sample/decks/heroes.yaml"
    good = deck.read_text()
    try:
        wait_for(q, "watching")
        before = (root / "out/sample/heroes.pdf").read_bytes()
        for name, where in SAVES:
            time.sleep(0.3)
            deck.write_text(DECK.format(f"data/{name}"))
            lines = wait_for(q, "failed sample")
            assert any(where in line for line in lines), lines
            assert proc.poll() is None  # still watching
        assert (root / "out/sample/heroes.pdf").read_bytes() == before  # the last good output
        time.sleep(0.3)
        deck.write_text(good.replace("Tide Caller", "Tide Singer"))
        wait_for(q, "rebuilt sample: heroes")
        text = [
            p.get_textpage().get_text_range() for p in pdfium.PdfDocument(str(root / "out/sample/heroes.pdf"))
        ]
        assert any("Tide Singer" in t for t in text)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.slow
def test_serve_survives_a_reader_that_aborts_and_a_sheet_that_would_abort(tmp_path, monkeypatch):
    import time

    from serving import Served

    root = with_hostile_sheets(tmp_path)
    monkeypatch.setenv(child.ABORT_HOOK, "1")  # the server's environment: its readers' children abort
    served = Served(root)
    try:
        version = served.state(since=-1)["version"]
        for name, where in SAVES:
            time.sleep(0.3)  # as tests/test_watch.py: a save apart from the build before it
            (root / "content/sample/decks/heroes.yaml").write_text(DECK.format(f"data/{name}"))
            state = served.state(since=version)
            while where not in shown_errors(state):
                version = state["version"]
                state = served.state(since=version)
            version = state["version"]
            assert served.proc.poll() is None
            assert served.get("/")[0] == 200  # still serving its page
    finally:
        print(served.stop())


# -- colour profiles ---------------------------------------------------------------------------------------------
def _icc(fault: str) -> bytes:
    from PIL import ImageCms

    data = bytearray(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    if fault == "tag-outside":
        struct.pack_into(">I", data, 132 + 4, 0x7FFF0000)  # the first tag's offset
    elif fault == "tags":
        struct.pack_into(">I", data, 128, 100_000)
    elif fault == "size":
        struct.pack_into(">I", data, 0, len(data) * 2)
    elif fault == "signature":
        data[36:40] = b"xxxx"
    return bytes(data)


@pytest.mark.parametrize(
    "fault, message",
    [
        ("tag-outside", "is damaged: its tag '"),
        ("tags", "says it holds 100,000 tags"),
        ("size", "declares 1,176 bytes and holds 588"),
        ("signature", "is not an ICC profile"),
    ],
)
def test_a_damaged_colour_profile_never_reaches_littlecms(fault, message, monkeypatch):
    from PIL import ImageCms

    from pnpgen import artcolour

    def never(*args, **kwargs):
        raise AssertionError("littleCMS was given the profile")

    data = _icc(fault)
    monkeypatch.setattr(ImageCms, "ImageCmsProfile", never)
    with pytest.raises(artcolour.ProfileError) as caught:
        artcolour.profile_of(data)
    assert f"an unreadable colour profile (it {message}" in str(caught.value), str(caught.value)
    assert artcolour.needs_conversion({"icc_profile": data}, "RGB") is False  # drawn as sRGB: never converted


def test_every_profile_on_this_machine_passes_the_check():
    from pnpgen.bounds.icc import check_icc

    found = sorted(Path("/usr/share/color/icc").rglob("*.ic[cm]"))
    for path in found:
        check_icc(path.read_bytes())
    check_icc(_icc(""))


def _entropy_end_byte_by_byte(data: bytes, at: int) -> int | None:
    """The reading of JPEG entropy-coded data the scan must agree with, one 0xFF at a time."""
    while True:
        at = data.find(b"\xff", at)
        if at == -1 or at + 1 >= len(data):
            return None
        following = data[at + 1]
        if following == 0x00 or 0xD0 <= following <= 0xD7 or following == 0xFF:
            at += 1 if following == 0xFF else 2
            continue
        return at


def test_the_end_of_jpeg_image_data_is_found_as_byte_by_byte():
    """Stuffed zeros, restart markers, fill bytes and a marker at the very end, in every order: the one-scan search
    ends the image data where reading it byte by byte does, and refuses what that refuses."""
    import itertools
    import random

    from pnpgen.bounds import Refused
    from pnpgen.bounds.images import _entropy_end

    pieces = [
        b"\xff\x00",
        b"\xff\xd0",
        b"\xff\xd7",
        b"\xff\xff",
        b"\xff",
        b"\xff\xd9",
        b"\xff\xc4",
        b"ab",
        b"\x00",
    ]
    rng = random.Random(27)
    cases = [b"".join(p) for n in range(1, 4) for p in itertools.product(pieces, repeat=n)]
    cases += [
        bytes(rng.choice((0, 0xFF, 0xD3, 0xD9, 0x41)) for _ in range(rng.randint(1, 40))) for _ in range(3000)
    ]
    for data in cases:
        for at in range(min(len(data), 3)):
            expected = _entropy_end_byte_by_byte(data, at)
            if expected is None:
                with pytest.raises(Refused):
                    _entropy_end(data, at, 1)
            else:
                assert _entropy_end(data, at, 1) == expected, (data, at)

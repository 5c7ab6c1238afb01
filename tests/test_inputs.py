"""The one way in: the reader confines, bounds, decodes and records every file it reads."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from pnpgen.errors import ContentError, Location
from pnpgen.inputs import LISTING, MISSING, NOT_A_FILE, Reader, confined, digest_of


@pytest.fixture
def game(tmp_path):
    root = tmp_path / "content" / "g"
    (root / "decks").mkdir(parents=True)
    (root / "game.yaml").write_text("id: g\n")
    (tmp_path / "layouts").mkdir()
    (tmp_path / "secret.txt").write_text("secret")
    return root


def reader_for(root):
    return Reader([root, root.parent.parent / "layouts"], root.parent.parent)


def message(exc) -> str:
    return exc.value.diagnostics.items[0].format()


def test_reads_and_records_with_digest(game):
    r = reader_for(game)
    with r.recording() as outer:
        with r.recording() as inner:
            assert r.read_text(game / "game.yaml") == "id: g\n"
        r.probe(game / "icons.yaml")
    assert list(inner) == ["content/g/game.yaml"] and len(inner["content/g/game.yaml"]) == 64
    assert outer["content/g/icons.yaml"] == MISSING and "content/g/game.yaml" in outer


def test_listing_and_replay_are_recorded(game):
    (game / "rulebook").mkdir()
    (game / "rulebook" / "01.md").write_text("# A")
    r = reader_for(game)
    with r.recording() as first:
        assert [p.name for p in r.listing(game / "rulebook", "*.md")] == ["01.md"]
    assert first["content/g/rulebook/*.md"].startswith(LISTING)
    with r.recording() as again:
        r.replay(first)
    assert again == first
    (game / "rulebook" / "02.md").write_text("# B")  # a new chapter changes the listing's digest
    roots = [game.resolve(), (game.parent.parent / "layouts").resolve()]
    assert digest_of(game / "rulebook" / "*.md", roots) != first["content/g/rulebook/*.md"]


@pytest.mark.parametrize("kind", ["file-link", "folder-link", "parent-link", "dotdot"])
def test_every_way_out_of_the_game_folder_is_refused(game, tmp_path, kind):
    outside = tmp_path / "secret.txt"
    if kind == "file-link":
        (game / "decks" / "x.yaml").symlink_to(outside)
        path = game / "decks" / "x.yaml"
    elif kind == "folder-link":
        (game / "decks" / "sub").symlink_to(tmp_path)
        path = game / "decks" / "sub" / "secret.txt"
    elif kind == "parent-link":  # a link higher up, then a plain name below it
        os.rename(game / "decks", tmp_path / "elsewhere")
        (game / "decks").symlink_to(tmp_path)
        path = game / "decks" / "secret.txt"
    else:
        path = game / "decks" / ".." / ".." / ".." / "secret.txt"
    r = reader_for(game)
    with r.recording() as rec, pytest.raises(ContentError) as exc:
        r.read_bytes(path, "component file")
    assert "leaves the game folder; refused" in message(exc)
    assert rec == {}  # nothing outside was read or recorded
    assert confined(path, r.roots) is None


def test_inside_refuses_absolute_and_escaping_names(game):
    r = reader_for(game)
    loc = Location("content/g/game.yaml", 3, 5)
    for bad in ("/etc/passwd", "../../secret.txt", ""):
        with pytest.raises(ContentError) as exc:
            r.inside(game, bad, loc, "component file")
        assert str(exc.value).startswith("content/g/game.yaml:3:5: error: component file")
    assert r.inside(game, "decks/a.yaml", loc, "component file") == game / "decks" / "a.yaml"


def test_a_pipe_is_refused_without_blocking(game):
    os.mkfifo(game / "decks" / "pipe.yaml")
    r = reader_for(game)
    result = {}

    def read():
        try:
            r.read_bytes(game / "decks" / "pipe.yaml", "component file")
        except ContentError as exc:
            result["msg"] = exc.diagnostics.items[0].message

    t = threading.Thread(target=read, daemon=True)
    t.start()
    t.join(5)
    assert not t.is_alive(), "reading a pipe blocked"
    assert "is a pipe, not a regular file; refused" in result["msg"]


def test_folder_where_a_file_is_expected(game):
    with pytest.raises(ContentError) as exc:
        reader_for(game).read_bytes(game / "decks", "component file")
    assert "is a folder, not a regular file" in message(exc)


def test_size_bound_and_utf8_location(game):
    (game / "big.yaml").write_bytes(b"a" * 101)
    with pytest.raises(ContentError) as exc:
        reader_for(game).read_bytes(game / "big.yaml", "file", limit=100)
    assert "is 101 bytes; the limit is 100" in message(exc)
    (game / "bad.yaml").write_bytes(b"id: g\nname: caf\xe9\n")
    with pytest.raises(ContentError) as exc:
        reader_for(game).read_text(game / "bad.yaml", "component file")
    assert ":2:10: error: component file is not UTF-8 text (byte 0xe9, 'é' in Windows-1252)" in message(exc)


def test_bom_is_dropped(game):
    (game / "bom.yaml").write_bytes(b"\xef\xbb\xbfid: g\n")
    assert reader_for(game).read_text(game / "bom.yaml") == "id: g\n"


def test_digest_of_never_reads_outside_or_non_files(game, tmp_path):
    roots = [game.resolve()]
    (game / "link").symlink_to(tmp_path / "secret.txt")
    assert digest_of(game / "link", roots) == "refused"
    assert digest_of(tmp_path / "secret.txt", roots) == "refused"
    assert digest_of(game / "nothing.yaml", roots) == MISSING
    assert digest_of(game / "decks", roots) == NOT_A_FILE  # never "missing": something is there


def test_a_built_in_layout_is_keyed_in_pnpgen_and_found_again_and_nothing_else_of_pnpgen(game):
    from pnpgen.inputs import OWN, PACKAGE, path_of
    from pnpgen.pipeline import manifest
    from pnpgen.project import BUILTIN_LAYOUTS, Project

    project = Project(game.parent)
    r = project.reader(game)
    with r.recording() as rec:
        r.read_text(BUILTIN_LAYOUTS / "basic-card.yaml")
        r.probe(game / "layouts" / "basic-card.yaml")
    assert set(rec) == {"pnpgen:layouts/basic-card.yaml", "content/g/layouts/basic-card.yaml"}

    def valid(inputs):
        return manifest.valid({"files": [], "engine": "e", "paper": "a4", "game": "g", "model": inputs})

    assert valid(rec)
    for key in ("pnpgen:../x.yaml", "pnpgen:/etc/passwd", "pnpgen:layouts/../../x", "/etc/passwd", "a/../b"):
        assert not valid({key: MISSING}), key
    roots = r.roots
    for key, digest in rec.items():
        assert digest_of(path_of(key, project.root), roots) == digest
    assert path_of("content/g/game.yaml", project.root) == project.root / "content/g/game.yaml"
    # a tampered manifest may name another file of pnpgen's: it is not a root, so it is never read
    assert digest_of(path_of(OWN + "data/icons.yaml", project.root), roots) == "refused"
    assert (PACKAGE / "data" / "icons.yaml").is_file()


def test_decoded_pixels_are_bounded_per_build_not_only_per_image(game, monkeypatch):
    import pnpgen.inputs as inputs

    monkeypatch.setattr(inputs, "MAX_PIXELS", 1000)
    r = reader_for(game)
    loc = Location("content/g/layouts/card.yaml", 7, 10)
    r.charge_pixels(game / "a.png", 600, loc)
    r.charge_pixels(game / "a.png", 600, loc)  # the same file drawn again costs nothing more
    with pytest.raises(ContentError) as exc:
        r.charge_pixels(game / "b.png", 600, loc)
    assert message(exc).startswith(
        "content/g/layouts/card.yaml:7:10: error: the game's images come to 0 megapixels"
    )


def test_a_jpeg_written_undecoded_counts_a_quarter_of_its_pixels(game, monkeypatch):
    """A JPEG goes into the PDF as its own bytes; a PNG is decoded and compressed again (ten times the work per
    pixel, measured), so a thousand cards of 300-dpi JPEG art fit the bound where as many PNGs would not."""
    import pnpgen.inputs as inputs

    monkeypatch.setattr(inputs, "MAX_PIXELS", 1000)
    r = reader_for(game)
    loc = Location("content/g/layouts/card.yaml", 7, 10)
    for name in ("a.jpg", "b.jpg", "c.jpg"):
        r.charge_pixels(game / name, 1000, loc, passthrough=True)  # 250 each: 750
    r.charge_pixels(game / "d.png", 200, loc)  # 950
    with pytest.raises(ContentError) as exc:
        r.charge_pixels(game / "e.png", 100, loc)  # 1,050
    assert "a JPEG counts a quarter" in message(exc)


def test_art_whose_profile_must_be_applied_is_charged_whole(project, monkeypatch):
    """Only a JPEG written as it is counts a quarter: one whose colour profile is applied is decoded."""
    from conftest import run_cli
    from PIL import Image

    import pnpgen.inputs as inputs

    root = project("basic")
    art = root / "content" / "sample" / "art"
    Image.new("RGB", (100, 100), (60, 140, 90)).save(art / "plain.jpg")
    layout = root / "content" / "sample" / "layouts" / "hero.yaml"
    layout.write_text(
        layout.read_text()
        + "  - type: image\n    src: plain.jpg\n    x: 10\n    y: 40\n    w: 20\n    h: 20\n"
    )
    # the layout draws no other art: a quarter of 10,000 pixels fits, all of them do not
    monkeypatch.setattr(inputs, "MAX_PIXELS", 9_000)
    built = run_cli("build", "sample", "--out", "out", "--no-print-all", cwd=root)
    assert built.exit_code == 0, built.output
    a98 = Path("/usr/share/color/icc/ghostscript/a98.icc")
    if not a98.exists():
        pytest.skip("ghostscript's ICC profiles are not installed")
    Image.new("RGB", (100, 100), (60, 140, 90)).save(art / "plain.jpg", icc_profile=a98.read_bytes())
    built = run_cli("build", "sample", "--out", "out", "--no-print-all", cwd=root)
    assert built.exit_code == 1 and "megapixels to decode" in built.output, built.output

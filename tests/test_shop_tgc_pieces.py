"""The Game Crafter export of tiles, tokens and boards, measured from the PNGs it writes: pixel size against
TGC's templates, the 300 dpi and sRGB tags, and one image per distinct face."""

from __future__ import annotations

import csv
import io

import pytest
from conftest import ROOT, run_cli
from PIL import Image, ImageCms

from pnpgen.shop import sizes
from pnpgen.units import MM

PIECES = "content/pieces/tiles"


def _set(root, name: str, old: str, new: str) -> None:
    path = root / PIECES / name
    text = path.read_text()
    assert old in text, (name, old)
    path.write_text(text.replace(old, new, 1))


def _tagged(path) -> tuple[int, int]:
    with Image.open(path) as im:
        assert im.mode == "RGB", path.name
        assert [round(v) for v in im.info["dpi"]] == [300, 300], path.name
        profile = ImageCms.ImageCmsProfile(io.BytesIO(im.info["icc_profile"]))
        assert "sRGB" in ImageCms.getProfileDescription(profile), path.name
        return im.size


def _faces(folder) -> tuple[int, int, int]:
    """(front PNGs, back PNGs, distinct faces cards.csv names), each read from the folder."""
    with open(folder / "cards.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    named = {r["front"] for r in rows} | {r["back"] for r in rows if r["back"]}
    fronts = list(folder.glob("*-front.png"))
    backs = list(folder.glob("*-back.png"))
    assert {p.name for p in fronts + backs} == named, folder.name
    return len(fronts), len(backs), sum(int(r["count"]) for r in rows)


def test_tiles_tokens_and_a_board_at_the_game_crafters_templates(project, tmp_path):
    root = project("pieces")
    _set(root, "hex.yaml", "size: 40mm", "size: 44mm")  # 50.8 mm corner to corner: a Small Hex Tile
    _set(root, "tri.yaml", "size: 40mm", "size: 50.8mm")  # a Triangle Tile
    _set(root, "coins.yaml", "size: 20mm", "size: 19.05mm")  # a Medium Circle Chit
    _set(root, "board.yaml", "size: 400mm x 300mm", "size: 254mm x 127mm")  # a Half Board, landscape
    out = tmp_path / "out"
    result = run_cli("export", "shop", "tgc", "pieces", "--content", "content", "--out", out, cwd=root)
    assert result.exit_code == 0, result.output
    tgc = out / "pieces" / "shop" / "tgc"
    expected = {
        "hex": ((600, 675), (2, 2, 35)),  # pointy hex: portrait template; each back differs
        "tri": ((675, 600), (2, 2, 17)),
        "coins": ((300, 300), (1, 0, 30)),
        # 15 mm: no product; its own size plus 1/8 in bleed all round at 300 dpi
        "squares": ((round((15 + 6.35) / 25.4 * 300),) * 2, (1, 1, 12)),
    }
    for comp, (px, faces) in expected.items():
        folder = tgc / comp
        assert _faces(folder) == faces, comp
        for path in folder.glob("*.png"):
            assert _tagged(path) == px, (path.name, px)
    sides = sorted((tgc / "board").glob("*.png"))
    assert [p.name for p in sides] == ["board-1-front.png", "board-2-back.png"]
    for path in sides:
        assert _tagged(path) == (3075, 1575), path.name
    with open(tgc / "board" / "sides.csv", newline="") as fh:
        assert [r["product"] for r in csv.DictReader(fh)] == ["HalfBoard", "HalfBoard"]
    # the piece's art fills the template: the hex's middle is its drawn face, not the padding
    with Image.open(tgc / "hex" / "hex-001-front.png") as im:
        assert im.getpixel((300, 337)) != im.getpixel((0, 0))
    # and preflight says nothing of a size here but the 15 mm squares
    assert "sells no square piece of 15.0 x 15.0 mm" in result.output
    assert (
        "the nearest it sells is the Small Square Chit (0.5 x 0.5 in, template 225 x 225 px)" in result.output
    )
    assert result.output.count("The Game Crafter sells no") == 1
    with open(tgc / "spec.csv", newline="") as fh:
        spec = {r["component"]: r for r in csv.DictReader(fh)}
    assert spec["board"]["files"] == "board/: 2 PNG images and sides.csv"
    assert spec["hex"]["files"] == "hex/: 4 PNG images and cards.csv"


def test_a_size_the_game_crafter_does_not_sell_is_a_warning_naming_the_nearest(project):
    root = project("pieces")
    result = run_cli("preflight", "pieces", "--target", "tgc", "--content", "content", cwd=root)
    assert result.exit_code == 0, result.output  # warnings only
    text = result.output
    assert (
        f"{PIECES}/board.yaml:1:1: warning: [tgc] The Game Crafter sells no board of 400.0 x 300.0 mm; the "
        "nearest it sells is the Bi-Fold Board (9 x 18 in, template 2775 x 5475 px)" in text
    )
    assert (
        f"{PIECES}/coins.yaml:1:1: warning: [tgc] The Game Crafter sells no circle piece of 20.0 x 20.0"
        in text
    )


def test_a_one_sided_folding_board_warns_of_its_second_side(project):
    root = project("pieces")
    _set(root, "board.yaml", "size: 400mm x 300mm", "size: 18in x 18in")
    result = run_cli("preflight", "pieces", "--target", "tgc", "--content", "content", cwd=root)
    assert result.exit_code == 0, result.output
    assert "the Quad-Fold Board prints one side; this board has 2" in result.output


@pytest.mark.parametrize(
    "kind, shape, size_mm, identity, px",
    [
        ("tokens", "circle", (12.7, 12.7), "SmallCircleChit", (225, 225)),
        ("tokens", "square", (25.4, 25.4), "LargeSquareChit", (375, 375)),
        ("tiles", "square", (88.9, 88.9), "LargeSquareTile", (1125, 1125)),
        ("tiles", "hex-flat", (50.8, 50.8 * 3**0.5 / 2), "SmallHexTile", (675, 600)),  # 2 in corner to corner
        ("tiles", "rect", (50.8, 101.6), "DominoTile", (675, 1275)),
        ("board", "rect", (457.2, 457.2), "QuadFoldBoard", (5475, 5475)),
        ("board", "rect", (508.0, 254.0), None, None),
    ],
)
def test_products_by_size_and_shape(kind, shape, size_mm, identity, px):
    w, h = size_mm[0] * MM, size_mm[1] * MM
    product = sizes.match_product(kind, shape, w, h)
    if identity is None:
        assert product is None
        assert "nearest it sells" in sizes.unsold_product_message(kind, shape, w, h)
        return
    assert product is not None and product.identity == identity
    assert sizes.product_px(product, w, h) == px
    assert sizes.unsold_product_message(kind, shape, w, h) is None


def test_every_template_is_its_trim_plus_an_eighth_inch_bleed_at_300_dpi():
    for product in sizes.PIECES + sizes.BOARDS:
        w, h = product.trim_in
        assert (round((w + 0.25) * 300), round((h + 0.25) * 300)) == product.template, product.identity
        assert w > 0 and h > 0


GAMES = ["deity", "elements-of-the-gods", "orbis", "river", "seven-gods"]


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_every_tile_token_and_board_of_a_shipped_game(game, tmp_path):
    """Every tile set, token set and board of a shipped game: its folder, one PNG per distinct face (and back,
    once when shared) or per board side, each at the template size (or own size plus bleed) and tagged. (Card
    decks: `test_shop_games`, a game's smallest; Seven Gods' 419 envoy faces took two thirds of this test.)"""
    from pnpgen.errors import Diagnostics
    from pnpgen.exports import loaded
    from pnpgen.model import Board
    from pnpgen.project import Project
    from pnpgen.shop.tgc import template_px

    out = tmp_path / "out"
    run, _ = loaded(Project(ROOT / "content"), game, False)
    pieces = [c for c in run.game.components if c.kind != "cards"]
    assert pieces, game
    ids = [c.id for c in pieces]
    result = run_cli("export", "shop", "tgc", game, *ids, "--content", ROOT / "content", "--out", out)
    assert result.exit_code == 0, result.output
    tgc = out / game / "shop" / "tgc"
    assert sorted(p.name for p in tgc.iterdir() if p.is_dir()) == sorted(ids)
    for comp in pieces:
        folder = tgc / comp.id
        images = sorted(folder.glob("*.png"))
        if isinstance(comp, Board):
            assert len(images) == len(comp.sides), comp.id
        else:
            cards = run.painter.deck(comp, Diagnostics()).distinct()
            backs = [c[1] for c in cards if c[1] is not None]
            shared = len(set(backs)) == 1 and len(backs) == len(cards)
            fronts, back_pngs, _ = _faces(folder)
            assert fronts == len(cards), comp.id
            assert back_pngs == (1 if shared else len(backs)), comp.id
        px = template_px(comp)
        for path in images:
            assert _tagged(path) == px, (comp.id, path.name)


def test_a_board_is_rendered_by_the_deck_renderer_its_name_and_place_kept(monkeypatch, tmp_path):
    """`shop.tgc` hands `exports._render_pages` a Board where its annotation says Deck: it reads only the title
    and the place, which a board has too, so a failure while drawing a board's sides is reported at the board."""
    import pnpgen.render.pdf
    from pnpgen.errors import ContentError, Location
    from pnpgen.exports import _render_pages
    from pnpgen.model import Board

    titles = []

    def full_disk(path, faces, bleed_pt, icons, title):
        titles.append(title)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pnpgen.render.pdf, "write_face_pages", full_disk)
    place = Location("content/pieces/tiles/board.yaml", 3, 1)
    board = Board("board", "The board", 100.0, 80.0, 9.0, (), {}, tmp_path / "board.yaml", place)
    with pytest.raises(ContentError) as err:
        next(_render_pages([], 9.0, {}, 300, board, tmp_path))
    assert titles == ["The board"]
    assert str(err.value).startswith(
        "content/pieces/tiles/board.yaml:3:1: error: could not write the PNG images"
    )
    assert "No space left on device" in str(err.value)

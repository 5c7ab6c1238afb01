"""The Tabletop Simulator files held against TTS's own format, not against our writer: its Knowledge Base and
scripting API (`tts_schema.py` names the pages) and the objects of a published mod's save (argonui/SCED, kept
unpacked one object a file: no Custom_Token of its 105 has a second image). What TTS would load wrong fails
here for every kind of object it concerns."""

from __future__ import annotations

from pathlib import Path

import pytest
import tts_schema
from conftest import fast_once
from test_tts import export, fixture, objects, read, round_trip

from pnpgen.exports import savedobject as so
from pnpgen.exports.table import SEATS

SHAPES = ("square", "rect", "hex", "hex-flat", "triangle", "circle")
url = "file:///x/".__add__


@pytest.mark.parametrize("back", ["none", "same", "own"])
@pytest.mark.parametrize("shape", SHAPES)
def test_every_piece_shows_its_back_as_tts_reads_it(tmp_path, shape, back):
    """A tile's bottom image is its back; a token has one image, so a back of its own is its second state."""
    w, h = (30.0, 20.0) if shape == "rect" else (25.0, 25.0)
    other = {"none": None, "same": "f.png", "own": "b.png"}[back]
    pieces = so.PieceSet("p", "P", "tiles", shape, w, h, [so.Piece("A", 2, "f.png", other)])
    made = so.piece_objects(so.Ids("g"), pieces, url, so.transform(0.0, 0.0))
    assert len(made) == 2 and {o["Name"] for o in made} <= {"Custom_Tile", "Custom_Token"}
    for piece in made:
        assert piece["CustomImage"]["ImageURL"] == url("f.png")
        assert tts_schema.underneath(piece) == url(other or "f.png")
    data = so.save_state("t", made)
    assert tts_schema.problems(data) == []
    round_trip(data, tmp_path / "unpacked")


def test_exported_pieces_show_their_backs_in_the_box_and_at_the_seats(tmp_path):
    """Through the command: every tile and token of the saved object and of the save, wherever it is set out,
    shows its set's back underneath, its other state lying where it lies."""
    project = fixture(tmp_path, "pieces")
    folder = export(project, "pieces", "--save", "--players", "2")
    backs = {"hex": True, "tri": True, "squares": True, "coins": False}
    for name in ("pieces-saved-object.json", "pieces-save-2p.json"):
        found = 0
        for piece in objects(read(folder / name)):
            if piece["Name"] not in ("Custom_Tile", "Custom_Token"):
                continue
            found += 1
            set_id = piece["CustomImage"]["ImageURL"].rsplit("/", 1)[1].rsplit("-", 2)[0]
            side = "back" if backs[set_id] else "front"
            assert tts_schema.underneath(piece).endswith(f"-{side}.png"), (name, piece["Nickname"])
            for state in (piece.get("States") or {}).values():
                assert state["Transform"] == piece["Transform"]
        assert found == 35 + 17 + 12 + 30, name


def test_the_schema_check_finds_a_lost_token_back_and_a_misnumbered_state():
    image = {
        "ImageURL": url("f.png"),
        "ImageSecondaryURL": url("b.png"),
        "ImageScalar": 1.0,
        "WidthScale": 0.0,
    }
    image["CustomToken"] = {
        "Thickness": 0.2,
        "MergeDistancePixels": 15.0,
        "StandUp": False,
        "Stackable": True,
    }
    token = so.obj("Custom_Token", "a1b2c3", "T", so.transform(0.0, 0.0), CustomImage=image)
    assert any("its back is lost" in p for p in tts_schema.problems(so.save_state("t", [token])))
    state = so.obj(
        "Custom_Token", "a1b2c4", "T", so.transform(0.0, 0.0), CustomImage=dict(image, ImageSecondaryURL="")
    )
    token = dict(token, CustomImage=dict(image, ImageSecondaryURL=""), States={"1": state})
    assert any("state '1'" in p for p in tts_schema.problems(so.save_state("t", [token])))


def laid_out(players: int) -> dict:
    """A save for `players` of a game with a board, a deck and three pieces a seat, one kind a seat."""
    from pnpgen.exports.table import save

    sheet = so.DeckSheet("d-sheet-1.png", "d-back.png", 10, 7, False)
    deck = so.CardDeck("d", "Deck", 63.5, 88.9, [sheet], [(f"c{i}", "", 1, i) for i in range(20)])
    kinds = [so.Piece(f"K{i}", 4, f"k{i}.png", None) for i in range(10)]
    meeples = so.PieceSet("m", "Markers", "tokens", "circle", 25.0, 25.0, kinds)
    board = so.BoardSide("b/front", "Board", "b.png", 500.0, 400.0)
    needs = {"m": {n: 3 * n for n in range(1, 11)}}
    return save("g", "Game", players, [deck], [meeples], [board], needs, url)


@pytest.mark.parametrize("players", range(1, 11))
def test_every_seat_is_a_hand_zone_beyond_its_pieces(tmp_path, players):
    """TTS seats a player, and deals, at the hand zone of their colour (Knowledge Base: Zone Tools, Player
    Hands): one a seat, White's at the front edge, each turned to its edge, none over anything on the table."""
    data = laid_out(players)
    assert tts_schema.problems(data) == []
    hands = tts_schema.hands(data)
    assert list(hands) == list(SEATS[:players])
    for i, (colour, hand) in enumerate(hands.items()):
        front = i % 2 == 0  # White and every odd seat along the front edge (negative z)
        assert (hand["posZ"] < 0) == front and hand["rotY"] == (0.0 if front else 180.0), colour
        mine = [o for o in data["ObjectStates"] if o["Nickname"].startswith(f"{colour}: ")]
        assert len(mine) == 3 and all(abs(o["Transform"]["posZ"]) < abs(hand["posZ"]) for o in mine)
        assert all((o["Transform"]["posZ"] < 0) == front for o in mine)
    others = [o for o in data["ObjectStates"] if o["Name"] != "HandTrigger"]
    under = [o["Nickname"] for o in others for h in hands.values() if tts_schema.in_hand(o["Transform"], h)]
    assert under == []
    spots = list(hands.values())
    for a, h in enumerate(spots):  # no two hands overlap
        assert all(not tts_schema.in_hand(h, k) for k in spots[a + 1 :])
    round_trip(data, tmp_path / "unpacked")


# (the game's players, the save `--save` writes without --players): TTS seats one player a colour, ten at most
MOST = {"1-10": 10, "2-11": 10, "2-12": 10, "2-80": 10, "10-12": 10, "3": 3, "12-16": None, "100": None}


@pytest.mark.parametrize("players", fast_once(MOST))
def test_a_save_seats_no_more_players_than_tts_has_colours(tmp_path, players):
    """`--players` takes 1 to 10, but the default, the game's most, took any: a game for 2-80 wrote 80 hand zones
    of 8 each colour, their widths below 0. The default is the most TTS seats; a game it cannot seat is refused,
    nothing written."""
    from conftest import run_cli

    root = fixture(tmp_path, "basic")
    game = root / "content" / "sample" / "game.yaml"
    game.write_text(game.read_text().replace("players: 2-4", f"players: {players}"), encoding="utf-8")
    (root / "content" / "sample" / "facts.yaml").unlink()  # its supply is for 2 to 4
    result = run_cli("export", "tts", "sample", "--save", "--out", "out", "--no-check", cwd=root)
    if MOST[players] is None:
        assert result.exit_code == 2 and "TTS seats at most 10, one a player colour" in result.output
        assert "Traceback" not in result.output and not (root / "out").exists()
        return
    assert result.exit_code == 0, result.output
    data = read(root / "out" / "sample" / "tts" / f"sample-save-{MOST[players]}p.json")
    assert tts_schema.problems(data) == []
    assert list(tts_schema.hands(data)) == list(SEATS[: MOST[players]])  # one a colour, each once


def clear_edges(image) -> bool:
    alpha = image.convert("RGBA").getchannel("A")
    w, h = alpha.size
    return all(
        alpha.crop(box).getextrema()[1] == 0
        for box in ((0, 0, w, 1), (0, h - 1, w, h), (0, 0, 1, h), (w - 1, 0, w, h))
    )


@pytest.mark.parametrize("shape", SHAPES)
def test_a_token_image_has_a_clear_frame_a_tile_image_none(shape):
    """TTS cuts a token from its image's transparency, best with a transparent border (Knowledge Base, Custom
    Token: Tips); a tile takes the image's own shape."""
    from PIL import Image

    from pnpgen.exports.tts import tts_picture

    w, h = (300, 200) if shape == "rect" else (260, 260)
    picture, frame = tts_picture(Image.new("RGB", (w, h), "#336699"), shape)
    if shape in so.TILE_TYPES:
        assert picture.size == (w, h) and frame == 1.0
        return
    assert clear_edges(picture) and frame == max(picture.size) / max(w, h) > 1.0
    left, top, right, bottom = picture.getchannel("A").getbbox()
    assert (right - left, bottom - top) == (w, h)  # the piece itself, whole, inside the frame


def test_every_exported_piece_is_its_printed_size_and_every_token_framed(tmp_path):
    """Each tile and token of the saved object, read as TTS sizes it (a tile or token is 2 units a side at scale
    1, fitted to its image): the piece inside the image comes out at its printed size, to 1%."""
    from urllib.parse import unquote, urlparse

    from PIL import Image

    from pnpgen.exports import loaded
    from pnpgen.model import Board
    from pnpgen.project import Project

    project = fixture(tmp_path, "pieces")
    folder = export(project, "pieces")
    run, _ = loaded(Project(project / "content", project / "out"), "pieces", check=False)
    printed = {
        c.id: max(c.width_pt, c.height_pt) / 72 for c in run.game.components if not isinstance(c, Board)
    }
    seen = set()
    for piece in objects(read(folder / "pieces-saved-object.json")):
        if piece["Name"] not in ("Custom_Tile", "Custom_Token"):
            continue
        states = [piece, *(piece.get("States") or {}).values()]
        for one in states:
            path = Path(unquote(urlparse(one["CustomImage"]["ImageURL"]).path))
            set_id = path.name.rsplit("-", 2)[0]
            with Image.open(path) as im:
                box = im.convert("RGBA").getchannel("A").getbbox()
                inside = max(box[2] - box[0], box[3] - box[1]) / max(im.size)
                if piece["Name"] == "Custom_Token":
                    assert clear_edges(im), path.name
            shown = one["Transform"]["scaleX"] * so.TILE_IN * inside
            assert shown == pytest.approx(printed[set_id], rel=0.01), path.name
            seen.add((piece["Name"], set_id))
    assert {s for _, s in seen} == {"hex", "tri", "squares", "coins"}

"""The Tabletop Simulator saved object and save: read back by a parser nobody here wrote (`tabletop-tools`,
PyPI) and by an independent check written from TTS's documentation (`tts_schema.py`); every component in it
with the rules checker's counts, every image it names written beside it, pieces cut to their outline."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
import tts_schema
from conftest import FIXTURES, ROOT, fast_once, run_cli
from PIL import Image

from pnpgen.checker import _Env
from pnpgen.exports import loaded
from pnpgen.exports import savedobject as so
from pnpgen.model import Board
from pnpgen.project import Project

GAMES = ("deity", "elements-of-the-gods", "orbis", "river", "seven-gods")


def export(project: Path, game: str, *extra) -> Path:
    result = run_cli("export", "tts", game, "--out", "out", *extra, cwd=project)
    assert result.exit_code == 0, result.output
    return project / "out" / game / "tts"


def fixture(tmp_path, name: str) -> Path:
    shutil.copytree(FIXTURES / name, tmp_path / "p")
    return tmp_path / "p"


def read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def round_trip(data: dict, folder: Path) -> None:
    """tabletop-tools unpacks the file into a folder per object (it needs every object's GUID and scripts), then
    packs it again: what comes back must be what went in."""
    from tts.config import Config
    from tts.repack import repack
    from tts.savegame import UnpackedSavegame
    from tts.unpack import unpack
    from tts.utils.formats import dump_json, parse_json

    folder.mkdir(parents=True)
    unpacked = UnpackedSavegame(folder, Config())
    unpack(savegame=parse_json(json.dumps(data)), unpacked_savegame=unpacked)
    again = json.loads(dump_json(repack(unpacked_savegame=unpacked)))
    again["Note"] = again["Note"].rstrip("\n")  # its note.txt ends in a newline
    assert again == data


def urls(obj) -> list[str]:
    """Every image URL anywhere in the file."""
    if isinstance(obj, list):
        return [u for v in obj for u in urls(v)]
    if not isinstance(obj, dict):
        return []
    found = []
    for key, value in obj.items():
        if key in ("FaceURL", "BackURL", "ImageURL", "ImageSecondaryURL") and value:
            found.append(value)
        else:
            found += urls(value)
    return found


def objects(obj) -> list[dict]:
    """Every object in the file, contained ones too, but not the cards inside a deck."""
    out = []
    for o in obj.get("ObjectStates", obj.get("ContainedObjects", [])):
        out.append(o)
        if o["Name"] == "Bag":
            out += objects(o)
    return out


def check_file(data: dict, folder: Path, tmp: Path) -> None:
    """Both parsers, and every URL a file written beside the JSON."""
    assert tts_schema.problems(data) == []
    round_trip(data, tmp)
    for url in urls(data):
        path = Path(unquote(urlparse(url).path))
        assert url.startswith("file:///") and path.parent == folder.resolve() and path.is_file(), url


def count_of(obj: dict) -> int:
    return len(obj["DeckIDs"]) if obj["Name"] == "DeckCustom" else 1


def check_game(project: Path, game: str, folder: Path, tmp: Path, players: int | None = None) -> None:
    """The saved object (and the save for `players`): both parsers, and each component with the checker's count:
    a deck's cards, a board's sides, a piece set's pieces (in the save: on the table, at the seats and unused)."""
    run, _ = loaded(Project(project / "content", project / "out"), game, check=False)
    env = _Env(run.game)
    names = [f"{game}-saved-object.json"] + ([f"{game}-save-{players}p.json"] if players else [])
    for n, name in enumerate(names):
        data = read(folder / name)
        check_file(data, folder, tmp / f"unpacked-{n}")
        everything = objects(data)
        for comp in run.game.components:
            counted = env.count(comp.id)  # what the rules checker counts
            if isinstance(comp, Board):
                found = [
                    o
                    for o in everything
                    if o["Name"] == "Custom_Board" and o["Nickname"].startswith(comp.name)
                ]
                assert len(found) == counted, comp.id
            elif comp.kind == "cards" and comp.faces == 1:  # a lone card
                assert [o for o in everything if o["Name"] == "Card" and o["Nickname"] == comp.cards[0].name]
            elif comp.kind == "cards":
                (deck,) = [o for o in everything if o["Name"] == "DeckCustom" and o["Nickname"] == comp.name]
                assert len(deck["DeckIDs"]) == counted, comp.id
            else:
                if comp.stand_in is not None:  # TTS's own pieces, one a printed piece
                    kind = so.STAND_INS[comp.stand_in[0]]
                    names_of = {c.name for c in comp.cards}
                    found = [
                        o
                        for o in everything
                        if o["Name"] == kind and o["Nickname"].split(": ")[-1] in names_of
                    ]
                    assert len(found) == counted, comp.id
                    continue
                mine = re.compile(re.escape(comp.id) + r"-[0-9]{3}-front\.png$")  # the set's own images
                pieces = [
                    o
                    for o in everything
                    if o["Name"] in ("Custom_Tile", "Custom_Token")
                    and mine.search(o["CustomImage"]["ImageURL"])
                ]
                assert len(pieces) == counted, comp.id


# ---------------------------------------------------------------------------------------------- fast: one a class


def test_saved_object_of_decks_passes_both_parsers_with_the_counts(tmp_path):
    project = fixture(tmp_path, "basic")
    folder = export(project, "sample")
    check_game(project, "sample", folder, tmp_path)
    (bag,) = read(folder / "sample-saved-object.json")["ObjectStates"]
    assert [len(o["DeckIDs"]) for o in bag["ContainedObjects"]] == [11, 20]
    assert bag["Nickname"] == "Sample Game" and bag["ContainedObjects"][0]["Name"] == "DeckCustom"


def test_pieces_and_save_pass_both_parsers_and_set_out_every_piece(tmp_path):
    project = fixture(tmp_path, "pieces")
    game = project / "content/pieces"
    text = (game / "game.yaml").read_text().replace("players: 2\n", "players: 2-4\n")
    (game / "game.yaml").write_text(text)
    (game / "facts.yaml").write_text(
        "document: test\nfacts:\n"
        "  - {id: h, section: Setup, says: eight hexes each and one more, component: hex, players: [2, 3, 4],\n"
        "     need: '8 * players + 1', have: \"count('hex')\"}\n"
        "  - {id: t, section: Setup, says: five triangles, component: tri, players: [2, 3, 4], need: '5',\n"
        "     have: \"count('tri')\"}\n"
    )
    folder = export(project, "pieces", "--save", "--players", "3")
    check_game(project, "pieces", folder, tmp_path, players=3)
    save = read(folder / "pieces-save-3p.json")
    top = {o["Nickname"]: o for o in save["ObjectStates"]}
    unused = top["Not used with 3 players"]["ContainedObjects"]
    seated = [o for o in save["ObjectStates"] if o["Nickname"].split(": ")[0] in ("White", "Red", "Yellow")]
    assert sorted({o["Nickname"].split(": ")[0] for o in seated}) == ["Red", "White", "Yellow"]
    assert len(seated) == 24 and {o["Nickname"].split(": ")[1] for o in seated} <= {"H1", "H2"}
    supply = [o for o in save["ObjectStates"] if o["Nickname"].startswith("Supply: ")]
    assert sorted(len(o["ContainedObjects"]) for o in supply) == [1, 5, 12, 30]  # hex, tri, squares, coins
    assert len([o for o in unused if o["Nickname"] in ("H1", "H2")]) == 35 - 25
    assert len([o for o in unused if o["Nickname"] in ("T1", "T2")]) == 17 - 5
    board = [o for o in save["ObjectStates"] if o["Name"] == "Custom_Board"]
    assert (
        len(board) == 1
        and board[0]["Locked"]
        and len([o for o in unused if o["Name"] == "Custom_Board"]) == 1
    )


@pytest.mark.parametrize("language", fast_once(["de", "en", "fr"]))
def test_the_saved_object_and_save_speak_the_game_s_language(tmp_path, language):
    """Every word `export tts` writes for players to read at the table (the game's bag, a deck's count, the
    save's name and note, the supply and unused bags) is the game's `language:`, a `words:` key over it."""
    from pnpgen.words import LANGUAGES

    words = LANGUAGES[language]
    (tmp_path / "b").mkdir()
    basic = fixture(tmp_path / "b", "basic")
    game = basic / "content/sample/game.yaml"
    game.write_text(game.read_text().replace("players: 2-4\n", f"players: 2-4\nlanguage: {language}\n"))
    (bag,) = read(export(basic, "sample") / "sample-saved-object.json")["ObjectStates"]
    assert bag["Description"] == words["tts_bag"].format(title="Sample Game")
    assert [o["Description"] for o in bag["ContainedObjects"]] == [
        words["n_cards"].format(n=n) for n in (11, 20)
    ]
    project = fixture(tmp_path, "pieces")
    game = project / "content/pieces/game.yaml"
    text = game.read_text().replace("players: 2\n", f"players: 2-4\nlanguage: {language}\n")
    game.write_text(text + "words: {tts_supply: 'Stock {name}'}\n")
    (project / "content/pieces/facts.yaml").write_text(
        "document: test\nfacts:\n  - {id: h, component: hex, players: [2, 3, 4], need: '8 * players + 1',\n"
        "     have: \"count('hex')\"}\n"
    )
    save = read(export(project, "pieces", "--save", "--players", "3") / "pieces-save-3p.json")
    named = {o["Nickname"] for o in save["ObjectStates"]}
    assert save["SaveName"] == save["GameMode"] == words["tts_save"].format(title="Pieces Test", players=3)
    assert save["Note"] == words["tts_note"].format(title="Pieces Test", players=3)
    assert words["tts_unused"].format(players=3) in named
    supply = {n for n in named if n.startswith("Stock ")}  # the game's own word over the language's
    assert supply and supply <= {"Stock Hex", "Stock Tri", "Stock Coins", "Stock Squares"}, named


def test_a_save_is_refused_for_a_player_count_the_game_does_not_take(tmp_path):
    project = fixture(tmp_path, "pieces")
    result = run_cli("export", "tts", "pieces", "--out", "out", "--save", "--players", "5", cwd=project)
    assert result.exit_code == 2 and "pieces is for 2 players" in result.output
    assert not (project / "out").exists()  # nothing written
    result = run_cli("export", "tts", "pieces", "--out", "out", "--players", "2", cwd=project)
    assert result.exit_code == 2 and "give --save too" in result.output


@pytest.mark.parametrize("shape", ["square", "rect", "hex", "hex-flat", "triangle", "circle"])
def test_every_shape_is_cut_out(shape):
    from pnpgen.exports import cut_out
    from pnpgen.shapes import bbox

    w, h = (round(v) for v in bbox(shape, (200.0, 140.0)))
    cut = cut_out(Image.new("RGB", (w, h), "#336699"), shape)
    assert cut.mode == "RGBA" and cut.size == (w, h)
    measure_cut(cut, shape)


def unframed(image: Image.Image) -> Image.Image:
    """A piece's exported image without the clear frame round a token's: the piece's own bounding box."""
    cut = image.convert("RGBA")
    return cut.crop(cut.getchannel("A").getbbox())


def measure_cut(image: Image.Image, shape: str) -> None:
    """Alpha 0 a few pixels outside the outline, 255 a few inside, along every edge and at the middle."""
    from pnpgen.shapes import outline

    w, h = image.size
    alpha = image.getchannel("A")
    points = outline(shape, w, h)
    d = 3
    if points is None:  # a circle
        probes_in = [(w / 2, h / 2), (w / 2, d + 1), (d + 1, h / 2)]
        probes_out = [(1, 1), (w - 2, h - 2), (w - 2, 1)]
    else:
        flipped = [(x, h - y) for x, y in points]
        cx, cy = sum(p[0] for p in flipped) / len(flipped), sum(p[1] for p in flipped) / len(flipped)
        probes_in, probes_out = [(cx, cy)], []
        for (x0, y0), (x1, y1) in zip(flipped, flipped[1:] + flipped[:1]):
            mx, my = (x0 + x1) / 2, (y0 + y1) / 2
            length = max(1e-9, ((cx - mx) ** 2 + (cy - my) ** 2) ** 0.5)
            ux, uy = (cx - mx) / length, (cy - my) / length
            probes_in.append((mx + ux * d, my + uy * d))
            out = (mx - ux * d, my - uy * d)
            if 0 <= out[0] < w and 0 <= out[1] < h:
                probes_out.append(out)
        if shape not in ("square", "rect"):
            assert probes_out, shape
    for x, y in probes_in:
        assert alpha.getpixel((int(x), int(y))) == 255, (shape, x, y)
    for x, y in probes_out:
        assert alpha.getpixel((int(x), int(y))) == 0, (shape, x, y)


def test_exported_pieces_are_cut_to_their_shape_and_show_their_back(tmp_path):
    project = fixture(tmp_path, "pieces")
    folder = export(project, "pieces")
    run, _ = loaded(Project(project / "content", project / "out"), "pieces", check=False)
    bag = read(folder / "pieces-saved-object.json")["ObjectStates"][0]
    for comp in run.game.components:
        if isinstance(comp, Board):
            with Image.open(folder / f"{comp.id}-front.png") as im:  # a board keeps its aspect
                assert abs(im.width / im.height - comp.width_pt / comp.height_pt) < 0.01
            continue
        for png in folder.glob(f"{comp.id}-*.png"):
            with Image.open(png) as im:
                measure_cut(unframed(im), comp.shape)
        (pieces,) = [o for o in bag["ContainedObjects"] if o["Nickname"] == comp.name]
        for piece in pieces["ContainedObjects"]:
            expected = "Custom_Tile" if comp.shape in ("square", "rect", "circle") else "Custom_Token"
            assert piece["Name"] == expected
            side = "back" if comp.back is not None else "front"
            assert tts_schema.underneath(piece).endswith(f"-{side}.png")  # the back shows when turned over


def test_a_lone_card_a_kept_aspect_and_stable_unique_keys():
    url = "file:///x/".__add__
    sheet = so.DeckSheet("a-sheet-1.png", "a-back.png", 2, 2, False)
    one = so.CardDeck("a", "Alone", 63.5, 88.9, [sheet], [("Only", "", 1, 0)])
    ids = so.Ids("g")
    card = so.deck_object(ids, one, url, so.transform(0, 0))
    assert (
        card["Name"] == "Card" and "DeckIDs" not in card and card["CardID"] // 100 == int(*card["CustomDeck"])
    )
    tall = so.PieceSet("t", "Boards", "tiles", "rect", 180.0, 120.0, [so.Piece("B", 2, "b.png", "c.png")])
    (first, second) = so.piece_objects(ids, tall, url, so.transform(0, 0))
    assert first["CustomImage"]["CustomTile"]["Stretch"] is False and first["GUID"] != second["GUID"]
    keys = {so.Ids("g").deck_key(f"d{i}/1") for i in range(3)}
    again = {so.Ids("g").deck_key(f"d{i}/1") for i in range(3)}
    assert keys == again and len(keys) == 3 and all(1000 <= k <= 99999 for k in keys)
    crowded = so.Ids("g")
    assert len({crowded.deck_key("same") for _ in range(50)}) == 50  # unique in one file, even for one seed
    assert len({crowded.guid("same") for _ in range(50)}) == 50


def test_the_same_content_exports_the_same_bytes(tmp_path):
    project = fixture(tmp_path, "basic")
    folder = export(project, "sample", "--save", "--players", "3")
    first = {p.name: p.read_bytes() for p in folder.iterdir()}
    export(project, "sample", "--save", "--players", "3")
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == first
    assert "sample-save-3p.json" in first and "sample-saved-object.json" in first


def test_url_base_names_the_uploaded_images(tmp_path):
    project = fixture(tmp_path, "basic")
    folder = export(project, "sample", "--url-base", "https://example.org/my%20game/")
    found = urls(read(folder / "sample-saved-object.json"))
    assert found and all(u.startswith("https://example.org/my%20game/") for u in found)
    assert all((folder / unquote(u.rsplit("/", 1)[1])).is_file() for u in found)


def test_the_schema_check_can_fail():
    """The independent check finds what TTS would not load: a missing GUID, two of one GUID, a key naming two
    sheets, a one-card deck."""
    url = "file:///x/".__add__
    sheet = so.DeckSheet("a.png", "b.png", 2, 2, False)
    deck = so.CardDeck("a", "A", 63.5, 88.9, [sheet], [("x", "", 1, 0), ("y", "", 1, 1)])
    good = so.save_state("t", [so.deck_object(so.Ids("g"), deck, url, so.transform(0, 0))])
    assert tts_schema.problems(good) == []
    no_guid = json.loads(json.dumps(good))
    del no_guid["ObjectStates"][0]["GUID"]
    twice = json.loads(json.dumps(good))
    twice["ObjectStates"][0]["ContainedObjects"][1]["GUID"] = twice["ObjectStates"][0]["GUID"]
    clash = json.loads(json.dumps(good))
    inner = clash["ObjectStates"][0]["ContainedObjects"][1]["CustomDeck"]
    inner[next(iter(inner))]["FaceURL"] = "file:///x/other.png"
    for bad, why in ((no_guid, "no 'GUID'"), (twice, "used twice"), (clash, "two different sheets")):
        assert any(why in p for p in tts_schema.problems(bad)), why


# ---------------------------------------------------------------------------------------------- slow: every game


@pytest.mark.slow
@pytest.mark.parametrize(
    "most, game",
    # every game at its most players; at its fewest (what goes in the bag of unused pieces), the two smallest: the
    # bag is one rule for every game, and an export renders the game's every image again (Seven Gods: 7 s)
    [pytest.param(True, g, id=f"most-{g}") for g in GAMES]
    + [pytest.param(False, g, id=f"fewest-{g}") for g in ("deity", "orbis")],
)
def test_every_shipped_game_exports_a_conforming_saved_object_and_save(tmp_path, game, most):
    project = tmp_path / "p"
    shutil.copytree(ROOT / "content", project / "content")
    shutil.copytree(ROOT / "layouts", project / "layouts")
    run, _ = loaded(Project(project / "content", project / "out"), game, check=False)
    players = run.game.players_max if most else run.game.players_min
    folder = export(project, game, "--save", "--players", players)
    check_game(project, game, folder, tmp_path, players=players)
    save = read(folder / f"{game}-save-{players}p.json")
    hands = tts_schema.hands(save)  # a hand zone a seat (TTS's seats), nothing on the table under one
    assert len(hands) == players
    on_table = [o for o in save["ObjectStates"] if o["Name"] != "HandTrigger"]
    assert not [
        o["Nickname"] for o in on_table for h in hands.values() if tts_schema.in_hand(o["Transform"], h)
    ]
    for deck in [o for o in save["ObjectStates"] if o["Name"] == "DeckCustom"]:
        assert deck["Transform"]["rotZ"] == 180.0  # face down
        assert deck["DeckIDs"] != sorted(deck["DeckIDs"]) or len(set(deck["DeckIDs"])) < 10  # shuffled
    for png in folder.glob("*.png"):
        with Image.open(png) as im:
            assert "dpi" in im.info, png.name
    for comp in run.game.components:  # every piece image cut to its outline; a tile stretched only if square
        if isinstance(comp, Board) or comp.kind == "cards":
            continue
        for png in folder.glob(f"{comp.id}-[0-9][0-9][0-9]-*.png"):
            with Image.open(png) as im:
                measure_cut(unframed(im), comp.shape)
    for tile in [o for o in objects(save) if o["Name"] == "Custom_Tile"]:
        with Image.open(Path(unquote(urlparse(tile["CustomImage"]["ImageURL"]).path))) as im:
            assert tile["CustomImage"]["CustomTile"]["Stretch"] == (abs(im.width - im.height) <= 1)


@pytest.mark.parametrize("piece", fast_once(["cube", "disc", "pawn"]))
def test_stand_ins_are_tts_own_pieces_in_their_colours_and_counts(tmp_path, piece):
    project = fixture(tmp_path, "pieces")
    coins = project / "content/pieces/tiles/coins.yaml"
    text = coins.read_text().replace(
        "front: piece-front\n", f"front: piece-front\nstand_in: {{piece: {piece}}}\n"
    )
    coins.write_text(text.replace("{name: C1, count: 30}", "{name: C1, count: 30, colour: '#336699'}"))
    folder = export(project, "pieces")
    check_game(project, "pieces", folder, tmp_path)
    (bag,) = read(folder / "pieces-saved-object.json")["ObjectStates"]
    (coin_bag,) = [o for o in bag["ContainedObjects"] if o["Nickname"] == "Coins"]
    found = coin_bag["ContainedObjects"]
    assert len(found) == 30 and {o["Name"] for o in found} == {so.STAND_INS[piece]}
    assert found[0]["ColorDiffuse"] == {"r": 0.2, "g": 0.4, "b": 0.6} and "CustomImage" not in found[0]


def test_a_stand_in_without_its_colour_is_refused_where_the_item_is(tmp_path):
    project = fixture(tmp_path, "pieces")
    coins = project / "content/pieces/tiles/coins.yaml"
    text = coins.read_text().replace("front: piece-front\n", "front: piece-front\nstand_in: {piece: cube}\n")
    coins.write_text(text.replace("{name: C1, count: 30}", "{name: C1, count: 30, colour: '#336699'}"))
    before = export(project, "pieces")
    saved = (before / "pieces-saved-object.json").read_bytes()
    coins.write_text(
        coins.read_text().replace("stand_in: {piece: cube}", "stand_in: {piece: cube, colour: side}")
    )
    result = run_cli("export", "tts", "pieces", "--out", "out", cwd=project)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "coins.yaml:8:5" in result.output and "'side' is missing" in result.output
    assert (before / "pieces-saved-object.json").read_bytes() == saved  # the last good export stays
    coins.write_text(
        coins.read_text().replace("stand_in: {piece: cube, colour: side}", "stand_in: {piece: brick}")
    )
    result = run_cli("export", "tts", "pieces", "--out", "out", cwd=project)
    assert result.exit_code == 1 and "coins.yaml:6" in result.output and "cube, disc, pawn" in result.output


def test_card_sheet_keys_differ_between_the_shipped_games():
    """Two saves loaded together must not share a CustomDeck key (TTS would show one deck's cards for the
    other's): every sheet of every deck of the five games gets its own."""
    seen: dict[int, str] = {}
    for game in GAMES:
        run, _ = loaded(Project(ROOT / "content", ROOT / "output"), game, check=False)
        ids = so.Ids(game)
        for deck in run.game.components:
            if isinstance(deck, Board) or deck.kind != "cards":
                continue
            sheets = [so.DeckSheet("f.png", "b.png", 10, 7, False)] * -(-deck.faces // 69)
            stub = so.CardDeck(deck.id, deck.name, 63.5, 88.9, sheets, [])
            for key, _ in so.custom_decks(ids, stub, str).values():
                assert key not in seen, (game, deck.id, seen.get(key))
                seen[key] = f"{game}/{deck.id}"
    assert len(seen) >= 15


def test_the_facts_give_each_seat_its_share(tmp_path):
    """checker.setup_needs evaluates the facts' `need` for N and its neighbours; a share per seat only where
    every count is p x players + c."""
    from pnpgen.checker import setup_needs
    from pnpgen.exports.table import per_seat

    project = fixture(tmp_path, "basic")
    run, _ = loaded(Project(project / "content", project / "out"), "sample", check=False)
    needs = setup_needs(run.game, run.reader, 3)
    assert needs["minis"] == {2: 10, 3: 15, 4: 20} and needs["heroes"] == {2: 10}
    assert per_seat(needs["minis"], 3) == (5, 0) and per_seat(needs["heroes"], 3) is None
    assert per_seat({2: 9, 3: 13}, 3) == (4, 1) and per_seat({2: 9, 3: 13}, 2) == (4, 1)
    assert per_seat({1: 58, 2: 58, 3: 80}, 2) is None  # not linear: all of it in the supply
    assert per_seat({2: 5, 3: 5}, 3) is None  # the same for every count: nobody's own


def test_tabletop_tools_fails_on_what_it_cannot_read(tmp_path):
    """The parser test can fail: an object without a GUID (what every object was before) stops tabletop-tools,
    and two objects with one GUID do not come back as they went in."""
    url = "file:///x/".__add__
    pieces = so.PieceSet("c", "Coins", "tokens", "circle", 20.0, 20.0, [so.Piece("C", 2, "c.png", None)])
    good = so.save_state("t", so.piece_objects(so.Ids("g"), pieces, url, so.transform(0, 0)))
    round_trip(good, tmp_path / "good")
    no_guid = json.loads(json.dumps(good))
    del no_guid["ObjectStates"][0]["GUID"]
    with pytest.raises(KeyError):
        round_trip(no_guid, tmp_path / "no-guid")
    twice = json.loads(json.dumps(good))
    twice["ObjectStates"][1]["GUID"] = twice["ObjectStates"][0]["GUID"]
    with pytest.raises(AssertionError):
        round_trip(twice, tmp_path / "twice")

"""`export tts`: Tabletop Simulator deck sheets (up to 10 x 7 cards, at most 4096 px a side, RGB) and the back
image, `OUT/<game>/tts/<deck>-*`, pieces and boards as images, and the whole game as one saved object
(`exports/savedobject.py`)."""

from __future__ import annotations

import json
import math
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import quote

from pnpgen.colours import ColourError, parse_colour
from pnpgen.errors import ContentError, Diagnostics, UsageProblem
from pnpgen.exports import (
    DeckExport,
    Exported,
    _png,
    _render_pages,
    _save,
    components_of,
    cut_out,
    loaded,
)
from pnpgen.exports import savedobject as tts
from pnpgen.model import Board
from pnpgen.pipeline.staging import Stage
from pnpgen.pipeline.target import Export, exported
from pnpgen.units import MM

TTS_MAX = 4096


TTS_COLS, TTS_ROWS = 10, 7


TTS_PER_SHEET = 69  # the 70th slot of a sheet is the hidden-card image


def tts_cell(card_w_pt: float, card_h_pt: float, cols: int, rows: int) -> tuple[int, int]:
    """Pixel size of one card so that the sheet stays within 4096 px a side."""
    w = math.floor(TTS_MAX / cols)
    h = math.floor(w * card_h_pt / card_w_pt)
    if h * rows > TTS_MAX:
        h = math.floor(TTS_MAX / rows)
        w = math.floor(h * card_w_pt / card_h_pt)
    return w, h


class TtsExport(DeckExport):
    """Tabletop Simulator deck sheets of one deck, its back image (or back sheets), and the numbers TTS asks."""

    kind = "tts"
    info: tts.CardDeck | None = None  # what the saved object needs, once written

    def write_all(self, folder: Path, w) -> list[str]:
        deck, cards, icons = self.deck, self.cards, w.icons
        slots = [i for i, c in enumerate(cards) for _ in range(c[2])]  # every printed card takes a slot
        cols = min(TTS_COLS, max(2, len(slots)))
        rows = min(TTS_ROWS, max(2, math.ceil(min(len(slots), TTS_PER_SHEET) / cols)))
        cw, ch = tts_cell(deck.width_pt, deck.height_pt, cols, rows)
        dpi = cw / (deck.width_pt / 72)
        fronts = list(_render_pages([c[0] for c in cards], 0.0, icons, dpi, deck, folder))
        backs_faces = [c[1] for c in cards]
        shared_back = None not in backs_faces and len(set(backs_faces)) == 1
        files, sheets = [], list[dict[str, Any]]()
        for s, chunk, sheet in _tiles(fronts, slots, cols, rows, cw, ch):
            files.append(_save(_png(sheet, dpi), folder, f"{deck.id}-sheet-{s}.png", deck.loc))
            sheets.append({"face": files[-1], "num_width": cols, "num_height": rows, "cards": len(chunk)})
        if backs_faces[0] is not None:
            if shared_back:
                back_img = next(_render_pages([backs_faces[0]], 0.0, icons, dpi, deck, folder))
                back_png = _png(back_img.resize((cw, ch)), dpi)
                files.append(_save(back_png, folder, f"{deck.id}-back.png", deck.loc))
                for sh in sheets:
                    sh["back"], sh["unique_backs"] = files[-1], False
            else:
                backs = list(_render_pages(backs_faces, 0.0, icons, dpi, deck, folder))
                for s, _, sheet in _tiles(backs, slots, cols, rows, cw, ch):
                    files.append(_save(_png(sheet, dpi), folder, f"{deck.id}-backs-{s}.png", deck.loc))
                    sheets[s - 1]["back"], sheets[s - 1]["unique_backs"] = files[-1], True
        if backs_faces[0] is None:  # TTS needs a back: a plain one
            from PIL import Image

            blank = Image.new("RGB", (cw, ch), "#d9d4c7")
            files.append(_save(_png(blank, dpi), folder, f"{deck.id}-back.png", deck.loc))
            for sh in sheets:
                sh["back"], sh["unique_backs"] = files[-1], False
        texts = [_text(card) for card in deck.cards]  # distinct() keeps the deck's order
        self.info = tts.CardDeck(
            deck.id,
            deck.name,
            round(deck.width_pt / MM, 2),
            round(deck.height_pt / MM, 2),
            [tts.DeckSheet(sh["face"], sh["back"], cols, rows, sh["unique_backs"]) for sh in sheets],
            [
                (cards[idx][3], texts[idx], pos // TTS_PER_SHEET + 1, pos % TTS_PER_SHEET)
                for pos, idx in enumerate(slots)
            ],
        )
        desc = dict(deck=deck.id, name=deck.name, cards=len(slots), card_px=[cw, ch], sheets=sheets)
        text = json.dumps(desc, indent=2) + "\n"
        files.append(
            _save(
                lambda p: p.write_text(text, encoding="utf-8", newline="\n"),
                folder,
                f"{deck.id}.json",
                deck.loc,
            )
        )
        return files


def _write_text(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8", newline="\n")  # LF on every system: the same bytes


def _tiles(images, slots, cols, rows, cw, ch):
    """TTS sheets: (number, the slots on it, the image), 69 card images a sheet in reading order."""
    from PIL import Image

    for s, start in enumerate(range(0, len(slots), TTS_PER_SHEET), 1):
        chunk = slots[start : start + TTS_PER_SHEET]
        sheet = Image.new("RGB", (cols * cw, rows * ch), "white")
        for k, idx in enumerate(chunk):
            r, c = divmod(k, cols)
            sheet.paste(images[idx].resize((cw, ch)), (c * cw, r * ch))
        yield s, chunk, sheet


def _text(card) -> str:
    """A card's or piece's description in TTS: its `text` field, when it has one."""
    text = card.fields.get("text")
    return text if isinstance(text, str) else ""


class TtsPieces(DeckExport):
    """A tile set or token sheet for Tabletop Simulator: one image per distinct front and back (at most 1024 px
    a side, a token's with a clear frame), transparent outside the piece's outline (`tts_picture`), for the
    saved object's tiles and tokens."""

    kind = "tts"
    info: tts.PieceSet | None = None
    palette: dict = {}

    def prepare(self, run, diags: Diagnostics) -> bool:
        self.palette = dict(run.game.palette)
        return super().prepare(run, diags)

    def write_all(self, folder: Path, w) -> list[str]:
        deck, cards = self.deck, self.cards
        dpi = min(300.0, 1024 / (max(deck.width_pt, deck.height_pt) / 72))
        files: list[str] = []
        named: dict = {}  # face -> file: a back shared by every piece is one image
        info = tts.PieceSet(
            deck.id, deck.name, deck.kind, deck.shape, deck.width_pt / MM, deck.height_pt / MM
        )

        def image(face, side: str, n: int) -> str:
            if face not in named:
                drawn = next(_render_pages([face], 0.0, w.icons, dpi, deck, folder))
                picture, info.frame = tts_picture(drawn, deck.shape)
                named[face] = _save(_png(picture, dpi), folder, f"{deck.id}-{n:03d}-{side}.png", deck.loc)
                files.append(named[face])
            return named[face]

        self.info = info
        if deck.stand_in is not None:
            self.info.stand_in = tts.STAND_INS[deck.stand_in[0]]
        for n, ((front, back, count, name), card) in enumerate(zip(cards, deck.cards), 1):
            front_image = image(front, "front", n)  # first: a back like the front is the front's image
            back_image = image(back, "back", n) if back else None
            colour = _stand_in_colour(deck, card, self.palette) if deck.stand_in else None
            self.info.pieces.append(tts.Piece(name, count, front_image, back_image, _text(card), colour))
        return files


def tts_picture(drawn, shape: str):
    """A piece's image as TTS takes it, and how much larger than the piece the image is: cut to its outline;
    a token's (TTS cuts its shape from the transparency) inside a clear frame of 2% a side at least 2 px, as
    the Knowledge Base's Custom Token page advises for a clean cut, where the outline met the image's edges."""
    from PIL import Image

    picture = cut_out(drawn, shape)
    if shape in tts.TILE_TYPES:  # a tile: TTS gives it the image's shape
        return picture, 1.0
    pad = max(2, round(max(picture.size) * 0.02))
    framed = Image.new("RGBA", (picture.width + 2 * pad, picture.height + 2 * pad), (0, 0, 0, 0))
    framed.paste(picture, (pad, pad))
    return framed, max(framed.size) / max(picture.size)


def _stand_in_colour(deck, card, palette: dict) -> dict:
    """The TTS colour (r, g, b from 0 to 1) of a stand-in piece, from the item field its `stand_in` names."""
    field = deck.stand_in[1]
    try:
        hex_colour = parse_colour(card.fields.get(field), palette, allow_none=False)
    except ColourError as exc:
        why = f"'{field}' is missing" if field not in card.fields else f"'{field}' {exc}"
        raise ContentError.at(card.loc, f"{card.name}: stand_in takes its colour from {why}") from None
    assert hex_colour is not None  # allow_none=False
    if hex_colour.startswith("cmyk"):
        raise ContentError.at(card.loc, f"{card.name}: a stand-in's colour must be RGB ('#rrggbb' or a name)")
    return {k: round(int(hex_colour[i : i + 2], 16) / 255, 4) for k, i in (("r", 1), ("g", 3), ("b", 5))}


class TtsBoard(Export):
    """Each side of a board as one image (at most 4096 px a side) for a custom board."""

    kind = "tts"

    def __init__(self, board: Board):
        super().__init__(board.id, board.loc)
        self.board = board
        self.drawn: Any = None  # BoardFaces, once prepared
        self.info: list = []

    def prepare(self, run, diags: Diagnostics) -> bool:
        self.drawn = run.painter.board(self.board, diags)
        return self.drawn is not None

    def write_all(self, folder: Path, w) -> list[str]:
        board, files = self.board, []
        dpi = min(150.0, 4096 / (max(board.width_pt, board.height_pt) / 72))
        pictures = _render_pages(self.drawn.faces, 0.0, w.icons, dpi, board, folder)
        width_mm, height_mm = board.width_pt / MM, board.height_pt / MM
        for side, picture in zip(board.sides, pictures):
            files.append(_save(_png(picture, dpi), folder, f"{board.id}-{side.id}.png", board.loc))
            name = f"{board.name}: {side.name or side.id}"
            self.info.append(tts.BoardSide(f"{board.id}/{side.id}", name, files[-1], width_mm, height_mm))
        return files


def export_tts(
    project,
    game_id: str,
    components: list[str],
    check: bool = True,
    url_base: str | None = None,
    players: int | None = None,
):
    """Deck sheets per card deck, images of tiles, tokens and boards, and one saved object of all of them:
    `OUT/<game>/tts/<game>-saved-object.json`; with `players`, also a save of the game set up for that many:
    `OUT/<game>/tts/<game>-save-<N>p.json`."""
    from pnpgen.exports.table import SEATS

    run, diags = loaded(project, game_id, check)
    game = run.game
    if players == 0:  # a save for the most players the game takes that TTS seats (one a player colour)
        players = min(game.players_max, max(len(SEATS), game.players_min))
    if players is not None and not game.players_min <= players <= game.players_max:
        raise UsageProblem(
            f"{game.id} is for {game.players} players ({game.at('players')}); "
            f"a save for {players} cannot be set up"
        )
    if players is not None and players > len(SEATS):  # TTS has a seat, a hand, for each of its colours
        raise UsageProblem(
            f"{game.id} is for {game.players} players ({game.at('players')}); "
            f"TTS seats at most {len(SEATS)}, one a player colour: a save for {players} cannot be set up"
        )
    wanted = components_of(run, components)
    final = project.out_dir(game_id) / "tts"
    base = url_base.rstrip("/") + "/" if url_base else final.resolve().as_uri() + "/"
    results, decks, sets, boards = [], [], [], []
    with Stage(final, project.out) as stage:
        every: list[str] = []
        for comp in wanted:
            if isinstance(comp, Board):
                board = TtsBoard(comp)
                files = exported(run, board, stage.dir, diags)
                boards += board.info
            elif comp.kind == "cards":
                cards = TtsExport(comp)
                files = exported(run, cards, stage.dir, diags)
                decks.append(cards.info)
            else:
                pieces = TtsPieces(comp)
                files = exported(run, pieces, stage.dir, diags)
                sets.append(pieces.info)
            every += files
            results.append(Exported(comp.id, files))

        def url(name: str) -> str:
            return base + quote(name)

        written = [
            (
                f"{game.id}-saved-object.json",
                tts.saved_object(game.id, game.title, decks, sets, boards, url, game.words),
            )
        ]
        if players is not None:
            from pnpgen.checker import setup_needs
            from pnpgen.exports.table import save

            needs = setup_needs(game, run.reader, players)
            whole = save(game.id, game.title, players, decks, sets, boards, needs, url, game.words)
            written.append((f"{game.id}-save-{players}p.json", whole))
        for name, data in written:
            text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
            every.append(_save(partial(_write_text, text=text), stage.dir, name, game.loc))
        stage.commit(every)
    results.append(Exported("saved object", [written[0][0]]))
    if players is not None:
        results.append(Exported("save", [written[1][0]]))
    return results, diags

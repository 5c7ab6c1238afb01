"""Exports: the faces pnpgen draws, rasterised with pdfium, for print-on-demand shops, Tabletop Simulator and a
quick look. Each is an output target like a build's: it loads and checks the game through the pipeline, draws
into a staging folder, and moves its files into place only when all of them were written.

- png: one image per distinct card face (and back), with the shops' 1/8 in bleed by default, numbered so an
  uploader keeps their order, and cards.csv with each card's count: `OUT/<game>/png/<deck>/`.
- tts: Tabletop Simulator deck sheets (up to 10 x 7 cards, at most 4096 px a side, RGB) and the back image:
  `OUT/<game>/tts/<deck>-*`.
- sheet: a contact sheet of the first page of every file the game builds: `OUT/<game>/<game>-contact-sheet.png`.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from pnpgen import tts
from pnpgen.errors import ContentError, Diagnostics, Location, UsageProblem, display_path
from pnpgen.model import Board, Deck
from pnpgen.names import file_name_problem
from pnpgen.pipeline.staging import Stage, refuse_link, staging_folder, swap_folders
from pnpgen.pipeline.target import Export, exported
from pnpgen.units import MM

SHOP_BLEED = 25.4 / 8 * MM  # 1/8 in, what print-on-demand shops ask for
TTS_MAX = 4096
TTS_COLS, TTS_ROWS = 10, 7
TTS_PER_SHEET = 69  # the 70th slot of a sheet is the hidden-card image
THUMB = 360  # px: the box a page fits in on a contact sheet
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


@dataclass
class Exported:
    component: str
    files: list


def loaded(project, game_id: str, check: bool = True):
    """A game loaded (and, unless told not to, checked) for an export; content errors are raised."""
    from pnpgen.pipeline.run import GameRun

    (root,) = project.select([game_id])
    run = GameRun(project, root)
    run.load()
    diags = Diagnostics()
    if check:
        run.check(diags)
    diags.raise_if_errors()
    return run, diags


def decks_of(run, components: list[str]) -> list[Deck]:
    game = run.game
    wanted = components or [c.id for c in game.components if isinstance(c, Deck)]
    for cid in wanted:
        comp = game.component(cid)
        if comp is None:
            ids = ", ".join(c.id for c in game.components)
            raise UsageProblem(f"no component '{cid}' in {game.id} (components: {ids})")
        if not isinstance(comp, Deck):
            raise UsageProblem(
                f"'{cid}' is a board: its full-size PDF (<id>-full.pdf) is the file for a print shop"
            )
    return [game.component(c) for c in wanted]


class DeckExport(Export):
    """An export of a deck's distinct faces (`cards`: front, back, count, name), drawn with `bleed_pt`."""

    bleed_pt = 0.0

    def __init__(self, deck: Deck):
        super().__init__(deck.id, deck.loc)
        self.deck, self.cards = deck, []

    def prepare(self, run, diags: Diagnostics) -> bool:
        drawn = run.painter.deck(self.deck, diags, bleed_pt=self.bleed_pt)
        self.cards = drawn.distinct() if drawn is not None else []
        return drawn is not None


def _save(write: Callable[[Path], object], folder: Path, name: str, loc: Location) -> str:
    """Write one file of an export with `write(path)`; a failure (a full disk) is a message naming the file, at
    the component it was made for. Returns `name`."""
    from pnpgen.pipeline.jobs import plain_error

    why = file_name_problem(name)
    if why is not None:  # the names every system can hold: a game that exports on one exports on all
        raise ContentError.at(loc, f"could not write {name}: {why}")
    try:
        write(folder / name)
    except OSError as exc:
        raise ContentError.at(loc, f"could not write {name}: {plain_error(exc)}") from None
    return name


def _png(image) -> Callable[[Path], object]:
    return lambda path: image.save(path, compress_level=1)


def _render_pages(faces, bleed_pt, icons, dpi: float, deck: Deck | Board, scratch: Path):
    """Rasterise faces through a PDF drawn by pnpgen; yields PIL images (RGB)."""
    import pypdfium2 as pdfium

    from pnpgen.render.pdf import write_face_pages

    pdf_path = scratch / "faces.pdf"
    try:
        write_face_pages(pdf_path, faces, bleed_pt, icons, deck.name)
    except Exception as exc:  # what shows only while drawing the pages (damaged art, a full disk...)
        from pnpgen.pipeline.jobs import plain_error

        raise ContentError.at(deck.loc, f"could not write the PNG images: {plain_error(exc)}") from None
    doc = pdfium.PdfDocument(str(pdf_path))
    try:
        first = faces[0]
        w_px = round((first.width_pt + 2 * bleed_pt) / 72 * dpi)
        h_px = round((first.height_pt + 2 * bleed_pt) / 72 * dpi)
        for i in range(len(doc)):
            page = doc[i]
            image = page.render(scale=dpi / 72).to_pil().convert("RGB")
            if image.size != (w_px, h_px):
                image = image.resize((w_px, h_px))
            page.close()
            yield image
    finally:
        doc.close()
        pdf_path.unlink()


def spreadsheet_safe(text: str) -> str:
    """A cell a spreadsheet will not read as a formula."""
    return "'" + text if text.startswith(_FORMULA) else text


class PngExport(DeckExport):
    """One PNG per distinct face and back of a deck, numbered in deck order, with cards.csv of the counts."""

    kind = "png"

    def __init__(self, deck: Deck, dpi: int, bleed: bool):
        super().__init__(deck)
        self.dpi, self.bleed_pt = dpi, SHOP_BLEED if bleed else 0.0

    def write_all(self, folder: Path, w) -> list[str]:
        deck, cards, b = self.deck, self.cards, self.bleed_pt
        width = max(3, len(str(len(cards))))
        backs = [c[1] for c in cards if c[1] is not None]
        shared_back = len(set(backs)) == 1 and len(backs) == len(cards)

        def back_name(n: int) -> str:
            return f"{deck.id}-back.png" if shared_back else f"{deck.id}-{n:0{width}d}-back.png"

        files = []
        fronts = [c[0] for c in cards]
        for n, image in enumerate(_render_pages(fronts, b, w.icons, self.dpi, deck, folder), 1):
            files.append(_save(_png(image), folder, f"{deck.id}-{n:0{width}d}-front.png", deck.loc))
        if backs:
            back_faces = [backs[0]] if shared_back else [c[1] for c in cards]
            for n, image in enumerate(_render_pages(back_faces, b, w.icons, self.dpi, deck, folder), 1):
                files.append(_save(_png(image), folder, back_name(n), deck.loc))

        def counts(path: Path) -> None:
            with open(path, "w", newline="", encoding="utf-8") as fh:
                out = csv.writer(fh)
                out.writerow(["front", "back", "count", "name"])
                for n, (_front, back, count, name) in enumerate(cards, 1):
                    front_name = f"{deck.id}-{n:0{width}d}-front.png"
                    out.writerow(
                        [front_name, back_name(n) if back is not None else "", count, spreadsheet_safe(name)]
                    )

        return [*files, _save(counts, folder, "cards.csv", deck.loc)]


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
        files, sheets = [], []
        for s, chunk, sheet in _tiles(fronts, slots, cols, rows, cw, ch):
            files.append(_save(_png(sheet), folder, f"{deck.id}-sheet-{s}.png", deck.loc))
            sheets.append({"face": files[-1], "num_width": cols, "num_height": rows, "cards": len(chunk)})
        if backs_faces[0] is not None:
            if shared_back:
                back_img = next(_render_pages([backs_faces[0]], 0.0, icons, dpi, deck, folder))
                files.append(_save(_png(back_img.resize((cw, ch))), folder, f"{deck.id}-back.png", deck.loc))
                for sh in sheets:
                    sh["back"], sh["unique_backs"] = files[-1], False
            else:
                backs = list(_render_pages(backs_faces, 0.0, icons, dpi, deck, folder))
                for s, _, sheet in _tiles(backs, slots, cols, rows, cw, ch):
                    files.append(_save(_png(sheet), folder, f"{deck.id}-backs-{s}.png", deck.loc))
                    sheets[s - 1]["back"], sheets[s - 1]["unique_backs"] = files[-1], True
        if backs_faces[0] is None:  # TTS needs a back: a plain one
            from PIL import Image

            blank = Image.new("RGB", (cw, ch), "#d9d4c7")
            files.append(_save(_png(blank), folder, f"{deck.id}-back.png", deck.loc))
            for sh in sheets:
                sh["back"], sh["unique_backs"] = files[-1], False
        self.info = tts.CardDeck(
            deck.name,
            round(deck.width_pt / MM, 2),
            [tts.DeckSheet(sh["face"], sh["back"], cols, rows, sh["unique_backs"]) for sh in sheets],
            [(cards[idx][3], pos // TTS_PER_SHEET + 1, pos % TTS_PER_SHEET) for pos, idx in enumerate(slots)],
        )
        desc = dict(deck=deck.id, name=deck.name, cards=len(slots), card_px=[cw, ch], sheets=sheets)
        text = json.dumps(desc, indent=2) + "\n"
        files.append(
            _save(lambda p: p.write_text(text, encoding="utf-8"), folder, f"{deck.id}.json", deck.loc)
        )
        return files


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


def export_png(project, game_id: str, components: list[str], dpi: int, bleed: bool, check: bool = True):
    run, diags = loaded(project, game_id, check)
    results, swaps = [], []
    try:
        for deck in decks_of(run, components):
            final = project.out_dir(game_id) / "png" / deck.id
            refuse_link(final, project.out)  # before a staging folder is made beside it
            folder = staging_folder(final)
            swaps.append((folder, final))
            files = exported(run, PngExport(deck, dpi, bleed), folder, diags)
            results.append(Exported(deck.id, files))
        swap_folders(swaps, project.out)  # each deck's folder holds this export, old or new; all or none
    finally:
        for folder, _ in swaps:
            if folder.exists():
                _discard(folder)
    return results, diags


class TtsPieces(DeckExport):
    """A tile set or token sheet for Tabletop Simulator: one image per distinct front and back (at most 1024 px
    a side), for the saved object's custom tiles and tokens."""

    kind = "tts"
    info: tts.PieceSet | None = None

    def write_all(self, folder: Path, w) -> list[str]:
        deck, cards = self.deck, self.cards
        dpi = min(300.0, 1024 / (max(deck.width_pt, deck.height_pt) / 72))
        files: list[str] = []
        named: dict = {}  # face -> file: a back shared by every piece is one image

        def image(face, side: str, n: int) -> str:
            if face not in named:
                picture = next(_render_pages([face], 0.0, w.icons, dpi, deck, folder))
                named[face] = _save(_png(picture), folder, f"{deck.id}-{n:03d}-{side}.png", deck.loc)
                files.append(named[face])
            return named[face]

        self.info = tts.PieceSet(deck.name, deck.kind, deck.shape, deck.width_pt / MM, deck.height_pt / MM)
        for n, (front, back, count, name) in enumerate(cards, 1):
            self.info.pieces.append(
                tts.Piece(name, count, image(front, "front", n), image(back, "back", n) if back else None)
            )
        return files


class TtsBoard(Export):
    """Each side of a board as one image (at most 4096 px a side) for a custom board."""

    kind = "tts"

    def __init__(self, board: Board):
        super().__init__(board.id, board.loc)
        self.board, self.drawn = board, None
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
            files.append(_save(_png(picture), folder, f"{board.id}-{side.id}.png", board.loc))
            name = f"{board.name}: {side.name or side.id}"
            self.info.append(tts.BoardSide(name, files[-1], width_mm, height_mm))
        return files


def export_tts(project, game_id: str, components: list[str], check: bool = True, url_base: str | None = None):
    """Deck sheets per card deck (as before), images of tiles, tokens and boards, and one saved object of all
    of them: `OUT/<game>/tts/<game>-saved-object.json`."""
    run, diags = loaded(project, game_id, check)
    game = run.game
    wanted = [game.component(c) for c in components] if components else list(game.components)
    for cid, comp in zip(components, wanted):
        if comp is None:
            ids = ", ".join(c.id for c in game.components)
            raise UsageProblem(f"no component '{cid}' in {game.id} (components: {ids})")
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
        saved = tts.saved_object(game.title, decks, sets, boards, lambda name: base + quote(name))
        text = json.dumps(saved, indent=2, ensure_ascii=False) + "\n"
        name = f"{game.id}-saved-object.json"
        every.append(_save(lambda p: p.write_text(text, encoding="utf-8"), stage.dir, name, game.loc))
        stage.commit(every)
    results.append(Exported("saved object", [name]))
    return results, diags


def export_sheet(project, game_id: str, check: bool = True) -> Path:
    """Build the game (it must be up to date to be pictured), then one PNG of the first page of every file."""
    from pnpgen import pipeline

    (root,) = project.select([game_id])
    result = pipeline.build_game(project, root, check=check)
    if not result.ok:
        raise ContentError(result.diagnostics)
    pdfs = [result.out_dir / f["path"] for f in result.files]
    name = f"{game_id}-contact-sheet.png"
    with Stage(result.out_dir, project.out) as stage:
        where = Location(display_path(result.out_dir / name))
        _save(lambda path: contact_sheet(pdfs, path), stage.dir, name, where)
        stage.commit([name])
    return result.out_dir / name


def contact_sheet(pdfs: list[Path], target: Path) -> None:
    """One PNG with the first page of each PDF, captioned, in a grid."""
    import pypdfium2 as pdfium
    from PIL import Image, ImageDraw

    thumbs = []
    for path in pdfs:
        doc = pdfium.PdfDocument(str(path))
        try:
            page = doc[0]
            w_pt, h_pt = page.get_size()
            scale = min(THUMB / w_pt, THUMB / h_pt)  # every page fits the same box, whatever its size
            img = page.render(scale=scale).to_pil().convert("RGB")
            page.close()
        finally:
            doc.close()
        thumbs.append((path.stem, img))
    cols = min(4, max(1, len(thumbs)))
    cell_w = max(t[1].width for t in thumbs) + 20
    cell_h = max(t[1].height for t in thumbs) + 40
    rows = math.ceil(len(thumbs) / cols)
    sheet = Image.new("RGB", (cols * cell_w, rows * cell_h), "#e8e4dc")
    draw = ImageDraw.Draw(sheet)
    for i, (name, img) in enumerate(thumbs):
        r, c = divmod(i, cols)
        x, y = c * cell_w + 10, r * cell_h + 10
        sheet.paste(img, (x, y))
        draw.text((x, y + img.height + 6), name, fill="#222222")
    sheet.save(target, compress_level=1)


def _discard(folder: Path) -> None:
    import shutil

    shutil.rmtree(folder, ignore_errors=True)

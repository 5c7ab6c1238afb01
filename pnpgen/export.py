"""Exports: the PDFs pnpgen draws, rasterised with pdfium, for print-on-demand shops, Tabletop Simulator and a
quick look.

- png: one image per distinct card face (and back), with the shops' 1/8 in bleed by default, numbered so an
  uploader keeps their order, and cards.csv with each card's count.
- tts: Tabletop Simulator deck sheets (up to 10 x 7 cards, at most 4096 px a side, RGB) and the back image.
- sheet: a contact sheet of the first page of every component the game builds.
"""

from __future__ import annotations

import csv
import dataclasses
import math
import tempfile
from dataclasses import dataclass
from pathlib import Path

from pnpgen.build import PreparedDeck, game_roots, load_game_icons, prepare_deck
from pnpgen.errors import ContentError, Diagnostics
from pnpgen.layout.spec import LayoutLibrary
from pnpgen.schema import load_game
from pnpgen.templating import Compiler
from pnpgen.units import MM

SHOP_BLEED = 25.4 / 8 * MM  # 1/8 in, what print-on-demand shops ask for
TTS_MAX = 4096
TTS_COLS, TTS_ROWS = 10, 7
TTS_PER_SHEET = 69  # the 70th slot of a sheet is the hidden-card image
THUMB = 360  # px: the box a page fits in on a contact sheet


@dataclass
class _Prepared:
    game: object
    icons: dict


@dataclass
class Exported:
    component: str
    files: list


def _decks(content: Path, game_id: str, components: list[str], bleed_pt: float | None, diags: Diagnostics):
    """Prepare the named decks (all when none) of a game, faces drawn with `bleed_pt` when given."""
    (root,) = game_roots(content, [game_id])
    game = load_game(root)
    icons = load_game_icons(game, diags)
    if diags.errors:
        raise ContentError(diags)
    from pnpgen.model import Deck

    wanted = components or [c.id for c in game.components if isinstance(c, Deck)]
    unknown = [c for c in wanted if game.component(c) is None]
    if unknown:
        raise LookupError(
            f"no component '{unknown[0]}' in {game_id} (components: "
            f"{', '.join(c.id for c in game.components)})"
        )
    boards = [c for c in wanted if not isinstance(game.component(c), Deck)]
    if boards:
        raise LookupError(
            f"'{boards[0]}' is a board: its full-size PDF (<id>-full.pdf) is the file for a print shop"
        )
    library = LayoutLibrary([root / "layouts", content.resolve().parent / "layouts"], Compiler())
    out = []
    for cid in wanted:
        deck = game.component(cid)
        if bleed_pt is not None:
            deck = dataclasses.replace(deck, bleed_pt=bleed_pt)
        pd = prepare_deck(game, deck, library, icons, "a4", diags)
        if pd is None:
            raise ContentError(diags)
        out.append(pd)
    return _Prepared(game, icons), out


def _distinct(pd: PreparedDeck):
    """Each card once, with its count: (front, back, count, name)."""
    out, i = [], 0
    for card in pd.deck.cards:
        front, back = pd.faces[i]
        out.append((front, back, card.count, card.name))
        i += card.count
    return out


def _render_pages(faces, bleed_pt, icons, dpi: float, title: str):
    """Rasterise faces through a PDF drawn by pnpgen; yields PIL images (RGB)."""
    import pypdfium2 as pdfium

    from pnpgen.render.pdf import write_face_pages

    with tempfile.TemporaryDirectory() as tmp:
        pdf_path = Path(tmp) / "faces.pdf"
        write_face_pages(pdf_path, faces, bleed_pt, icons, title)
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


def export_png(
    content: Path, out: Path, game_id: str, components: list[str], dpi: int, bleed: bool, diags: Diagnostics
) -> list[Exported]:
    prepared, decks = _decks(content, game_id, components, SHOP_BLEED if bleed else 0.0, diags)
    results = []
    for pd in decks:
        folder = out / game_id / "png" / pd.deck.id
        folder.mkdir(parents=True, exist_ok=True)
        cards = _distinct(pd)
        b = pd.deck.bleed_pt
        fronts = [c[0] for c in cards]
        backs = [c[1] for c in cards if c[1] is not None]
        shared_back = len(set(backs)) == 1 and len(backs) == len(cards)
        files = []
        width = len(str(len(cards)))
        for n, image in enumerate(_render_pages(fronts, b, prepared.icons, dpi, pd.deck.name), 1):
            name = f"{pd.deck.id}-{n:0{max(3, width)}d}-front.png"
            image.save(folder / name, compress_level=1)
            files.append(name)
        if backs:
            back_faces = [backs[0]] if shared_back else [c[1] for c in cards]
            for n, image in enumerate(_render_pages(back_faces, b, prepared.icons, dpi, pd.deck.name), 1):
                name = (
                    f"{pd.deck.id}-back.png"
                    if shared_back
                    else f"{pd.deck.id}-{n:0{max(3, width)}d}-back.png"
                )
                image.save(folder / name, compress_level=1)
                files.append(name)
        with open(folder / "cards.csv", "w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow(["front", "back", "count", "name"])
            for n, (_front, back, count, name) in enumerate(cards, 1):
                back_name = (
                    (
                        f"{pd.deck.id}-back.png"
                        if shared_back
                        else f"{pd.deck.id}-{n:0{max(3, width)}d}-back.png"
                    )
                    if back is not None
                    else ""
                )
                w.writerow([f"{pd.deck.id}-{n:0{max(3, width)}d}-front.png", back_name, count, name])
        results.append(Exported(pd.deck.id, files + ["cards.csv"]))
    return results


def tts_cell(card_w_pt: float, card_h_pt: float, cols: int, rows: int) -> tuple[int, int]:
    """Pixel size of one card so that the sheet stays within 4096 px a side."""
    w = math.floor(TTS_MAX / cols)
    h = math.floor(w * card_h_pt / card_w_pt)
    if h * rows > TTS_MAX:
        h = math.floor(TTS_MAX / rows)
        w = math.floor(h * card_w_pt / card_h_pt)
    return w, h


def export_tts(
    content: Path, out: Path, game_id: str, components: list[str], diags: Diagnostics
) -> list[Exported]:
    import json

    prepared, decks = _decks(content, game_id, components, 0.0, diags)
    results = []
    for pd in decks:
        folder = out / game_id / "tts"
        folder.mkdir(parents=True, exist_ok=True)
        cards = _distinct(pd)
        slots = [i for i, c in enumerate(cards) for _ in range(c[2])]  # every printed card takes a slot
        cols = min(TTS_COLS, max(2, len(slots)))
        rows = min(TTS_ROWS, max(2, math.ceil(min(len(slots), TTS_PER_SHEET) / cols)))
        cw, ch = tts_cell(pd.deck.width_pt, pd.deck.height_pt, cols, rows)
        dpi = cw / (pd.deck.width_pt / 72)
        fronts = list(_render_pages([c[0] for c in cards], 0.0, prepared.icons, dpi, pd.deck.name))
        backs_faces = [c[1] for c in cards]
        shared_back = None not in backs_faces and len(set(backs_faces)) == 1
        files, sheets = [], []
        for s, chunk, sheet in _tiles(fronts, slots, cols, rows, cw, ch):
            name = f"{pd.deck.id}-sheet-{s}.png"
            sheet.save(folder / name, compress_level=1)
            files.append(name)
            sheets.append({"face": name, "num_width": cols, "num_height": rows, "cards": len(chunk)})
        if backs_faces[0] is not None:
            back_img = next(_render_pages([backs_faces[0]], 0.0, prepared.icons, dpi, pd.deck.name))
            if shared_back:
                name = f"{pd.deck.id}-back.png"
                back_img.resize((cw, ch)).save(folder / name, compress_level=1)
                files.append(name)
                for sh in sheets:
                    sh["back"] = name
                    sh["unique_backs"] = False
            else:
                backs = list(_render_pages(backs_faces, 0.0, prepared.icons, dpi, pd.deck.name))
                for s, _, sheet in _tiles(backs, slots, cols, rows, cw, ch):
                    name = f"{pd.deck.id}-backs-{s}.png"
                    sheet.save(folder / name, compress_level=1)
                    files.append(name)
                    sheets[s - 1]["back"] = name
                    sheets[s - 1]["unique_backs"] = True
        desc = {
            "deck": pd.deck.id,
            "name": pd.deck.name,
            "cards": len(slots),
            "card_px": [cw, ch],
            "sheets": sheets,
        }
        (folder / f"{pd.deck.id}.json").write_text(json.dumps(desc, indent=2) + "\n", encoding="utf-8")
        files.append(f"{pd.deck.id}.json")
        results.append(Exported(pd.deck.id, files))
    return results


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


def export_sheet(out: Path, game_id: str, pdfs: list[Path]) -> Path:
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
    target = out / game_id / f"{game_id}-contact-sheet.png"
    target.parent.mkdir(parents=True, exist_ok=True)
    sheet.save(target, compress_level=1)
    return target

"""Exports: the faces pnpgen draws, rasterised with pdfium, for print-on-demand shops, Tabletop Simulator and a
quick look. Each is an output target like a build's: it loads and checks the game through the pipeline, draws
into a staging folder, and moves its files into place only when all of them were written.

- png (`exports/png.py`): one image per distinct card face (and back), with the shops' 1/8 in bleed by
  default, numbered so an uploader keeps their order, and cards.csv with each card's count:
  `OUT/<game>/png/<deck>/`.
- tts (`exports/tts.py`; the saved object as data: `exports/savedobject.py`; a save set out for N players:
  `exports/table.py`): Tabletop Simulator deck sheets (up to 10 x 7 cards, at most 4096 px a side, RGB), the
  back image, pieces cut to their outline and boards: `OUT/<game>/tts/<deck>-*`.
- sheet (`exports/sheet.py`): a contact sheet of the first page of every file the game builds:
  `OUT/<game>/<game>-contact-sheet.png`.

This module holds what they share: loading a game, a deck's distinct faces, saving one file, rasterising faces
through a PDF drawn by pnpgen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pnpgen.errors import ContentError, Diagnostics, Location, UsageProblem
from pnpgen.model import Board, Deck
from pnpgen.names import file_name_problem
from pnpgen.pipeline.target import Export
from pnpgen.units import MM

SHOP_BLEED = 25.4 / 8 * MM  # 1/8 in, what print-on-demand shops ask for
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


def components_of(run, components: list[str]) -> list:
    """The named components (all when none), or a usage error naming the game's components."""
    game, components = run.game, list(dict.fromkeys(components))  # one named twice is exported once
    wanted = [game.component(c) for c in components] if components else list(game.components)
    for cid, comp in zip(components, wanted):
        if comp is None:
            ids = ", ".join(c.id for c in game.components)
            raise UsageProblem(f"no component '{cid}' in {game.id} (components: {ids})")
    return wanted


def decks_of(run, components: list[str]) -> list[Deck]:
    game = run.game
    wanted = list(dict.fromkeys(components)) or [c.id for c in game.components if isinstance(c, Deck)]
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
        self.deck, self.cards = deck, list[tuple]()

    def prepare(self, run, diags: Diagnostics) -> bool:
        drawn = run.painter.deck(self.deck, diags, bleed_pt=self.bleed_pt)
        self.cards = drawn.distinct() if drawn is not None else []
        return drawn is not None


class Folders:
    """An export command's folders, all or none, the same for every export: `stage(final)` refuses a link and
    gives a staging folder beside `final`; `commit()` puts every staged folder in place together
    (`staging.swap_folders`, with `then` last); leaving the `with` block discards whatever was not put in place,
    so a failure anywhere leaves every old folder as it was."""

    def __init__(self, top: Path):
        self.top, self.pairs = top, list[tuple[Path, Path]]()

    def __enter__(self) -> Folders:
        return self

    def __exit__(self, *exc: object) -> None:
        for folder, _ in self.pairs:
            if folder.exists():
                _discard(folder)

    def stage(self, final: Path) -> Path:
        from pnpgen.pipeline.staging import refuse_link, staging_folder

        refuse_link(final, self.top)  # before a staging folder is made beside it
        folder = staging_folder(final)
        self.pairs.append((folder, final))
        return folder

    def commit(self, then: Callable[[], object] | None = None) -> None:
        from pnpgen.pipeline.staging import swap_folders

        swap_folders(self.pairs, self.top, then)


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


def _png(image, dpi: float) -> Callable[[Path], object]:
    """Write `image` as a PNG that says its resolution (pHYs), so a print shop or an editor sizes it right."""
    return lambda path: image.save(path, dpi=(dpi, dpi), compress_level=1)


def cut_out(image, shape: str):
    """The image (RGB, the piece's bounding box) as RGBA with alpha 0 outside the piece's outline and 255
    inside, antialiased along it: what TTS cuts a token's shape from. Drawn 4 times larger, then reduced."""
    from PIL import Image, ImageDraw

    from pnpgen.shapes import outline

    w, h = image.size
    k = 4
    mask = Image.new("L", (w * k, h * k), 0)
    draw = ImageDraw.Draw(mask)
    points = outline(shape, w * k, h * k)
    if points is None:  # a circle
        draw.ellipse((0, 0, w * k - 1, h * k - 1), fill=255)
    else:  # y up in shapes.py: flipped into the image's rows
        draw.polygon([(x, h * k - y) for x, y in points], fill=255)
    cut = image.convert("RGBA")
    cut.putalpha(mask.resize((w, h), Image.Resampling.BOX))
    return cut


def _render_pages(faces, bleed_pt, icons, dpi: float, deck: Deck | Board, scratch: Path):
    """Rasterise faces through a PDF drawn by pnpgen; yields PIL images (RGB)."""
    import pypdfium2 as pdfium

    from pnpgen.bounds import Refused, pdfs
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
            try:  # bounded before pdfium allocates the page's bitmap
                pdfs.check_render(page, dpi / 72, i)
            except Refused as exc:
                raise ContentError.at(
                    deck.loc, f"the PNG images cannot be drawn: the faces' PDF {exc.message}"
                ) from None
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


def _discard(folder: Path) -> None:
    import shutil

    shutil.rmtree(folder, ignore_errors=True)

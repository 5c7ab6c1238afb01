"""The PDF/X targets' files: one piece per page with the target's bleed, separated to CMYK, PDF/X-1a:2003.

- dtc: per card deck `<deck>-fronts.pdf` (every printed card, copies repeated, in deck order) and
  `<deck>-backs.pdf` (one page when every card shares its back, else one per card in the same order).
- pdfx: the same for every deck, tile set and token sheet, and `<board>.pdf` with each side of a board a page.
- factory: card decks and boards as for pdfx; tile sets and token sheets on punchboard sheets
  (`pnpgen.shop.punchboard`): `<deck>-punchboard-fronts.pdf`, `<deck>-punchboard-backs.pdf` (mirrored, for the
  other side of the board) with the die lines in the overprinting spot colour `die-cut`, and `<deck>-die.pdf`,
  the die lines alone.
Every file is checked (`pdfx.problems`) before any moves into `OUT/<game>/shop/<target>/`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pnpgen.errors import ContentError, Diagnostics
from pnpgen.exports import Exported
from pnpgen.model import Board, Deck
from pnpgen.names import file_name_problem
from pnpgen.pipeline.jobs import plain_error
from pnpgen.pipeline.outputs import rulebook_inputs
from pnpgen.pipeline.staging import Stage
from pnpgen.pipeline.target import Export, exported
from pnpgen.shop.targets import ShopTarget

if TYPE_CHECKING:
    from pnpgen.pipeline.faces import BoardFaces, DeckFaces


def _write(
    stage_dir: Path,
    name: str,
    faces: list,
    bleed_pt: float,
    w,
    target: ShopTarget,
    title: str,
    loc,
    draw=None,
):
    """Draw (one face a page, or with `draw(path)`), separate, make PDF/X and check one file."""
    from pnpgen.render.pdf import write_face_pages
    from pnpgen.shop.pdfx import make_pdfx, problems
    from pnpgen.shop.separate import SeparationError

    why = file_name_problem(name)
    if why is not None:  # the names every system can hold
        raise ContentError.at(loc, f"could not write {name}: {why}")
    _boxes_hold(name, faces, bleed_pt, loc)
    scratch = stage_dir / f".{name}.rgb"
    try:
        if draw is not None:
            draw(scratch)
        else:
            write_face_pages(scratch, faces, bleed_pt, w.icons, title)
        make_pdfx(scratch, stage_dir / name, target, title, bleed_pt)
    except SeparationError as exc:
        raise ContentError.at(loc, f"{name} cannot be made PDF/X-1a: {exc}") from None
    except ContentError:
        raise
    except Exception as exc:  # what shows only while drawing or saving: damaged art, a full disk
        raise ContentError.at(loc, f"could not write {name}: {plain_error(exc)}") from None
    finally:
        if scratch.exists():
            scratch.unlink()
    wrong = problems(stage_dir / name)
    if wrong:
        raise ContentError.at(loc, f"{name} would be refused as PDF/X-1a: {'; '.join(wrong)}")
    return name


def _boxes_hold(name: str, faces: list, bleed_pt: float, loc) -> None:
    """The boxes `make_pdfx` writes say each page is its piece's trim with `bleed_pt` all round: refused unless
    every face was drawn at that bleed and fills it on every side (preflight says so first, at the layout)."""
    from pnpgen.shop.bleed import missing_bleed
    from pnpgen.units import MM

    for n, face in enumerate(faces, 1):
        if abs(face.bleed_pt - bleed_pt) > 0.01:
            raise ContentError.at(
                loc,
                f"could not write {name}: page {n} was drawn with {face.bleed_pt / MM:.2f} mm of bleed, "
                f"not the {bleed_pt / MM:.2f} mm its BleedBox would claim",
            )
        missing = missing_bleed(face)
        if missing:
            raise ContentError.at(
                loc,
                f"could not write {name}: page {n} fills no bleed at the {', '.join(missing)}; its "
                f"BleedBox would claim {bleed_pt / MM:.2f} mm all round",
            )


class PdfExport(Export):
    """A component's PDF/X files for a shop target: a card deck's fronts and backs, one piece a page."""

    def __init__(self, comp, target: ShopTarget):
        super().__init__(comp.id, comp.loc)
        self.comp, self.target = comp, target
        self.drawn: DeckFaces | BoardFaces | None = None
        self.kind = target.name

    def prepare(self, run, diags: Diagnostics) -> bool:
        if isinstance(self.comp, Board):
            self.drawn = run.painter.board(self.comp, diags)
        else:
            self.drawn = run.painter.deck(self.comp, diags, bleed_pt=self.target.bleed_pt)
        return self.drawn is not None

    def write_all(self, folder: Path, w) -> list[str]:
        return _deck_files(w, self.comp, self.target, folder, self.drawn)


class PunchboardExport(PdfExport):
    """A tile set or token sheet on punchboard sheets, with its die lines (factory)."""

    def write_all(self, folder: Path, w) -> list[str]:
        return _punchboard_files(w, self.comp, self.target, folder, self.drawn)


class BoardExport(PdfExport):
    """A board, each side a page."""

    def write_all(self, folder: Path, w) -> list[str]:
        board, target = self.comp, self.target
        assert self.drawn is not None  # prepared
        faces = self.drawn.faces
        title = f"{w.game.title}: {board.name}"
        return [_write(folder, f"{board.id}.pdf", faces, board.bleed_pt, w, target, title, board.loc)]


def _deck_files(w, deck: Deck, target: ShopTarget, stage_dir: Path, drawn) -> list[str]:
    fronts = [front for front, _ in drawn.faces]
    backs = [back for _, back in drawn.faces if back is not None]
    game = w.game.title
    files = [
        _write(
            stage_dir,
            f"{deck.id}-fronts.pdf",
            fronts,
            target.bleed_pt,
            w,
            target,
            f"{game}: {deck.name}, fronts",
            deck.loc,
        )
    ]
    if backs:
        if len(set(backs)) == 1:
            backs = backs[:1]
        files.append(
            _write(
                stage_dir,
                f"{deck.id}-backs.pdf",
                backs,
                target.bleed_pt,
                w,
                target,
                f"{game}: {deck.name}, backs",
                deck.loc,
            )
        )
    return files


def _punchboard_files(writing, deck: Deck, target: ShopTarget, stage_dir: Path, drawn) -> list[str]:
    from pnpgen.render.punchboard import write_die_file, write_punchboards
    from pnpgen.shop.punchboard import least_gap, plan

    fronts = [front for front, _ in drawn.faces]
    backs = [back for _, back in drawn.faces]
    w, h = deck.width_pt, deck.height_pt
    try:
        boards = plan(len(fronts), w, h, target.die_gap_pt)
    except ValueError as exc:
        raise ContentError.at(deck.loc, str(exc)) from None
    for board in boards:
        if least_gap(board, w, h) < target.die_gap_pt - 0.01:
            raise ContentError.at(
                deck.loc, "pieces closer than the die spacing (a fault in pnpgen's planner)"
            )
    game = writing.game.title
    front_sheets = [(board, board.slots, fronts) for board in boards]
    files = [
        _write(
            stage_dir,
            f"{deck.id}-punchboard-fronts.pdf",
            [],
            0.0,
            writing,
            target,
            f"{game}: {deck.name}, punchboard fronts",
            deck.loc,
            lambda p: write_punchboards(p, front_sheets, writing.icons, f"{game}: {deck.name}"),
        ),
    ]
    if any(back is not None for back in backs):
        back_sheets = [(board, board.mirrored(w), backs) for board in boards]
        files.append(
            _write(
                stage_dir,
                f"{deck.id}-punchboard-backs.pdf",
                [],
                0.0,
                writing,
                target,
                f"{game}: {deck.name}, punchboard backs",
                deck.loc,
                lambda p: write_punchboards(p, back_sheets, writing.icons, f"{game}: {deck.name} backs"),
            )
        )
    files.append(
        _write(
            stage_dir,
            f"{deck.id}-die.pdf",
            [],
            0.0,
            writing,
            target,
            f"{game}: {deck.name}, die lines",
            deck.loc,
            lambda p: write_die_file(p, front_sheets, f"{game}: {deck.name} die"),
        )
    )
    return files


class BookletExport(Export):
    """The rulebook's print version: built on the game's paper, imposed as a saddle-stitched booklet with a
    back cover, the target's bleed round each sheet and the cover spread's ground over it."""

    kind = "booklet"

    def __init__(self, run, target: ShopTarget):
        super().__init__("rulebook", run.game.loc)
        self.target, self.book = target, None
        self.info: dict = {}
        self.pictures: dict = {}

    def stands_on(self, run) -> dict[str, str]:
        return rulebook_inputs(run)

    def prepare(self, run, diags: Diagnostics) -> bool:
        from pnpgen.rulebook import load_rulebook

        self.book, self.info, self.pictures = load_rulebook(run, diags)
        return True  # what it found stays in `diags`, to be reported; without a book it writes nothing

    def write_all(self, folder: Path, w) -> list[str]:
        from pnpgen.render.book import build_rulebook_pdf
        from pnpgen.render.cover import colours, write_back_cover
        from pnpgen.shop.booklet import impose

        book, target = self.book, self.target
        if book is None:
            return []
        pages, back = folder / ".rulebook-pages.pdf", folder / ".rulebook-back.pdf"
        name = "rulebook-booklet.pdf"
        cover = getattr(book, "cover", None)

        def draw(path: Path) -> None:
            try:
                build_rulebook_pdf(pages, book, w.game, w.icons, self.pictures, self.info, w.paper)
                write_back_cover(back, w.game, w.paper, cover)
                impose(pages, path, target.bleed_pt, colours(cover)[0], back)
            finally:
                for scratch in (pages, back):
                    scratch.unlink(missing_ok=True)

        title = f"{w.game.title}: rules, saddle-stitched booklet"
        return [_write(folder, name, [], target.bleed_pt, w, target, title, w.game.loc, draw)]


def _booklet_resolution(
    run, booklet: BookletExport, path: Path, target: ShopTarget, diags: Diagnostics
) -> None:
    """Art the booklet prints under the target's dpi (a pictured card's, a diagram's board zoomed in), read from
    the written file: preflight sees the components' art at their own size, not as the rules picture it."""
    from pnpgen.errors import Location, display_path
    from pnpgen.shop.booklet import image_resolutions

    worst: dict = {}
    for side, dpi, px, key in image_resolutions(path):
        if dpi < target.min_dpi - 0.5 and (key not in worst or dpi < worst[key][1]):
            worst[key] = (side, dpi, px)
    book = booklet.book
    loc = Location(display_path(book.path)) if book is not None else run.game.loc
    for side, dpi, px in sorted(worst.values()):
        diags.warning(
            loc,
            f"[{target.name}] {path.name}: art of {px[0]} x {px[1]} px prints at {dpi:.0f} effective dpi on "
            f"sheet side {side}, under the {target.min_dpi:.0f} dpi a shop asks",
        )


def _spec(run, target: ShopTarget, wanted: list, results: list, folder: Path) -> list[str]:
    from pnpgen.shop.pdfx import page_count
    from pnpgen.shop.spec import write_spec

    def pages(name: str) -> str:
        n = page_count(folder / name)
        return f"{name}: {n} page{'' if n == 1 else 's'}"

    files = {r.component: "; ".join(pages(n) for n in r.files) for r in results}
    return write_spec(folder, run, target, wanted, files)


def export_pdf(run, project, target: ShopTarget, wanted: list, diags: Diagnostics, rulebook: bool = False):
    """Write the target's PDFs for `wanted`; returns (results, skipped)."""
    results, skipped, names = [], [], []
    final = project.out_dir(run.game.id) / "shop" / target.name
    with Stage(final, project.out) as stage:
        for comp in wanted:
            if target.name == "dtc" and not (isinstance(comp, Deck) and comp.kind == "cards"):
                skipped.append((comp.id, "DriveThruCards prints card decks"))
                continue
            if isinstance(comp, Board):
                out: PdfExport = BoardExport(comp, target)
            elif target.name == "factory" and comp.kind != "cards":
                out = PunchboardExport(comp, target)
            else:
                out = PdfExport(comp, target)
            files = exported(run, out, stage.dir, diags)
            names += files
            results.append(Exported(comp.id, files))
        if rulebook and target.name in ("pdfx", "factory"):
            booklet = BookletExport(run, target)
            files = exported(run, booklet, stage.dir, diags)
            if files:
                names += files
                results.append(Exported("rulebook", files))
                _booklet_resolution(run, booklet, stage.dir / files[0], target, diags)
        if not names:
            diags.warning(run.game.loc, f"nothing to export for {target.name}")
            return results, skipped
        names += _spec(run, target, wanted, results, stage.dir)
        stage.commit(names)
    return results, skipped

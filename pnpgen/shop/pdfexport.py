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

from pnpgen.errors import ContentError, Diagnostics
from pnpgen.exports import Exported, _draw
from pnpgen.model import Board, Deck
from pnpgen.names import file_name_problem
from pnpgen.pipeline.jobs import plain_error
from pnpgen.pipeline.staging import Stage
from pnpgen.shop.targets import ShopTarget


def _write(
    stage_dir: Path,
    name: str,
    faces: list,
    bleed_pt: float,
    run,
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
    scratch = stage_dir / f".{name}.rgb"
    try:
        if draw is not None:
            draw(scratch)
        else:
            write_face_pages(scratch, faces, bleed_pt, run.icons, title)
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


def _deck_files(run, deck: Deck, target: ShopTarget, stage_dir: Path, diags: Diagnostics) -> list[str]:
    drawn = _draw(run, deck, target.bleed_pt, diags)
    fronts = [front for front, _ in drawn.faces]
    backs = [back for _, back in drawn.faces if back is not None]
    game = run.game.title
    files = [
        _write(
            stage_dir,
            f"{deck.id}-fronts.pdf",
            fronts,
            target.bleed_pt,
            run,
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
                run,
                target,
                f"{game}: {deck.name}, backs",
                deck.loc,
            )
        )
    return files


def _punchboard_files(run, deck: Deck, target: ShopTarget, stage_dir: Path, diags: Diagnostics) -> list[str]:
    from pnpgen.render.punchboard import write_die_file, write_punchboards
    from pnpgen.shop.punchboard import least_gap, plan

    drawn = _draw(run, deck, target.bleed_pt, diags)
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
    game = run.game.title
    front_sheets = [(board, board.slots, fronts) for board in boards]
    files = [
        _write(
            stage_dir,
            f"{deck.id}-punchboard-fronts.pdf",
            [],
            0.0,
            run,
            target,
            f"{game}: {deck.name}, punchboard fronts",
            deck.loc,
            lambda p: write_punchboards(p, front_sheets, run.icons, f"{game}: {deck.name}"),
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
                run,
                target,
                f"{game}: {deck.name}, punchboard backs",
                deck.loc,
                lambda p: write_punchboards(p, back_sheets, run.icons, f"{game}: {deck.name} backs"),
            )
        )
    files.append(
        _write(
            stage_dir,
            f"{deck.id}-die.pdf",
            [],
            0.0,
            run,
            target,
            f"{game}: {deck.name}, die lines",
            deck.loc,
            lambda p: write_die_file(p, front_sheets, f"{game}: {deck.name} die"),
        )
    )
    return files


def _board_files(run, board: Board, target: ShopTarget, stage_dir: Path, diags: Diagnostics) -> list[str]:
    drawn = run.painter.board(board, diags)
    if drawn is None:
        raise ContentError(diags)
    title = f"{run.game.title}: {board.name}"
    return [_write(stage_dir, f"{board.id}.pdf", drawn.faces, board.bleed_pt, run, target, title, board.loc)]


def _rulebook_files(run, project, target: ShopTarget, stage_dir: Path, diags: Diagnostics) -> list[str]:
    """The rulebook's print version: built at the project's paper, imposed as a saddle-stitched booklet with a
    back cover, the target's bleed round each sheet and the cover spread's ground over it."""
    from pnpgen.render.book import build_rulebook_pdf
    from pnpgen.render.cover import colours, write_back_cover
    from pnpgen.rulebook import load_rulebook
    from pnpgen.shop.booklet import impose

    book, info, pictures = load_rulebook(run, diags)
    if book is None:
        return []
    pages, back = stage_dir / ".rulebook-pages.pdf", stage_dir / ".rulebook-back.pdf"
    name = "rulebook-booklet.pdf"
    cover = getattr(book, "cover", None)

    def draw(path: Path) -> None:
        try:
            build_rulebook_pdf(pages, book, run.game, run.icons, pictures, info, project.paper)
            write_back_cover(back, run.game, project.paper, cover)
            impose(pages, path, target.bleed_pt, colours(cover)[0], back)
        finally:
            for scratch in (pages, back):
                scratch.unlink(missing_ok=True)

    title = f"{run.game.title}: rules, saddle-stitched booklet"
    return [_write(stage_dir, name, [], target.bleed_pt, run, target, title, run.game.loc, draw)]


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
                files = _board_files(run, comp, target, stage.dir, diags)
            elif target.name == "factory" and comp.kind != "cards":
                files = _punchboard_files(run, comp, target, stage.dir, diags)
            else:
                files = _deck_files(run, comp, target, stage.dir, diags)
            names += files
            results.append(Exported(comp.id, files))
        if rulebook and target.name in ("pdfx", "factory"):
            files = _rulebook_files(run, project, target, stage.dir, diags)
            if files:
                names += files
                results.append(Exported("rulebook", files))
        if not names:
            diags.warning(run.game.loc, f"nothing to export for {target.name}")
            return results, skipped
        names += _spec(run, target, wanted, results, stage.dir)
        stage.commit(names)
    return results, skipped

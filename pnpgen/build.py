"""The one orchestrator: content -> model -> faces -> sheets -> PDF files and a manifest.

Everything of a game is read, validated and drawn into faces before any file is written, so a game with an
error leaves its last good output untouched. Only outputs whose inputs changed are drawn and written again
(see `freshness`); the writing runs in parallel processes, one output per job.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

from pnpgen import __version__, freshness
from pnpgen.errors import ContentError, Diagnostics, Location, display_path
from pnpgen.faces import Image
from pnpgen.icons import BUILTIN, load_icons
from pnpgen.imposition import ImpositionError, PiecePlan, SheetPlan, paginate, plan_pieces, plan_sheet
from pnpgen.layout.draw import FaceContext, draw_face, template_names
from pnpgen.layout.spec import LayoutLibrary
from pnpgen.model import Board, Deck, Game
from pnpgen.schema import load_game
from pnpgen.templating import Compiler
from pnpgen.writers import atomic_path, read_manifest, remove_stale_temps, sha256_of, write_manifest


@dataclass
class PreparedDeck:
    deck: Deck
    plan: SheetPlan
    faces: list  # (front Face, back Face | None), one per printed card (copies repeated)
    inputs: dict = field(default_factory=dict)  # file -> sha256 it was made from
    warnings: int = 0

    @property
    def has_backs(self) -> bool:
        return any(b is not None for _, b in self.faces)


@dataclass
class PreparedBoard:
    board: object  # pnpgen.model.Board
    faces: list  # one Face per side
    inputs: dict = field(default_factory=dict)
    warnings: int = 0


@dataclass
class Reused:
    """An output whose inputs did not change: kept as it is, its manifest entries carried over."""

    entries: list

    @property
    def entry(self) -> dict:
        return self.entries[0]


@dataclass
class PreparedRulebook:
    book: object  # pnpgen.rulebook.Rulebook
    pictures: dict  # component id -> (front Face, back Face | None) of its first card
    components: dict  # component id -> name, kind, faces, cards
    key: str = ""
    inputs: dict = field(default_factory=dict)


@dataclass
class PreparedGame:
    game: Game
    icons: dict
    components: list = field(default_factory=list)  # PreparedDeck | Reused
    rulebook: PreparedRulebook | Reused | None = None
    layouts: str = ""  # digest of the layout names on the search path
    checked: bool = False  # the rules check passed before this build

    @property
    def to_write(self) -> list:
        outs = [c for c in self.components if isinstance(c, (PreparedDeck, PreparedBoard))]
        if isinstance(self.rulebook, PreparedRulebook):
            outs.append(self.rulebook)
        return outs


@dataclass
class GameResult:
    game: str
    ok: bool
    diagnostics: Diagnostics
    files: list = field(default_factory=list)
    out_dir: Path | None = None
    rendered: list = field(default_factory=list)
    reused: list = field(default_factory=list)
    up_to_date: bool = False


def shared_layouts(content: Path) -> Path:
    """Layouts games share: `layouts/` beside the content folder."""
    return content.resolve().parent / "layouts"


def project_root(content: Path) -> Path:
    return content.resolve().parent


def layout_folders(root: Path, content: Path) -> list[Path]:
    return [root / "layouts", shared_layouts(content)]


game_roots = freshness.select


def load_game_icons(game: Game, diags: Diagnostics) -> dict:
    icons = load_icons(BUILTIN, dict(game.palette), diags)
    if game.icons_file:
        load_icons(game.icons_file, dict(game.palette), diags, icons)
    return icons


def _old_entries(old: dict | None, paper: str, listing: str) -> dict:
    if not old or old.get("engine") != freshness.engine_digest() or old.get("paper") != paper:
        return {}
    if old.get("layouts") != listing:
        return {}
    out: dict = {}
    for e in old.get("files", []):
        if isinstance(e, dict):
            out.setdefault(e.get("component"), []).append(e)
    return out


def prepare_game(
    root: Path,
    content: Path,
    paper: str,
    out: Path | None = None,
    strict: bool = False,
) -> tuple[PreparedGame | None, Diagnostics]:
    """Read and validate a game; draw the faces of every output that must be written again. Writes nothing."""
    diags = Diagnostics()
    try:
        game = load_game(root)
    except ContentError as exc:
        return None, exc.diagnostics
    icons = load_game_icons(game, diags)
    library = LayoutLibrary(layout_folders(root, content), Compiler())
    listing = freshness.layout_listing(layout_folders(root, content))
    project = project_root(content)
    out_dir = (out / game.id) if out is not None else None
    old = _old_entries(read_manifest(out_dir / "manifest.json") if out_dir else None, paper, listing)
    prepared = PreparedGame(game, icons, layouts=listing)
    for deck in game.components:
        try:
            base = _deck_inputs(game, deck, library)
            entries = old.get(deck.id) or []
            if (
                entries
                and out_dir
                and all(
                    set(freshness.record(base, project)) <= set(e.get("inputs", {}))
                    and not (strict and e.get("warnings"))
                    and freshness.entry_fresh(e, out_dir, project)
                    for e in entries
                )
            ):
                prepared.components.append(Reused(entries))
                continue
            before = len(diags.warnings)
            if isinstance(deck, Board):
                pd = prepare_board(game, deck, library, icons, diags)
            else:
                pd = prepare_deck(game, deck, library, icons, paper, diags)
            if pd is not None:
                pd.warnings = len(diags.warnings) - before
        except ContentError as exc:
            diags.extend(exc.diagnostics)
            continue
        if pd is not None:
            pairs = pd.faces if isinstance(pd, PreparedDeck) else [(f, None) for f in pd.faces]
            art = {
                Path(op.path)
                for front, back in set(pairs)
                for face in (front, back)
                if face
                for op in face.ops
                if isinstance(op, Image)
            }
            pd.inputs = freshness.record(list(base) + sorted(art), project)
            prepared.components.append(pd)
    prepared.rulebook = prepare_rulebook(prepared, library, project, old, out_dir, diags)
    return prepared, diags


def _deck_inputs(game: Game, deck, library: LayoutLibrary) -> list[Path]:
    files = [game.root / "game.yaml", deck.path]
    if game.icons_file:
        files.append(game.icons_file)
    if isinstance(deck, Board):
        refs = [side.layout for side in deck.sides]
    else:
        refs = [deck.front] + ([deck.back] if deck.back else []) + [c.back for c in deck.cards if c.back]
    for ref in refs:
        files.extend(library.files(ref.layout, ref.loc))
    return files


def prepare_rulebook(
    prepared: PreparedGame,
    library: LayoutLibrary,
    project: Path,
    old: dict,
    out_dir: Path | None,
    diags: Diagnostics,
):
    from pnpgen.rulebook import component_info, find_sources, load_rulebook

    game = prepared.game
    sources = find_sources(game.root)
    if not sources:
        return None
    deck_files = []
    for deck in game.components:
        try:
            deck_files += _deck_inputs(game, deck, library)
        except ContentError as exc:
            diags.extend(exc.diagnostics)
    # What the rulebook shows of the content: names, counts, and the first piece of each set -- known from its
    # fields and the files that draw it, so nothing is drawn just to decide.
    h = hashlib.sha256()
    files = sorted(set(sources + [game.root / "game.yaml"] + ([game.icons_file] if game.icons_file else [])))
    for path in files:
        h.update(freshness.file_sha(path).encode())
    for deck in game.components:
        first = deck.cards[0] if not isinstance(deck, Board) and deck.cards else None
        shown = (first.name, first.count, dict(first.fields)) if first else None  # not its location
        h.update(f"{deck.id}|{deck.kind}|{deck.name}|{deck.faces}|{shown!r}".encode())
        if not isinstance(deck, Board):
            for ref in [deck.front, deck.back_for(first) if first else deck.back]:
                if ref is not None:
                    for path in library.files(ref.layout, ref.loc):
                        h.update(freshness.file_sha(path).encode())
    key = h.hexdigest()
    entry = (old.get("rulebook") or [None])[0]
    own = [game.root / "game.yaml"] + ([game.icons_file] if game.icons_file else [])
    inputs = freshness.record(sources + own + deck_files, project)
    target = out_dir / "rulebook.pdf" if out_dir else None
    if (
        entry
        and target
        and entry.get("key") == key
        and target.is_file()
        and freshness.file_sha(target) == entry.get("sha256")
    ):
        return Reused(
            [{**entry, "inputs": inputs}]
        )  # what it shows is unchanged; its inputs are recorded anew
    pictures = {}
    for deck in game.components:
        if isinstance(deck, Board):
            continue
        pd = next(
            (c for c in prepared.components if isinstance(c, PreparedDeck) and c.deck.id == deck.id), None
        )
        try:
            faces = (
                pd.faces[0] if pd is not None else _first_faces(game, deck, library, prepared.icons, diags)
            )
        except ContentError as exc:
            diags.extend(exc.diagnostics)
            continue
        if faces is not None and faces[0] is not None:
            pictures[deck.id] = faces
    components = component_info(game, None)
    try:
        book = load_rulebook(game.root, game, components, diags)
    except ContentError as exc:
        diags.extend(exc.diagnostics)
        return None
    for block in _walk(book.blocks):
        if getattr(block, "component", None) and block.component not in pictures:
            diags.error(
                Location(display_path(book.path), block.line, 1),
                f"picture(): component '{block.component}' has no card to draw",
            )
    return PreparedRulebook(book, pictures, components, key, inputs)


def _walk(blocks):
    for b in blocks:
        yield b
        for inner in getattr(b, "blocks", []) or []:
            yield from _walk([inner])
        for item in getattr(b, "items", []) or []:
            yield from _walk(item)


def _face_context(game: Game, deck: Deck, icons: dict) -> FaceContext:
    return FaceContext(
        deck.width_pt,
        deck.height_pt,
        deck.bleed_pt,
        deck.safe_pt,
        dict(game.palette),
        icons,
        game.root / "art",
        shape=deck.shape,
    )


def prepare_board(game: Game, board, library: LayoutLibrary, icons: dict, diags: Diagnostics):
    """Draw each side of a board at its true size."""
    fc = FaceContext(
        board.width_pt,
        board.height_pt,
        board.bleed_pt,
        0.0,
        dict(game.palette),
        icons,
        game.root / "art",
        board=board.data,
    )
    info = {"id": board.id, "name": board.name, "count": len(board.sides)}
    game_info = {"id": game.id, "title": game.title, "players": game.players}
    faces, failed = [], False
    for side in board.sides:
        layout = library.get(side.layout.layout, side.layout.loc)
        label = f"side '{side.id}' of board '{board.id}' ({display_path(board.path)}:{side.loc.line})"
        face = draw_face(layout, fc, template_names(fc, dict(side.fields), info, game_info), label, diags)
        failed = failed or face is None
        faces.append(face)
    fc.flush_notes(diags)
    return None if failed else PreparedBoard(board, faces)


def _card_faces(game, deck, card, library, fc, diags, memo=None):
    deck_info = {"id": deck.id, "name": deck.name, "count": deck.faces}
    game_info = {"id": game.id, "title": game.title, "players": game.players}
    label = f"card {card.index} '{card.name}' of deck '{deck.id}' ({display_path(deck.path)}:{card.loc.line})"
    extra = {"index": card.index, "count": card.count, "designed": card.designed}
    fields = {**deck.front.fields, **card.fields, **extra}
    front = _face(
        library.get(deck.front.layout, deck.front.loc), fc, fields, deck_info, game_info, label, diags, memo
    )
    back, ok = None, front is not None
    ref = deck.back_for(card)
    if ref is not None:
        bfields = {**card.fields, **ref.fields, **extra}
        back = _face(
            library.get(ref.layout, ref.loc),
            fc,
            bfields,
            deck_info,
            game_info,
            label.replace("card ", "back of card ", 1),
            diags,
            memo,
        )
        ok = ok and back is not None
    return front, back, ok


def _face(layout, fc, fields, deck_info, game_info, label, diags, memo):
    """Draw a face; a layout that reads only some card fields is drawn once per distinct value of those."""
    key = None
    if memo is not None and layout.card_deps is not None:
        try:
            key = (layout.name, tuple((f, repr(fields.get(f))) for f in sorted(layout.card_deps)))
        except TypeError:
            key = None
        if key is not None and key in memo:
            return memo[key]
    face = draw_face(layout, fc, template_names(fc, fields, deck_info, game_info), label, diags)
    if key is not None and face is not None:
        memo[key] = face
    return face


def _first_faces(game, deck, library, icons, diags):
    if not deck.cards:
        return None
    fc = _face_context(game, deck, icons)
    front, back, ok = _card_faces(game, deck, deck.cards[0], library, fc, Diagnostics())
    return (front, back) if ok else None


def prepare_deck(game: Game, deck: Deck, library: LayoutLibrary, icons: dict, paper: str, diags: Diagnostics):
    try:
        if deck.shape in ("rect", "square"):
            plan = plan_sheet(paper, deck.width_pt, deck.height_pt, deck.bleed_pt)
        else:
            plan = plan_pieces(paper, deck.shape, deck.width_pt, deck.height_pt, deck.bleed_pt)
    except ImpositionError as exc:
        diags.error(deck.loc, f"deck '{deck.id}': {exc}")
        return None
    library.get(deck.front.layout, deck.front.loc)
    fc = _face_context(game, deck, icons)
    faces, failed, memo = [], False, {}
    for card in deck.cards:
        front, back, ok = _card_faces(game, deck, card, library, fc, diags, memo)
        failed = failed or not ok
        faces.extend([(front, back)] * card.count)
    fc.flush_notes(diags)
    if failed:
        return None
    return PreparedDeck(deck, plan, faces)


# -- writing ---------------------------------------------------------------------------------------------------

# Jobs handed to forked worker processes by index: children inherit this list, so faces are never pickled.
_JOBS: list = []


def _die_with_parent() -> None:
    """A worker must not outlive a build that was killed (Linux: the kernel signals it when the parent dies)."""
    try:
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        if os.getppid() == 1:  # the parent died before we asked
            os._exit(1)
    except (OSError, AttributeError):
        pass


def _run_job(index: int) -> tuple[int, dict]:
    kind, target, args = _JOBS[index]
    with atomic_path(target) as tmp:
        if kind == "deck":
            game, pd, paper, icons = args
            pages = write_deck_pdf(tmp, game, pd, paper, icons)
        elif kind in ("board", "board-full"):
            from pnpgen.render.board import write_board_full, write_board_tiled

            game, pb, paper, icons = args
            title = f"{game.title} — {pb.board.name}" + (" (full size)" if kind == "board-full" else "")
            if kind == "board":
                pages = write_board_tiled(tmp, pb.board, pb.faces, icons, paper, title)
            else:
                pages = write_board_full(tmp, pb.board, pb.faces, icons, title)
        else:
            from pnpgen.render.book import build_rulebook_pdf

            game, rb, paper, icons = args
            pages = build_rulebook_pdf(tmp, rb.book, game, icons, rb.pictures, rb.components, paper)
    return index, {"pages": pages, "sha256": sha256_of(target)}


def write_games(
    prepared_games: list[PreparedGame],
    out: Path,
    paper: str,
    step: Callable[[str], None],
    workers: int | None = None,
) -> dict:
    """Write every stale output of the games (in parallel when there is more than one), then each manifest.

    Returns game id -> (file entries, ids rendered)."""
    global _JOBS
    jobs, owners = [], []
    for pg in prepared_games:
        out_dir = out / pg.game.id
        remove_stale_temps(out_dir)
        for item in pg.to_write:
            if isinstance(item, PreparedDeck):
                jobs.append(("deck", out_dir / f"{item.deck.id}.pdf", (pg.game, item, paper, pg.icons)))
                owners.append((pg.game.id, item.deck.id))
            elif isinstance(item, PreparedBoard):
                for kind, name in (
                    ("board", f"{item.board.id}.pdf"),
                    ("board-full", f"{item.board.id}-full.pdf"),
                ):
                    jobs.append((kind, out_dir / name, (pg.game, item, paper, pg.icons)))
                    owners.append((pg.game.id, item.board.id))
            else:
                jobs.append(("rulebook", out_dir / "rulebook.pdf", (pg.game, item, paper, pg.icons)))
                owners.append((pg.game.id, "rulebook"))
    results: dict[int, dict] = {}
    workers = workers or min(os.cpu_count() or 1, len(jobs))
    _JOBS = jobs
    try:
        if workers > 1 and len(jobs) > 1:
            ctx = multiprocessing.get_context("fork")
            with ProcessPoolExecutor(
                max_workers=workers, mp_context=ctx, initializer=_die_with_parent
            ) as pool:
                futures = [pool.submit(_run_job, i) for i in range(len(jobs))]
                for fut in as_completed(futures):
                    i, res = fut.result()
                    results[i] = res
                    step(owners[i][1])
        else:
            for i in range(len(jobs)):
                results[i] = _run_job(i)[1]
                step(owners[i][1])
    finally:
        _JOBS = []
    done = {}
    for pg in prepared_games:
        done[pg.game.id] = _finish_game(pg, out, paper, jobs, owners, results)
    return done


def _finish_game(pg: PreparedGame, out: Path, paper: str, jobs, owners, results) -> tuple[list, list]:
    game = pg.game
    written: dict = {}
    for i in range(len(jobs)):
        if owners[i][0] == game.id:
            written.setdefault(owners[i][1], []).append((jobs[i], results[i]))
    files, rendered = [], []
    for item in pg.components + ([pg.rulebook] if pg.rulebook is not None else []):
        if isinstance(item, Reused):
            files.extend(item.entries)
            continue
        if isinstance(item, PreparedDeck):
            cid, kind, faces = item.deck.id, item.deck.kind, len(item.faces)
        elif isinstance(item, PreparedBoard):
            cid, kind, faces = item.board.id, "board", len(item.faces)
        else:
            cid, kind, faces = "rulebook", "rulebook", None
        rendered.append(cid)
        for (_, target, _), res in written[cid]:
            entry = {
                "path": target.name,
                "component": cid,
                "kind": kind,
                "faces": faces if faces is not None else res["pages"],
                "pages": res["pages"],
                "sha256": res["sha256"],
            }
            if isinstance(item, PreparedRulebook):
                entry["key"] = item.key
            if isinstance(item, (PreparedDeck, PreparedBoard)):
                entry["warnings"] = item.warnings
            entry["inputs"] = item.inputs
            files.append(entry)
    out_dir = out / game.id
    manifest_path = out_dir / "manifest.json"
    old = read_manifest(manifest_path) or {}
    manifest = {
        "game": game.id,
        "title": game.title,
        "paper": paper,
        "generator": f"pnpgen {__version__}",
        "engine": freshness.engine_digest(),
        "layouts": pg.layouts,
        "checked": pg.checked,
        "facts": freshness.file_sha(game.root / "facts.yaml"),
        "files": files,
    }
    out_dir.mkdir(parents=True, exist_ok=True)
    write_manifest(manifest_path, manifest)
    kept = {f["path"] for f in files}
    for entry in old.get("files", []):  # components that no longer exist: their old PDFs go too
        name = entry.get("path") if isinstance(entry, dict) else None
        if name and name not in kept and "/" not in name and (out_dir / name).is_file():
            (out_dir / name).unlink()
    return files, rendered


def write_deck_pdf(path: Path, game: Game, pd: PreparedDeck, paper: str, icons: dict) -> int:
    from pnpgen.render.pdf import PdfWriter

    plan = pd.plan
    w = PdfWriter(
        path,
        (plan.paper_w, plan.paper_h),
        f"{game.title} — {pd.deck.name}",
        f"{pd.deck.name}: {len(pd.faces)} cards, {paper.upper()}",
        icons,
    )
    sheets = paginate(len(pd.faces), plan.per_sheet)
    page = w.piece_page if isinstance(plan, PiecePlan) else w.sheet_page
    for n, rng in enumerate(sheets, 1):
        fronts = [pd.faces[i][0] for i in rng]
        page(plan, fronts, False, _label(game, pd, n, len(sheets), "fronts"))
        if pd.has_backs:
            backs = [pd.faces[i][1] for i in rng]
            page(plan, backs, True, _label(game, pd, n, len(sheets), "backs"))
    w.save()
    return w.pages


def _label(game: Game, pd: PreparedDeck, n: int, total: int, side: str) -> str:
    return f"{game.title} · {pd.deck.name} · sheet {n} of {total} · {side}"


def build(
    content: Path,
    out: Path,
    names: list[str] | None,
    paper: str,
    strict: bool,
    step_factory=None,
    workers: int | None = None,
    check=None,
) -> list[GameResult]:
    """Build the named games (all when none); a game that fails does not stop the others.

    `check(root)` -> a checker Report, run once a game's content has loaded and drawn cleanly; its errors (and
    with `strict` its warnings) stop that game as any content error does. Several games build in parallel
    processes, one game each; a single game writes its files in parallel instead."""
    roots = game_roots(content, names)
    cores = workers or (os.cpu_count() or 1)
    step = step_factory(len(roots)) if step_factory else (lambda name: None)
    if len(roots) > 1 and cores > 1:
        global _GAMES
        _GAMES = (content, out, paper, strict, check)
        try:
            ctx = multiprocessing.get_context("fork")
            with ProcessPoolExecutor(
                max_workers=min(cores, len(roots)), mp_context=ctx, initializer=_die_with_parent
            ) as pool:
                results = []
                for result in pool.map(_build_game_job, roots):
                    results.append(result)
                    step(result.game)
                return results
        finally:
            _GAMES = ()
    results = []
    for root in roots:
        results.append(build_game(root, content, out, paper, strict, check, workers))
        step(root.name)
    return results


# What forked game workers build; inherited by fork, never pickled.
_GAMES: tuple = ()


def _build_game_job(root: Path) -> GameResult:
    content, out, paper, strict, check = _GAMES
    return build_game(root, content, out, paper, strict, check, workers=1)


def build_game(
    root: Path, content: Path, out: Path, paper: str, strict: bool, check=None, workers: int | None = None
) -> GameResult:
    prepared, diags = prepare_game(root, content, paper, out, strict)
    failed = bool(diags.errors) or (strict and bool(diags.warnings)) or prepared is None
    if not failed and check is not None:
        report = check(root, prepared.game)
        for f in report.findings:
            if f.severity == "error" or (strict and f.severity == "warning"):
                path, _, line = f.location.rpartition(":")
                loc = Location(path, int(line)) if line.isdigit() else Location(f.location or "facts.yaml")
                found = f" (expected {f.expected}, found {f.actual})" if f.expected is not None else ""
                diags.error(loc, f"rules check: {f.component}: {f.message}{found}")
                failed = True
        prepared.checked = True
    result = GameResult(root.name, not failed, diags)
    if failed:
        return result
    try:
        done = write_games([prepared], out, paper, lambda name: None, workers)
    except ContentError as exc:
        result.ok = False
        diags.extend(exc.diagnostics)
        return result
    result.files, result.rendered = done[prepared.game.id]
    result.reused = [
        e.entry["component"] for e in prepared.components + [prepared.rulebook] if isinstance(e, Reused)
    ]
    result.out_dir = out / prepared.game.id
    return result

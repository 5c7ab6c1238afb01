"""The one orchestrator: content -> model -> faces -> sheets -> PDF files and a manifest.

Everything of a game is read, validated and drawn into faces before any file is written, so a game with an
error leaves its last good output untouched.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from pnpgen import __version__
from pnpgen.errors import ContentError, Diagnostics, Location, display_path
from pnpgen.icons import BUILTIN, load_icons
from pnpgen.imposition import ImpositionError, SheetPlan, paginate, plan_sheet
from pnpgen.layout.draw import FaceContext, draw_face, template_names
from pnpgen.layout.spec import LayoutLibrary
from pnpgen.model import Deck, Game
from pnpgen.schema import discover_games, load_game
from pnpgen.templating import Compiler
from pnpgen.writers import atomic_path, read_manifest, remove_stale_temps, sha256_of, write_manifest


@dataclass
class PreparedDeck:
    deck: Deck
    plan: SheetPlan
    faces: list  # (front Face, back Face | None), one per printed card (copies repeated)

    @property
    def sheets(self) -> int:
        return len(paginate(len(self.faces), self.plan.per_sheet))

    @property
    def has_backs(self) -> bool:
        return any(b is not None for _, b in self.faces)

    @property
    def pages(self) -> int:
        return self.sheets * (2 if self.has_backs else 1)


@dataclass
class PreparedRulebook:
    book: object  # pnpgen.rulebook.Rulebook
    pictures: dict  # component id -> (front Face, back Face | None) of its first card
    components: dict  # component id -> name, kind, faces, cards


@dataclass
class PreparedGame:
    game: Game
    icons: dict
    components: list = field(default_factory=list)
    rulebook: PreparedRulebook | None = None


@dataclass
class GameResult:
    game: str
    ok: bool
    diagnostics: Diagnostics
    files: list = field(default_factory=list)
    out_dir: Path | None = None


def shared_layouts(content: Path) -> Path:
    """Layouts games share: `layouts/` beside the content folder."""
    return content.resolve().parent / "layouts"


def game_roots(content: Path, names: list[str] | None) -> list[Path]:
    roots = discover_games(content)
    if not names:
        return roots
    by_name = {r.name: r for r in roots}
    missing = [n for n in names if n not in by_name]
    if missing:
        from pnpgen.errors import did_you_mean

        raise LookupError(f"no game '{missing[0]}' in {display_path(content)}; " + did_you_mean(missing[0], by_name))
    return [by_name[n] for n in names]


def load_game_icons(game: Game, diags: Diagnostics) -> dict:
    icons = load_icons(BUILTIN, dict(game.palette), diags)
    if game.icons_file:
        load_icons(game.icons_file, dict(game.palette), diags, icons)
    return icons


def prepare_game(root: Path, content: Path, paper: str) -> tuple[PreparedGame | None, Diagnostics]:
    """Read and draw every face of a game in memory; nothing is written."""
    diags = Diagnostics()
    try:
        game = load_game(root)
    except ContentError as exc:
        return None, exc.diagnostics
    icons = load_game_icons(game, diags)
    compiler = Compiler()
    library = LayoutLibrary([root / "layouts", shared_layouts(content)], compiler)
    prepared = PreparedGame(game, icons)
    for deck in game.components:
        try:
            pd = prepare_deck(game, deck, library, icons, paper, diags)
        except ContentError as exc:
            diags.extend(exc.diagnostics)
            continue
        if pd is not None:
            prepared.components.append(pd)
    prepared.rulebook = prepare_rulebook(prepared, diags)
    return prepared, diags


def prepare_rulebook(prepared: PreparedGame, diags: Diagnostics) -> PreparedRulebook | None:
    from pnpgen.rulebook import component_info, load_rulebook

    game = prepared.game
    components = component_info(game, prepared.components)
    try:
        book = load_rulebook(game.root, game, components, diags)
    except ContentError as exc:
        diags.extend(exc.diagnostics)
        return None
    if book is None:
        return None
    pictures = {pd.deck.id: pd.faces[0] for pd in prepared.components if pd.faces}
    for block in _walk(book.blocks):
        if getattr(block, "component", None) and block.component not in pictures:
            diags.error(Location(display_path(book.path), block.line, 1),
                        f"picture(): component '{block.component}' has no card to draw")
    return PreparedRulebook(book, pictures, components)


def _walk(blocks):
    for b in blocks:
        yield b
        for inner in getattr(b, "blocks", []) or []:
            yield from _walk([inner])
        for item in getattr(b, "items", []) or []:
            yield from _walk(item)


def prepare_deck(game: Game, deck: Deck, library: LayoutLibrary, icons: dict, paper: str, diags: Diagnostics):
    try:
        plan = plan_sheet(paper, deck.width_pt, deck.height_pt, deck.bleed_pt)
    except ImpositionError as exc:
        diags.error(deck.loc, f"deck '{deck.id}': {exc}")
        return None
    front_layout = library.get(deck.front.layout, deck.front.loc)
    fc = FaceContext(deck.width_pt, deck.height_pt, deck.bleed_pt, deck.safe_pt, dict(game.palette), icons,
                     game.root / "art")
    deck_info = {"id": deck.id, "name": deck.name, "count": deck.faces}
    game_info = {"id": game.id, "title": game.title, "players": game.players}
    faces, failed = [], False
    for card in deck.cards:
        label = f"card {card.index} '{card.name}' of deck '{deck.id}' ({display_path(deck.path)}:{card.loc.line})"
        fields = {**deck.front.fields, **card.fields, "index": card.index, "count": card.count,
                  "designed": card.designed}
        front = draw_face(front_layout, fc, template_names(fc, fields, deck_info, game_info), label, diags)
        back = None
        ref = deck.back_for(card)
        if ref is not None:
            back_layout = library.get(ref.layout, ref.loc)
            bfields = {**card.fields, **ref.fields, "index": card.index, "count": card.count,
                       "designed": card.designed}
            back = draw_face(back_layout, fc, template_names(fc, bfields, deck_info, game_info),
                             label.replace("card ", "back of card ", 1), diags)
            if back is None:
                failed = True
        if front is None:
            failed = True
        faces.extend([(front, back)] * card.count)
    fc.flush_notes(diags)
    if failed:
        return None
    return PreparedDeck(deck, plan, faces)


def write_game(prepared: PreparedGame, out: Path, paper: str, step: Callable[[], None] = lambda: None) -> list:
    """Write each component's PDF (atomically), then the manifest; returns the manifest's file entries."""
    from pnpgen.render.pdf import PdfWriter

    game = prepared.game
    out_dir = out / game.id
    remove_stale_temps(out_dir)
    files = []
    for pd in prepared.components:
        target = out_dir / f"{pd.deck.id}.pdf"
        with atomic_path(target) as tmp:
            pages = write_deck_pdf(tmp, game, pd, paper, PdfWriter, prepared.icons)
        files.append({
            "path": target.name,
            "component": pd.deck.id,
            "kind": pd.deck.kind,
            "faces": len(pd.faces),
            "pages": pages,
            "sha256": sha256_of(target),
        })
        step()
    if prepared.rulebook is not None:
        from pnpgen.render.book import build_rulebook_pdf

        rb = prepared.rulebook
        target = out_dir / "rulebook.pdf"
        with atomic_path(target) as tmp:
            pages = build_rulebook_pdf(tmp, rb.book, game, prepared.icons, rb.pictures, rb.components, paper)
        files.append({"path": target.name, "component": "rulebook", "kind": "rulebook", "faces": pages,
                      "pages": pages, "sha256": sha256_of(target)})
        step()
    manifest_path = out_dir / "manifest.json"
    old = read_manifest(manifest_path) or {}
    manifest = {"game": game.id, "title": game.title, "paper": paper, "generator": f"pnpgen {__version__}",
                "files": files}
    write_manifest(manifest_path, manifest)
    kept = {f["path"] for f in files}
    for entry in old.get("files", []):  # components that no longer exist: their old PDFs go too
        name = entry.get("path") if isinstance(entry, dict) else None
        if name and name not in kept and "/" not in name and (out_dir / name).is_file():
            (out_dir / name).unlink()
    return files


def write_deck_pdf(path: Path, game: Game, pd: PreparedDeck, paper: str, writer_cls, icons: dict) -> int:
    plan = pd.plan
    w = writer_cls(path, (plan.paper_w, plan.paper_h), f"{game.title} — {pd.deck.name}",
                   f"{pd.deck.name}: {len(pd.faces)} cards, {paper.upper()}", icons)
    sheets = paginate(len(pd.faces), plan.per_sheet)
    for n, rng in enumerate(sheets, 1):
        fronts = [pd.faces[i][0] for i in rng]
        w.sheet_page(plan, fronts, False, _label(game, pd, n, len(sheets), "fronts"))
        if pd.has_backs:
            backs = [pd.faces[i][1] for i in rng]
            w.sheet_page(plan, backs, True, _label(game, pd, n, len(sheets), "backs"))
    w.save()
    return w.pages


def _label(game: Game, pd: PreparedDeck, n: int, total: int, side: str) -> str:
    return f"{game.title} · {pd.deck.name} · sheet {n} of {total} · {side}"


def build(content: Path, out: Path, names: list[str] | None, paper: str, strict: bool,
          on_game: Callable[[str], None] = lambda g: None, step_factory=None) -> list[GameResult]:
    """Build the named games (all when none); a game that fails does not stop the others."""
    results = []
    for root in game_roots(content, names):
        on_game(root.name)
        prepared, diags = prepare_game(root, content, paper)
        failed = bool(diags.errors) or (strict and bool(diags.warnings)) or prepared is None
        result = GameResult(root.name, not failed, diags)
        if not failed:
            step = step_factory(prepared) if step_factory else (lambda: None)
            try:
                result.files = write_game(prepared, out, paper, step)
                result.out_dir = out / prepared.game.id
            except ContentError as exc:
                diags.extend(exc.diagnostics)
                result.ok = False
        results.append(result)
    return results

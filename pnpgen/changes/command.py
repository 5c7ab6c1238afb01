"""`pnpgen changes OLD [NEW]`: compare two builds face by face; write a proof, a reprint and a summary.

NEW is the output folder (`--out`) brought up to date from the content first, unless it is named: then both
folders are compared as they stand, and the reprint is drawn from the content only when the content still draws
exactly what NEW holds (otherwise it would print something neither build printed).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from pnpgen.changes.compare import GameChanges, compare, reprint_cards, summary, write_proof
from pnpgen.errors import ContentError, Diagnostics, UsageProblem
from pnpgen.faces import face_digest
from pnpgen.pipeline import manifest
from pnpgen.pipeline.staging import refuse_link, staging_folder, swap_folder, writing_into

FOLDER = "changes"  # inside the game's output folder: OUT/<game>/changes/


@dataclasses.dataclass
class Written:
    result: GameChanges
    folder: Path
    files: list
    notes: list  # lines for the user: why a reprint was not written


def changes(
    project, old_root: Path, new_root: Path | None, games: list[str], check: bool = True
) -> list[Written]:
    if not old_root.is_dir():
        raise UsageProblem(f"'{old_root}' is not a folder of builds (an output folder saved earlier)")
    if new_root is None:
        from pnpgen.commands.build import build

        outcome = build(project, games or None, check=check)
        failed = Diagnostics()
        for r in outcome.results:
            if not r.ok:
                failed.extend(r.diagnostics)
        if failed.errors:
            raise ContentError(failed)
        new_root = project.out
    if old_root.resolve() == new_root.resolve():
        raise UsageProblem("OLD and NEW are the same folder: save a copy of a build first (cp -r output old)")
    names = games or sorted(
        p.name for p in new_root.iterdir() if (p / manifest.NAME).is_file() and (old_root / p.name).is_dir()
    )
    if not names:
        raise UsageProblem(f"no game is built in both '{old_root}' and '{new_root}'")
    project = dataclasses.replace(project, out=new_root)
    return [_one(project, name, old_root / name, new_root / name, check) for name in names]


def _one(project, game: str, old_dir: Path, new_dir: Path, check: bool) -> Written:
    result = compare(game, old_dir, new_dir)
    final = new_dir / FOLDER
    refuse_link(final, project.out)
    folder = staging_folder(final)
    notes: list[str] = []
    try:
        with writing_into(folder, final):
            files = ["proof.pdf"]
            write_proof(result, folder / "proof.pdf")
            wanted = reprint_cards(result)
            if wanted:
                paper = (manifest.read(new_dir, sealed_only=False) or {}).get("paper", project.paper)
                why = _write_reprint(dataclasses.replace(project, paper=paper), game, wanted, result, folder)
                if why:
                    notes.append(f"reprint.pdf not written: {why}")
                else:
                    files.append("reprint.pdf")
            text = "\n".join(summary(result) + notes) + "\n"
            (folder / "changes.txt").write_text(text, encoding="utf-8", newline="\n")
            files.append("changes.txt")
            swap_folder(folder, final, project.out)
    finally:
        if folder.exists():
            import shutil

            shutil.rmtree(folder, ignore_errors=True)
    return Written(result, final, files, notes)


def _write_reprint(project, game: str, wanted: dict, result: GameChanges, folder: Path) -> str:
    """Draw the wanted cards from the content and impose them; '' when written, else why not."""
    from pnpgen.exports import loaded
    from pnpgen.imposition import plan_for
    from pnpgen.pipeline.faces import DeckFaces
    from pnpgen.render.sheets import PdfWriter, impose

    run, diags = loaded(project, game, check=False)
    expected = {(c.new.component, c.new.name, c.new.nth): c.new for c in result.changes if c.new is not None}
    writer = None
    for deck_id, cards in sorted(wanted.items()):
        deck = run.game.component(deck_id)
        drawn = run.painter.deck(deck, diags)
        if drawn is None:
            raise ContentError(diags)
        chosen: list = []
        names: dict[str, int] = {}
        i = 0
        for card in deck.cards:
            names[card.name] = names.get(card.name, 0) + 1
            front, back = drawn.faces[i]
            i += card.count
            copies = cards.get((card.name, names[card.name]))
            if copies is None:
                continue
            record = expected[(deck_id, card.name, names[card.name])]
            if face_digest(front) != record.faces.get("front") or (
                back is not None and face_digest(back) != record.faces.get("back")
            ):
                return f"the content no longer draws '{card.name}' as the new build holds it; build it first"
            chosen += [(front, back)] * copies
        if not chosen:
            continue
        subset = DeckFaces(deck, chosen)
        plan = plan_for(deck, project.paper or run.paper)  # the new build's paper, else the game's
        if writer is None:
            writer = PdfWriter(
                folder / "reprint.pdf",
                (plan.paper_w, plan.paper_h),
                f"{run.game.title} — reprint",
                "only the cards that changed",
                run.icons,
            )
        words = run.game.words
        impose(writer, run.game.title, subset, plan, f" ({words('reprint')})", words=words)
    if writer is None:
        return "no card to print again"
    writer.save()
    return ""

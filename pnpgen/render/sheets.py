"""A deck's sheets: its faces imposed page by page, each sheet of fronts followed by its backs (or, folded,
beside them); `PdfWriter` draws one page of each kind."""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen.canvas import FILL_EVEN_ODD

from pnpgen.errors import counted
from pnpgen.imposition import Label, PiecePlan, SheetPlan, paginate
from pnpgen.imposition.duplex import LONG, Duplex
from pnpgen.imposition.fold import FoldPlan
from pnpgen.render.pdf import SEAM, FaceDrawer, _poly, clip_box, colour, new_canvas
from pnpgen.text.fonts import pdf_name, unit_width
from pnpgen.text.labels import shorten_label
from pnpgen.words import Words


def write_deck(
    path: Path, game_title: str, drawn, plan, icons: dict, paper: str, duplex: Duplex = LONG, *, words: Words
) -> int:
    """Write every sheet of a drawn deck (a `pipeline.faces.DeckFaces`), backs placed for `duplex`, labelled in
    the game's `words`; returns the page count."""
    deck, faces = drawn.deck, drawn.faces
    writer = PdfWriter(
        path,
        (plan.paper_w, plan.paper_h),
        f"{game_title} — {deck.name}",
        f"{deck.name}: {counted(len(faces), deck.kind.removesuffix('s'))}, {paper.upper()}",  # card, tile, token
        icons,
    )
    impose(writer, game_title, drawn, plan, duplex=duplex, words=words)
    writer.save()
    return writer.pages


def impose(
    writer: PdfWriter, game_title: str, drawn, plan, what: str = "", duplex: Duplex = LONG, *, words: Words
) -> None:
    """Add the sheets of one drawn deck to `writer` (several decks may share one file: a reprint); its margin
    labels in the game's `words`."""
    deck, faces = drawn.deck, drawn.faces
    sheets = paginate(len(faces), plan.per_sheet)
    fold = isinstance(plan, FoldPlan)
    backs = fold or drawn.has_backs  # once: it looks at every card
    writer.drawer.count(f for f, _ in faces)
    if backs:
        writer.drawer.count(b for _, b in faces)
    if fold:  # fronts and backs on one page
        for n, rng in enumerate(sheets, 1):
            label = f"{game_title} · {deck.name}{what} · {words('sheet_of', n=n, count=len(sheets))}"
            writer.fold_page(
                plan, [faces[i][0] for i in rng], [faces[i][1] for i in rng], label, words("fold_then_cut")
            )
        return
    page = writer.piece_page if isinstance(plan, PiecePlan) else writer.sheet_page
    for n, rng in enumerate(sheets, 1):
        label = f"{game_title} · {deck.name}{what} · {words('sheet_of', n=n, count=len(sheets))}"
        page(plan, [faces[i][0] for i in rng], False, f"{label} · {words('fronts')}")
        if backs:
            page(plan, [faces[i][1] for i in rng], True, f"{label} · {words('backs')}", duplex)


# A piece's cut guide (`PdfWriter._guides`): a dark hairline with a light halo outside it, seen on the darkest
# art and the lightest (a grey line alone vanished on dark tiles), as sheet cut marks over the bleed are.
GUIDE_LINE, GUIDE_HALO = ("#000000", 0.35), ("#ffffff", 1.0)


def _lines(c, marks) -> list[str]:
    """What `c.line` writes for each mark, written nowhere yet."""
    code, c._code = c._code, []
    try:
        for m in marks:
            c.line(m.x1, m.y1, m.x2, m.y2)
        return c._code
    finally:
        c._code = code


def _shape_path(c, spec):
    p = c.beginPath()
    if spec[0] == "circle":
        p.circle(spec[1], spec[2], spec[3])
    else:
        _poly(p, spec[1])
    return p


class PdfWriter:
    """One sheet PDF: faces imposed on pages with cut marks and labels."""

    def __init__(self, path: Path, page_size: tuple, title: str, subject: str, icons: dict):
        self.c = new_canvas(path, page_size, title, subject)
        self.drawer = FaceDrawer(self.c, icons)
        self.pages = 0
        self._clips: dict[tuple, str] = {}  # a slot's box -> its clipping path's text (`clip_box`)
        self._mark_lines: dict[tuple, tuple] = {}  # a page's cut marks -> their lines' text (`_marks`)

    def sheet_page(self, plan: SheetPlan, faces: list, back: bool, label: str, duplex: Duplex = LONG) -> None:
        c = self.c
        present = [f is not None for f in faces]  # an empty neighbour lets a face's bleed run on
        slots = plan.back_slots(duplex, present) if back else plan.opened(present)
        marks = plan.back_marks(duplex, present) if back else plan.cut_marks(present)
        for f in faces:
            if f is not None:
                self.drawer.prepare(f)
        drifted = back and self._drift(plan.paper_w, plan.paper_h, duplex)
        clips = self._clips
        for slot, face in zip(slots, faces):
            if face is None:
                continue
            # inner edges of a shared-cut grid get a hair of overlap so no viewer shows a seam between cards
            c.saveState()
            c.translate(slot.x, slot.y)
            left, bottom, right, top = (b if b > 0 else SEAM for b in slot.bleed)
            clip_box(c, clips, -left, -bottom, slot.w + left + right, slot.h + bottom + top)
            if back and duplex.turned:  # turned half round in its place
                c.translate(slot.w, slot.h)
                c.rotate(180)
            self.drawer.place(face)
            c.restoreState()
        self._marks(marks)
        self._label(plan.back_label(duplex, present) if back else plan.label_on(present), label)
        if drifted:
            c.restoreState()
        trim, bleed = plan.back_boxes(duplex) if back else (plan.trim_box, plan.bleed_box)
        c.setTrimBox(trim)
        c.setBleedBox(bleed)
        c.showPage()
        self.pages += 1

    def _marks(self, marks) -> None:
        """Cut marks: black hairlines; one drawn over the bleed gets a white halo so it shows on dark art. The
        lines' text is made once for each set of marks (every sheet of a deck has the same)."""
        c = self.c
        key = tuple(marks)
        lines = self._mark_lines.get(key)
        if lines is None:
            over = [m for m in marks if m.over]
            lines = self._mark_lines[key] = (_lines(c, over), _lines(c, marks))
        if lines[0]:
            c.setStrokeColor(colour("#ffffff"))
            c.setLineWidth(1.0)
            c._code.extend(lines[0])
        c.setStrokeColor(colour("#000000"))
        c.setLineWidth(0.25)
        c._code.extend(lines[1])

    def fold_page(self, plan, fronts: list, backs: list, label: str, how: str) -> None:
        """A fold-over sheet: fronts on one half, each back mirrored about the fold line on the other (turned
        half round when the fold runs across the page), cut marks outside, the fold line dashed; `how` (fold,
        then cut) ends its label."""
        c = self.c
        for face in fronts + backs:
            if face is not None:
                self.drawer.prepare(face)
        held = [f is not None for f in fronts], [b is not None for b in backs]
        opened = plan.opened(*held)
        for slots, faces, turned in ((opened[0], fronts, False), (opened[1], backs, plan.turned)):
            for slot, face in zip(slots, faces):
                if face is None:
                    continue
                left, bottom, right, top = (b if b > 0 else SEAM for b in slot.bleed)
                c.saveState()
                c.translate(slot.x, slot.y)
                clip_box(c, self._clips, -left, -bottom, slot.w + left + right, slot.h + bottom + top)
                if turned:
                    c.translate(slot.w, slot.h)
                    c.rotate(180)
                self.drawer.place(face)
                c.restoreState()
        c.setStrokeColor(colour("#000000"))
        c.setLineWidth(0.25)
        for m in plan.cut_marks(*held):  # a partial sheet's: only its faces' cut lines
            c.line(m.x1, m.y1, m.x2, m.y2)
        x0, y0, x1, y1 = plan.bleed_box
        c.saveState()
        c.setStrokeColor(colour("#777777"))
        c.setDash(4, 3)
        if plan.along:
            c.line(plan.fold, y0, plan.fold, y1)
        else:
            c.line(x0, plan.fold, x1, plan.fold)
        c.restoreState()
        self._label(plan.label, f"{label} · {how}")
        c.setTrimBox(plan.trim_box)
        c.setBleedBox(plan.bleed_box)
        c.showPage()
        self.pages += 1

    def _drift(self, paper_w: float, paper_h: float, duplex: Duplex) -> bool:
        """Move everything drawn on a back page by the printer's offset (and turn it by its angle about the
        page's centre); True when it did, and the caller restores the state once the page is drawn."""
        if not duplex.moved:
            return False
        c = self.c
        c.saveState()
        c.translate(duplex.dx + paper_w / 2, duplex.dy + paper_h / 2)
        c.rotate(duplex.angle)
        c.translate(-paper_w / 2, -paper_h / 2)
        return True

    def piece_page(self, plan, faces: list, back: bool, label: str, duplex: Duplex = LONG) -> None:
        """Shaped pieces: each face cut to its outline; fronts carry a cut guide along every outline."""
        c = self.c
        present = [f is not None for f in faces]  # an empty neighbour lets a face's bleed run on
        slots = plan.back_slots(duplex, present) if back else plan.opened(present)
        for f in faces:
            if f is not None:
                self.drawer.prepare(f)
        drifted = back and self._drift(plan.paper_w, plan.paper_h, duplex)
        for slot, face in zip(slots, faces):
            if face is None:
                continue
            c.saveState()
            c.clipPath(_shape_path(c, slot.clip), stroke=0, fill=0)
            c.translate(slot.x, slot.y)
            if not slot.up:  # a point-down triangle shows its face turned half round
                c.translate(slot.w, slot.h)
                c.rotate(180)
            self.drawer.place(face)
            c.restoreState()
        if not back:
            self._guides([slot.guide for slot, face in zip(slots, faces) if face is not None], plan)
        if back:
            x, y = duplex.point(plan.label.x, plan.label.y, plan.paper_w, plan.paper_h)
            self._label(Label(x, y, plan.label.length, plan.label.thickness, False), label)
            if drifted:
                c.restoreState()
        else:
            self._label(plan.label, label)
        c.setTrimBox(plan.boxes(back, duplex, present))
        c.setBleedBox(plan.bleed_box(back, duplex, present))
        c.showPage()
        self.pages += 1

    def _guides(self, guides: list, plan) -> None:
        """Each piece's cut guide: a dark hairline on its outline, with a light halo outside it only (on the
        bleed, cut away), so it shows on the darkest art and the lightest and leaves no light edge on the
        piece. Every halo first: a neighbour's never covers a guide."""
        c = self.c
        c.saveState()
        c.setStrokeColor(colour(GUIDE_HALO[0]))
        c.setLineWidth(GUIDE_HALO[1])
        for guide in guides:
            c.saveState()
            outside = _shape_path(c, guide)
            outside.rect(0, 0, plan.paper_w, plan.paper_h)
            c.clipPath(outside, stroke=0, fill=0, fillMode=FILL_EVEN_ODD)
            c.drawPath(_shape_path(c, guide), stroke=1, fill=0)
            c.restoreState()
        c.setStrokeColor(colour(GUIDE_LINE[0]))
        c.setLineWidth(GUIDE_LINE[1])
        for guide in guides:
            c.drawPath(_shape_path(c, guide), stroke=1, fill=0)
        c.restoreState()

    def _label(self, lb: Label, text: str) -> None:
        c = self.c
        font = "sans"
        size = min(7.0, lb.thickness * 0.7, lb.length / max(unit_width(text, font), 1e-6))
        size = max(size, 3.5)
        text = shorten_label(text, font, size, lb.length)  # a long name is cut, never pushed off the page
        c.saveState()
        c.setFillColor(colour("#555555"))
        c.setFont(pdf_name(font), size)
        c.translate(lb.x, lb.y)
        if lb.rotate:
            c.rotate(90)
        c.drawCentredString(0, -size * 0.35, text)
        c.restoreState()

    def save(self) -> None:
        self.c.save()

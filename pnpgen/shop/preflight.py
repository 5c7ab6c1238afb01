"""Preflight: what a print shop or factory would say about a game's files, said first and at the content.

Every distinct face is drawn at the target's bleed with its operations traced to the layout elements that drew
them (`FaceContext.origins`), so a finding names the element (file:line:column) and the card. The same finding
on many cards is one line with a count. Errors are what the shop would reject or print wrong (ink over its limit,
transparency in PDF/X-1a); warnings are what it would print, at a risk (text in the cut band or outside the safe
zone, art under 300 effective dpi, a size it does not sell). A face whose bleed is not filled on every side is
an error: the file's bleed box would claim what is not there.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from pnpgen.artcolour import ProfileError, profile_of
from pnpgen.colours import cmyk_of, is_cmyk
from pnpgen.errors import Diagnostics, Location, display_path
from pnpgen.faces import Ellipse, Icon, Image, Line, Polygon, Rect, Text, Vector, turned
from pnpgen.model import Board, Deck
from pnpgen.shop import sizes
from pnpgen.shop.bleed import missing_bleed, reaching_trim
from pnpgen.shop.targets import ShopTarget
from pnpgen.units import MM


@dataclass(frozen=True)
class Finding:
    severity: str  # error | warning
    code: str  # size, bleed, safe-zone, cut-band, text-size, ink, transparency, art-dpi, die-spacing
    location: Location
    message: str
    cards: tuple = ()  # the labels of the cards it applies to


@dataclass
class Findings:
    target: ShopTarget
    trials: dict = field(default_factory=dict)  # SVG art (path, digest) -> what its trial separation found
    # (severity, code, element location) -> [worst, message, card labels]: one line per element and kind of
    # finding, saying the worst case (`rank`: larger is worse) and every card it applies to
    items: dict = field(default_factory=dict)

    def add(
        self, severity: str, code: str, loc: Location, message: str, card: str = "", rank: float = 0.0
    ) -> None:
        entry = self.items.setdefault((severity, code, loc), [rank, message, []])
        if rank > entry[0]:
            entry[0], entry[1] = rank, message
        if card and card not in entry[2]:
            entry[2].append(card)

    def all(self) -> list[Finding]:
        found = [Finding(s, c, loc, m, tuple(cards)) for (s, c, loc), (_, m, cards) in self.items.items()]
        return sorted(found, key=lambda f: (f.location, f.severity, f.code))

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.all() if f.severity == "error"]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.all() if f.severity == "warning"]

    def report_into(self, diags: Diagnostics) -> None:
        for f in self.all():
            text = f"[{self.target.name}] {f.message}" + _on(f.cards)
            (diags.error if f.severity == "error" else diags.warning)(f.location, text)

    def as_json(self) -> str:
        rows = [
            {
                "severity": f.severity,
                "code": f.code,
                "file": f.location.path,
                "line": f.location.line,
                "column": f.location.col,
                "at": str(f.location),  # a data sheet's cell reads `file:Sheet!C14`
                "message": f.message,
                "cards": list(f.cards),
            }
            for f in self.all()
        ]
        return json.dumps({"target": self.target.name, "findings": rows}, indent=2, ensure_ascii=False) + "\n"


def _on(cards: tuple) -> str:
    if not cards:
        return ""
    more = f" and {len(cards) - 1} more" if len(cards) > 1 else ""
    return f"; on {cards[0]}{more}"


def preflight(run, target: ShopTarget, components: list) -> Findings:
    """Every finding for `components` of the loaded game `run` under `target`."""
    found = Findings(target)
    for comp in components:
        if isinstance(comp, Board):
            if target.name == "tgc":  # The Game Crafter sells boards of its own sizes
                _tgc_size(target, comp, found)
            elif target.name != "dtc":
                _board(run, target, comp, found)
            continue
        if target.name == "dtc" and comp.kind != "cards":
            continue  # DriveThruCards prints card decks
        _deck(run, target, comp, found)
    return found


def _tgc_size(target: ShopTarget, comp, found: Findings) -> None:
    """A tile, token or board size The Game Crafter does not sell, and a board side it would not print."""
    shape = getattr(comp, "shape", "rect")
    message = sizes.unsold_product_message(comp.kind, shape, comp.width_pt, comp.height_pt)
    if message:
        found.add("warning", "size", comp.loc, message)
        return
    product = sizes.match_product(comp.kind, shape, comp.width_pt, comp.height_pt)
    if isinstance(comp, Board) and product is not None and comp.faces > product.sides:
        found.add(
            "warning",
            "sides",
            comp.loc,
            f"the {product.name} prints one side; this board has {comp.faces}: its other sides are written "
            "but the product will not carry them",
        )


def _deck(run, target: ShopTarget, deck: Deck, found: Findings) -> None:
    if target.sells_sizes and deck.kind == "cards":
        message = sizes.unsold_message(deck.width_pt, deck.height_pt, target.name, target.title)
        if message:
            found.add("warning", "size", deck.loc, message)
    elif target.name == "tgc":
        _tgc_size(target, deck, found)
    if target.die_gap_pt and deck.kind != "cards":
        from pnpgen.shop.punchboard import plan

        try:
            plan(1, deck.width_pt, deck.height_pt, target.die_gap_pt)
        except ValueError as exc:
            found.add("error", "die-spacing", deck.loc, str(exc))
    origins: dict = {}
    diags = Diagnostics()  # drawing problems are the build's to report; preflight reads what was drawn
    drawn = run.painter.deck(deck, diags, bleed_pt=target.bleed_pt, origins=origins)
    if drawn is None:
        return
    seen = set()
    for front, back, _count, _name in drawn.distinct():
        for face in (front, back):
            if face is None or face in seen:
                continue
            seen.add(face)
            spans, label, layout_loc = origins.get(face, ((), "", deck.loc))
            _face(run, target, face, spans, label, layout_loc, found)


def _board(run, target: ShopTarget, board: Board, found: Findings) -> None:
    """A board's sides, as the PDF/X targets write them (each side a page at the board's own bleed)."""
    origins: dict = {}
    drawn = run.painter.board(board, Diagnostics(), origins=origins)
    if drawn is None:
        return
    for face, side in zip(drawn.faces, board.sides):
        spans, _label, layout_loc = origins.get(face, ((), "", board.loc))
        label = f"side '{side.id}' of board '{board.id}'"
        _face(run, target, face, spans, label, layout_loc, found)
        if board.bleed_pt < target.bleed_pt - 0.01 and (reaching := reaching_trim(face)):
            found.add(  # its page keeps the board's own bleed: a cut off by a little shows white
                "warning",
                "bleed",
                board.loc,
                f"board '{board.id}' has {board.bleed_pt / MM:.1f} mm of bleed, under the {target.bleed_pt / MM:.1f}"
                f" mm {target.title} asks, and its art reaches the trim at the {', '.join(reaching)}: give it "
                f"`bleed: {target.bleed_pt / MM:g}mm` and the art over it",
                label,
            )


def _face(run, target: ShopTarget, face, spans, label: str, layout_loc: Location, found: Findings) -> None:
    missing = missing_bleed(face)
    if missing:  # the file's boxes would claim a bleed that is not there: the shop cuts into white
        sides = ", ".join(missing)
        found.add(
            "error",
            "bleed",
            layout_loc,
            f"nothing fills the {target.bleed_pt / MM:.1f} mm bleed at the {sides}: a white edge would show "
            "after cutting; extend the background or art over the bleed (such as `area: bleed`)",
            label,
        )
    where = {}
    for start, end, element in spans:
        for i in range(start, end):
            where[i] = element
    for i, op in enumerate(face.ops):
        element = where.get(i)
        loc = element.loc if element is not None else layout_loc

        def at(*keys, element=element, loc=loc) -> Location:
            """The location of the first of `keys` the element sets (the value that causes a finding)."""
            for key in keys:
                value = element.props.get(key) if element is not None else None
                if value is not None and getattr(value, "loc", None) is not None and value.loc.line:
                    return value.loc
            return loc

        _colours(target, op, at, label, found)
        if isinstance(op, Text) and op.text.strip():
            _text(target, face, op, loc, at("size", "min_size"), label, found)
        elif isinstance(op, Icon):
            _box(target, face, (op.x, op.y, op.x + op.w, op.y + op.h), f"icon '{op.name}'", loc, label, found)
            if target.cmyk:
                icon = run.icons.get(op.name)
                if any(getattr(s, "opacity", 1.0) < 1 for s in getattr(icon, "shapes", ())):
                    found.add(
                        "error",
                        "transparency",
                        loc,
                        f"icon '{op.name}' has see-through shapes (opacity); PDF/X-1a allows no transparency: "
                        "give those shapes solid colours",
                        label,
                    )
        elif isinstance(op, Image):
            _image(target, op, loc, label, found)
        elif isinstance(op, Vector) and target.cmyk:
            _vector(run, target, op, loc, label, found)


def _text(
    target: ShopTarget, face, op: Text, loc: Location, size_loc: Location, label: str, found: Findings
) -> None:
    from pnpgen.text.fonts import unit_width, vertical_metrics

    if op.size < target.min_text_pt - 0.005:
        found.add(
            "warning",
            "text-size",
            size_loc,
            f"text set at {op.size:.1f} pt, under the {target.min_text_pt:g} pt {target.title} prints legibly",
            label,
            rank=-op.size,
        )
    ascent, descent = vertical_metrics(op.font)
    width = unit_width(op.text, op.font) * op.size
    box = turned(op, (op.x, op.y - ascent * op.size, op.x + width, op.y + descent * op.size))
    _box(target, face, box, f"text '{_clip(op.text)}'", loc, label, found)


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 30 else text[:27] + "..."


def _box(target: ShopTarget, face, box, what: str, loc: Location, label: str, found: Findings) -> None:
    """Text and icons stay inside the safe zone; past the trim they are in the cut band."""
    x0, y0, x1, y1 = box
    w, h, s = face.width_pt, face.height_pt, target.safe_pt
    if face.shape not in ("rect", "square"):
        return  # a shaped piece's safe zone follows its outline: not checked yet
    if x0 < -0.01 or y0 < -0.01 or x1 > w + 0.01 or y1 > h + 0.01:
        found.add("warning", "cut-band", loc, f"{what} reaches past the trim into the cut band", label)
    elif min(x0, y0, w - x1, h - y1) < s - 0.15:  # 0.05 mm: what rounding a layout in mm leaves
        edge = min(x0, y0, w - x1, h - y1)
        found.add(
            "warning",
            "safe-zone",
            loc,
            f"{what} comes within {max(edge, 0) / MM:.1f} mm of the trim; keep it {s / MM:.1f} mm inside "
            "(the safe zone), where cutting cannot reach",
            label,
            rank=-edge,
        )


KEYS = {
    "fill": ("fill", "cell_fill"),
    "stroke": ("stroke", "cell_stroke"),
    "color": ("color",),
    "tint": ("color",),
}


def _colours(target: ShopTarget, op, at, label: str, found: Findings) -> None:
    """Ink over the limit and transparency; `at(*keys)` locates the layout key that set the value."""
    if not target.cmyk:
        return
    for attr in ("fill", "stroke", "color", "tint"):
        value = getattr(op, attr, None)
        if isinstance(value, str) and is_cmyk(value):
            ink = sum(cmyk_of(value))
            if ink > target.ink_limit + 1e-6:
                found.add(
                    "error",
                    "ink",
                    at(*KEYS[attr]),
                    f"{value} is {ink * 100:.0f} % ink, over the {target.ink_limit * 100:.0f} % "
                    f"{target.title} allows",
                    label,
                    rank=ink,
                )
    opacity = getattr(op, "opacity", 1.0)
    if isinstance(op, (Rect, Ellipse, Polygon, Line)) and opacity < 1:
        found.add(
            "error",
            "transparency",
            at("opacity"),
            f"opacity {opacity:g}: PDF/X-1a allows no transparency; give a solid colour instead",
            label,
        )


def _vector(run, target: ShopTarget, op: Vector, loc: Location, label: str, found: Findings) -> None:
    """SVG art the separation could not turn to CMYK, or that brings transparency: it is drawn alone, separated
    and checked as an export would (once per file), so what would be left in RGB is said here, at the element."""
    key = (op.path, op.digest)
    if key not in found.trials:
        found.trials[key] = _trial(run, target, op)
    name = display_path(op.path)
    for problem in found.trials[key]:
        code = "transparency" if any(w in problem for w in ("transparency", "alpha")) else "colour"
        found.add(
            "error",
            code,
            loc,
            f"art {name}: {problem}; PDF/X-1a would refuse it: "
            + ("flatten it to solid colours" if code == "transparency" else "save it with plain RGB fills"),
            label,
        )


def _trial(run, target: ShopTarget, op: Vector) -> list[str]:
    import tempfile
    from dataclasses import replace
    from pathlib import Path

    from pnpgen.faces import Face
    from pnpgen.render.pdf import write_face_pages
    from pnpgen.shop.pdfx import make_pdfx, problems
    from pnpgen.shop.separate import SeparationError

    alone = replace(op, x=0.0, y=0.0, clip=(0.0, 0.0, op.w, op.h))
    with tempfile.TemporaryDirectory(prefix="pnpgen-preflight-") as tmp:
        drawn, made = Path(tmp) / "art.pdf", Path(tmp) / "art-x.pdf"
        try:
            write_face_pages(drawn, [Face(op.w, op.h, 0.0, (alone,))], 0.0, run.icons, "preflight")
        except Exception:  # noqa: BLE001 - art that cannot be drawn is the build's to report
            return []
        try:
            make_pdfx(drawn, made, target, "preflight", 0.0)
        except SeparationError as exc:
            return [f"{exc}, which would be left in RGB"]
        return problems(made)


def _image(target: ShopTarget, op: Image, loc: Location, label: str, found: Findings) -> None:
    from PIL import Image as PILImage

    try:
        with PILImage.open(op.path) as im:
            px_w, px_h = im.size
            alpha = im.mode in ("RGBA", "LA", "PA") or "transparency" in im.info
            mode = im.mode
            try:
                profile = profile_of(im.info.get("icc_profile"))
                unreadable = ""
            except ProfileError as exc:
                profile, unreadable = None, str(exc)
    except OSError:
        return  # the build reports unreadable art
    dpi = min(px_w / (op.w / 72), px_h / (op.h / 72)) if op.w > 0 and op.h > 0 else target.min_dpi
    name = display_path(op.path)
    if dpi < target.min_dpi - 0.5:
        found.add(
            "warning",
            "art-dpi",
            loc,
            f"art {name} prints at {dpi:.0f} effective dpi, under the {target.min_dpi:.0f} dpi a shop asks",
            label,
            rank=-dpi,
        )
    if unreadable:
        found.add(
            "warning",
            "art-profile",
            loc,
            f"art {name} carries {unreadable}: its colours are printed as if they were sRGB; save the file "
            "with an sRGB profile (or none) first",
            label,
        )
    elif profile is not None and mode in ("RGB", "RGBA", "P") and profile[1] != "RGB":
        found.add(
            "warning",
            "art-profile",
            loc,
            f"art {name} is RGB but carries the {profile[1]} colour profile '{profile[0]}', which cannot describe "
            "its pixels: its colours are printed as if they were sRGB; save it with an RGB profile",
            label,
        )
    elif target.cmyk and mode == "CMYK":
        described = f" (its profile: '{profile[0]}')" if profile else ""
        found.add(
            "warning",
            "art-profile",
            loc,
            f"art {name} is CMYK{described}: its inks go to the printer as they are, not separated for "
            f"{target.condition_name}; separate it for that condition, or give it in RGB",
            label,
        )
    if target.cmyk and alpha:
        found.add(
            "error",
            "transparency",
            loc,
            f"art {name} has an alpha channel; PDF/X-1a allows no transparency: flatten it onto its background",
            label,
        )

"""`text`: text set in its box, shrunk down to `min_size` to fit; `:icon:` names inline icons."""

from __future__ import annotations

from dataclasses import replace

from pnpgen import units
from pnpgen.faces import Icon
from pnpgen.faces import Text as TextOp
from pnpgen.layout.draw import DrawProblem
from pnpgen.layout.kinds import BOX, Choice, Colour, ElementType, FontName, Length, Number, QuarterTurn, Text
from pnpgen.layout.warnings import outside_safe
from pnpgen.text.fit import fit_text, stray_markup
from pnpgen.text.fonts import MissingStyle, fallback_chain, missing_glyphs


def draw(p, fc, ops, label, diags) -> None:
    x, y, w, h = p.get("x"), p.get("y"), p.get("w"), p.get("h")
    turn = p.get("rotate")
    across = turn in (90, 270)  # the lines run down or up the box: set in a box of its height by its width
    text = p.raw("text")
    if text is None or not str(text).strip():
        return
    text = p.get("text")
    font = p.get("font")
    size = p.get("size")
    min_size = p.get("min_size", round(size * 0.6, 2))
    if min_size > size:
        min_size = size
    try:
        fitted = fit_text(
            text,
            x=0 if turn else x,
            y=0 if turn else y,
            w=h if across else w,
            h=w if across else h,
            font=font,
            size=size,
            min_size=min_size,
            color=p.get("color") or "#000000",
            align=p.get("align"),
            valign=p.get("valign"),
            leading=p.get("leading"),
            is_icon=lambda n: n in fc.icons,
            tint=None,
            fallbacks=fallback_chain(fc.fonts),  # the game's own fonts first, then pnpgen's
        )
    except MissingStyle as exc:  # **bold** or *italic* in a game family without that file: never substituted
        p.fail(
            "text",
            f"asks for the {exc.style} of the font '{exc.family}' (**bold** or *italic*), which the game gives "
            f"no file for (fonts: {exc.family}: {exc.style}: ...)",
        )
    for problem in stray_markup(text, lambda n: n in fc.icons, fc.icons):  # printed, but not as meant
        fc.note(p.loc("text"), problem, label)
    if not fitted.fits:
        need = (
            f"a word is {'longer' if across else 'wider'} than the box"
            if fitted.too_wide
            else f"its lines take {units.mm(fitted.height):.1f} mm" + (" across" if across else "")
        )
        raise DrawProblem(
            p.loc("text"),
            f"text does not fit its {units.mm(w):.1f} x {units.mm(h):.1f} mm box"
            + (f" (turned {turn} degrees)" if turn else "")
            + f" even at the minimum size {min_size:g} pt ({need}): {_short(text)!r}",
        )
    placed = _turned(fitted.ops, turn, (x, y, w, h)) if turn else fitted.ops
    for op in placed:
        if isinstance(op, TextOp):
            lost = missing_glyphs(op.text, op.font)
            if lost:
                codes = ", ".join(f"'{ch}' (U+{ord(ch):04X})" for ch in lost)
                fc.note(p.loc("text"), f"the font {op.font} has no {codes}; it would not print", label)
    if outside_safe(placed, fc):
        fc.note(
            p.el.loc,
            f"text reaches outside the safe zone ({units.mm(fc.safe_pt):g} mm inside the cut)",
            label,
        )
    ops.extend(placed)


def _turned(ops, turn: int, box: tuple) -> list:
    """The runs and inline icons set in a box at (0, 0) as wide as the element's box is tall (for a half turn,
    as wide), turned `turn` degrees clockwise into the element's box: each run about its origin, each icon
    about its centre."""
    x, y, w, h = box

    def place(u: float, v: float) -> tuple[float, float]:
        if turn == 90:  # the box's top-left corner goes to its top-right; lines run down
            return x + w - v, y + u
        if turn == 180:
            return x + w - u, y + h - v
        return x + v, y + h - u  # 270: lines run up, from the bottom-left corner

    out: list = []
    for op in ops:
        if type(op) is TextOp:
            px, py = place(op.x, op.y)
            out.append(replace(op, x=px, y=py, turn=turn))
        elif type(op) is Icon:
            cx, cy = place(op.x + op.w / 2, op.y + op.h / 2)
            iw, ih = (op.h, op.w) if turn != 180 else (op.w, op.h)
            out.append(replace(op, x=cx - iw / 2, y=cy - ih / 2, w=iw, h=ih, turn=turn))
        else:  # fitting sets runs and icons only
            raise TypeError(f"cannot turn {type(op).__name__}")
    return out


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."


TYPE = ElementType(
    "text",
    keys={
        **BOX,
        "text": Text(),
        "font": FontName("sans"),
        "size": Length("pt", 9, "positive"),
        "min_size": Length("pt", least="positive"),
        "color": Colour("black"),
        "align": Choice(("left", "center", "right", "justify"), "left"),
        "valign": Choice(("top", "middle", "bottom"), "top"),
        "leading": Number(0.5, 4, 1.2),
        "rotate": QuarterTurn(),
    },
    draw=draw,
    required=("x", "y", "w", "h", "text"),
    example="{type: text, x: 5, y: 5, w: 40, h: 10, text: Hello, align: center}",  # for tests/test_elements.py: every type draws its example
    draws=("Text",),
    text_size="size",
)

"""`text`: text set in its box, shrunk down to `min_size` to fit; `:icon:` names inline icons."""

from __future__ import annotations

from pnpgen import units
from pnpgen.faces import Text as TextOp
from pnpgen.layout.draw import DrawProblem
from pnpgen.layout.kinds import BOX, Choice, Colour, ElementType, FontName, Length, Number, Text
from pnpgen.layout.warnings import outside_safe
from pnpgen.text.fit import fit_text, stray_markup
from pnpgen.text.fonts import MissingStyle, fallback_chain, missing_glyphs


def draw(p, fc, ops, label, diags) -> None:
    x, y, w, h = p.get("x"), p.get("y"), p.get("w"), p.get("h")
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
            x=x,
            y=y,
            w=w,
            h=h,
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
            "a word is wider than the box"
            if fitted.too_wide
            else f"its lines take {units.mm(fitted.height):.1f} mm"
        )
        raise DrawProblem(
            p.loc("text"),
            f"text does not fit its {units.mm(w):.1f} x {units.mm(h):.1f} mm box "
            f"even at the minimum size {min_size:g} pt ({need}): {_short(text)!r}",
        )
    for op in fitted.ops:
        if isinstance(op, TextOp):
            lost = missing_glyphs(op.text, op.font)
            if lost:
                codes = ", ".join(f"'{ch}' (U+{ord(ch):04X})" for ch in lost)
                fc.note(p.loc("text"), f"the font {op.font} has no {codes}; it would not print", label)
    if outside_safe(fitted.ops, fc):
        fc.note(
            p.el.loc,
            f"text reaches outside the safe zone ({units.mm(fc.safe_pt):g} mm inside the cut)",
            label,
        )
    ops.extend(fitted.ops)


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
    },
    draw=draw,
    required=("x", "y", "w", "h", "text"),
    example="{type: text, x: 5, y: 5, w: 40, h: 10, text: Hello, align: center}",  # for tests/test_elements.py: every type draws its example
    draws=("Text",),
    text_size="size",
)

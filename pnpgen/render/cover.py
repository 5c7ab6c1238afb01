"""A rulebook's cover: the game's own colours and art (`cover.yaml`, its art a diagram), else pnpgen's colours
with the pictured cards' faces."""

from __future__ import annotations

from pnpgen.render.diagram import DiagramFlowable
from pnpgen.render.flowables import drawer_for
from pnpgen.render.pdf import colour as rl_colour
from pnpgen.text.fonts import pdf_name, unit_width
from pnpgen.text.labels import shorten
from pnpgen.units import MM, paper_pt


def colours(cover=None, low: bool = False) -> tuple[str, str, str]:
    """(ground, ink, accent) of the cover: the game's own (`cover.yaml`), else pnpgen's; in low ink the ground
    is the paper and the words near-black."""
    ground, ink, accent = (
        (cover.background, cover.ink, cover.accent)
        if cover is not None
        else ("#2b2140", "#f3e6c4", "#d8b45a")
    )
    if low:
        ground, ink = "#ffffff", "#1f1d1a"
    return ground, ink, accent


def _ground_and_frame(canv, pw, ph, ground, accent) -> None:
    canv.setFillColor(rl_colour(ground))
    canv.rect(0, 0, pw, ph, stroke=0, fill=1)
    canv.setStrokeColor(rl_colour(accent))
    canv.setLineWidth(1.5)
    canv.rect(12 * MM, 12 * MM, pw - 24 * MM, ph - 24 * MM, stroke=1, fill=0)
    canv.setLineWidth(0.5)
    canv.rect(14.5 * MM, 14.5 * MM, pw - 29 * MM, ph - 29 * MM, stroke=1, fill=0)


def _foot(canv, game, pw, ink, accent) -> None:
    """The credits and the edition line at a cover's foot."""
    canv.setFillColor(rl_colour(ink))
    if game.credits:
        canv.setFont(pdf_name("sans-italic"), 9)
        canv.drawCentredString(pw / 2, 24 * MM, game.credits)
    _centred(canv, game.words("edition"), "sans", 7.5, pw, 18 * MM, accent)


def _players(game) -> str:
    """Who the game is for: "For 2–4 players", or for a game of one player alone "For 1 player"."""
    if game.players_max == 1:
        return game.words("for_one_player")
    return game.words("for_players", players=game.players)


def _centred(canv, text: str, font: str, size: float, pw: float, y: float, fill: str | None = None) -> None:
    """One line of the cover's words, centred (in `fill`, set after the font), made smaller (to half its size at
    most) to fit inside the frame: a translation may be longer than the English."""
    room = pw - 40 * MM
    size = max(size / 2, min(size, room / max(unit_width(text, font), 1e-6)))
    canv.setFont(pdf_name(font), size)
    if fill is not None:
        canv.setFillColor(rl_colour(fill))
    canv.drawCentredString(pw / 2, y, shorten(text, font, size, room))


def draw_cover(canv, game, pictures, icons, pw, ph, cover=None, low: bool = False):
    """The cover: the game's own colours and art (`cover.yaml`), else pnpgen's, with the pictured cards' faces;
    its words in the game's (`game.words`).
    In low ink (`low`) the ground is the paper and the words near-black; the accent keeps the frame's lines."""
    ground, ink, accent = colours(cover, low)
    canv.saveState()
    _ground_and_frame(canv, pw, ph, ground, accent)
    canv.setFillColor(rl_colour(ink))
    title = game.title
    size = 44
    while unit_width(title, "display-bold") * size > pw - 40 * MM and size > 18:
        size -= 1
    canv.setFont(pdf_name("display-bold"), size)
    canv.drawCentredString(pw / 2, ph - 58 * MM, title)
    _centred(canv, game.words("rules_of_play"), "display", 16, pw, ph - 72 * MM, accent)
    _centred(canv, _players(game), "sans", 11, pw, ph - 84 * MM, ink)
    _foot(canv, game, pw, ink, accent)
    if cover is not None and cover.art is not None:
        box_w, box_h = pw - 44 * MM, ph - 84 * MM - 44 * MM - 14 * MM
        art = DiagramFlowable(cover.art, icons, box_w, max_h=box_h, bare=True)
        x, y = 22 * MM, 34 * MM + (box_h - art.height) / 2
        canv.saveState()
        canv.translate(x, y)
        art.canv = canv
        art.draw()
        canv.restoreState()
        canv.setStrokeColor(rl_colour(accent))
        canv.setLineWidth(1)
        canv.rect(x + art.left, y, art.pic_w, art.height, stroke=1, fill=0)
        canv.restoreState()
        return
    fronts = [f for f, _ in pictures.values()][:3]
    if fronts:
        drawer = drawer_for(canv, icons)
        card_w = 52 * MM
        gap = 8 * MM
        total = len(fronts) * card_w + (len(fronts) - 1) * gap
        x = (pw - total) / 2
        for face in fronts:
            scale = card_w / face.width_pt
            y = ph / 2 - 60 * MM - (face.height_pt * scale - 72 * MM) / 2
            drawer.draw_face(face, x, y, scale, bleed=False)
            x += card_w + gap
    canv.restoreState()


def draw_back_cover(canv, game, pw, ph, cover=None) -> None:
    """The back of a printed booklet: the cover's ground and frame, the title small, what the box holds to
    play (players) and the credits; nothing a reader needs is only here."""
    ground, ink, accent = colours(cover)
    canv.saveState()
    _ground_and_frame(canv, pw, ph, ground, accent)
    title = game.title
    size = 22
    while unit_width(title, "display-bold") * size > pw - 50 * MM and size > 12:
        size -= 1
    canv.setFillColor(rl_colour(ink))
    canv.setFont(pdf_name("display-bold"), size)
    canv.drawCentredString(pw / 2, ph / 2 + 8 * MM, title)
    canv.setFillColor(rl_colour(accent))
    _centred(canv, _players(game), "display", 12, pw, ph / 2 - 2 * MM)
    _foot(canv, game, pw, ink, accent)
    canv.restoreState()


def write_back_cover(path, game, paper: str, cover=None) -> None:
    """The back cover alone, a one-page PDF at the rulebook's paper (the booklet puts it last)."""
    from pnpgen import __version__
    from pnpgen.render.finite import FiniteCanvas

    pw, ph = paper_pt(paper)
    canv = FiniteCanvas(str(path), pagesize=(pw, ph), invariant=1, pageCompression=1)
    canv.setCreator(f"pnpgen {__version__}")
    draw_back_cover(canv, game, pw, ph, cover)
    canv.showPage()
    canv.save()

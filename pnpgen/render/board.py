"""Boards: each side tiled at true size across A4 or Letter pages, and each side on one full-size page.

Tiled pages: each page shows a window of the board; neighbouring windows overlap by a strip (10 mm) in which
alignment crosses are printed at the same board positions on both pages. A dashed line marks where a page's
overlap begins; a first page maps which page goes where. The board is drawn once per side (a Form XObject) and
every page clips to its window and places the form shifted.
"""

from __future__ import annotations

from pathlib import Path

from pnpgen.imposition.boards import CROSS, MARGIN, OVERLAP, Window, crosses, page_size, tile_windows
from pnpgen.render.pdf import FaceDrawer, colour, new_canvas
from pnpgen.text.breaks import tokens
from pnpgen.text.fit import break_word
from pnpgen.text.fonts import pdf_name, unit_width
from pnpgen.text.labels import shorten, shorten_label
from pnpgen.units import MM
from pnpgen.words import Words


def write_board_tiled(
    path: Path, board, faces: list, icons: dict, paper: str, title: str, *, words: Words
) -> int:
    b = board.bleed_pt
    c = new_canvas(path, page_size(board.width_pt + 2 * b, board.height_pt + 2 * b, paper), title)
    pages = draw_board_tiled(c, FaceDrawer(c, icons), board, faces, paper, words=words)
    c.save()
    return pages


def draw_board_tiled(
    c, drawer: FaceDrawer, board, faces: list, paper: str, after_page=None, *, words: Words
) -> int:
    """Add a board's tiled pages to the canvas `c` (each side's map page first when it takes several pages; the
    pages' labels in the game's `words`); `after_page()` is called after each page (the print-all file adds a
    blank back there); returns the count."""
    b = board.bleed_pt
    pw, ph = page_size(board.width_pt + 2 * b, board.height_pt + 2 * b, paper)
    pages = 0
    total_w, total_h = board.width_pt + 2 * b, board.height_pt + 2 * b
    for side, face in zip(board.sides, faces):
        windows, rows, cols, ww, wh = tile_windows(total_w, total_h, (pw, ph))
        marks = crosses(total_w, total_h, rows, cols, ww, wh)
        if len(windows) > 1:  # a board on one page needs no map
            c.setPageSize((pw, ph))
            _map_page(c, board, side, windows, rows, cols, total_w, total_h, pw, ph, words)
            pages += 1
            if after_page is not None:
                after_page()
        form = drawer.face_form(face)
        for win in windows:
            c.setPageSize((pw, ph))
            left, top = MARGIN, ph - MARGIN  # the window's top-left on the page
            bottom = top - win.h
            c.saveState()
            p = c.beginPath()
            p.rect(left, bottom, win.w, win.h)
            c.clipPath(p, stroke=0, fill=0)
            # board point (bx, by) lands at (left + bx - ox, bottom + by - oy); the form's origin is the trim
            c.translate(left - win.ox + b, bottom - win.oy + b)
            c.doForm(form)
            c.restoreState()
            _window_marks(c, win, marks, rows, cols, left, bottom)
            where = words("board_page", row=win.row + 1, col=win.col + 1, rows=rows, cols=cols)
            _label(c, f"{board.name} · {side.name} · {where}", pw)
            c.setTrimBox((left, bottom, left + win.w, bottom + win.h))
            c.setBleedBox((left, bottom, left + win.w, bottom + win.h))
            c.showPage()
            pages += 1
            if after_page is not None:
                after_page()
    return pages


def _window_marks(c, win: Window, marks, rows, cols, left, bottom) -> None:
    c.saveState()
    c.setStrokeColor(colour("#000000"))
    c.setLineWidth(0.4)
    for bx, by in marks:
        x, y = left + bx - win.ox, bottom + by - win.oy
        if left - 0.01 <= x <= left + win.w + 0.01 and bottom - 0.01 <= y <= bottom + win.h + 0.01:
            c.setStrokeColor(colour("#ffffff"))
            c.setLineWidth(1.6)
            c.line(x - CROSS, y, x + CROSS, y)
            c.line(x, y - CROSS, x, y + CROSS)
            c.setStrokeColor(colour("#000000"))
            c.setLineWidth(0.4)
            c.line(x - CROSS, y, x + CROSS, y)
            c.line(x, y - CROSS, x, y + CROSS)
    c.setDash([3, 2])
    c.setStrokeColor(colour("#c0392b"))
    c.setLineWidth(0.5)
    if win.col + 1 < cols:  # cut here, through the crosses, and lay this page over its right neighbour
        x = left + win.w - OVERLAP / 2
        c.line(x, bottom, x, bottom + win.h)
    if win.row + 1 < rows:  # likewise over the page below
        y = bottom + OVERLAP / 2
        c.line(left, y, left + win.w, y)
    c.restoreState()


MAP_LINES = 12  # the map page's words at most, above the map (a game's words may be any length)


def _label(c, text: str, pw: float) -> None:
    size = max(4.0, min(7.0, (pw - 2 * MARGIN) / max(unit_width(text, "sans"), 1e-6)))
    text = shorten_label(text, "sans", size, pw - 2 * MARGIN)
    c.setFillColor(colour("#555555"))
    c.setFont(pdf_name("sans"), size)
    c.drawCentredString(pw / 2, 5.5 * MM, text)


def _wrapped(text: str, font: str, size: float, width: float, most: int = MAP_LINES) -> list[str]:
    """`text`'s lines (each "\\n" ends one), each broken between words where it is wider than `width` (a word
    wider than that broken in it); at most `most`, the last then ending in an ellipsis."""
    out = []
    for given in text.split("\n"):
        line = ""
        for word in (part for w in tokens(given) for part in break_word(w, font, size, width)):
            longer = f"{line} {word}" if line else word
            if line and unit_width(longer, font) * size > width:
                out.append(line)
                longer = word
            line = longer
        out.append(line)
    if len(out) > most:
        out = out[: most - 1] + [shorten(out[most - 1] + "\u2026", font, size, width)]
    return out


def _map_page(c, board, side, windows, rows, cols, total_w, total_h, pw, ph, words: Words) -> None:
    c.setFillColor(colour("#222222"))
    c.setFont(pdf_name("display-bold"), 16)
    title = words("colon", before=board.name, after=side.name)
    c.drawString(MARGIN, ph - MARGIN - 12, shorten(title, "display-bold", 16, pw - 2 * MARGIN))
    c.setFont(pdf_name("sans"), 9)
    size = words(
        "board_map_rows" if rows > 1 else "board_map_row",
        w=f"{board.width_pt / MM:.0f}",
        h=f"{board.height_pt / MM:.0f}",
        pages=len(windows),
        rows=rows,
        cols=cols,
    )
    how = words("board_map_how", overlap=f"{OVERLAP / MM:.0f}")
    lines = _wrapped(f"{size}\n{how}", "sans", 9, pw - 2 * MARGIN)
    for i, line in enumerate(lines):
        c.drawString(MARGIN, ph - MARGIN - 32 - i * 12, line)
    avail_w, avail_h = pw - 2 * MARGIN, ph - 2 * MARGIN - 90 - 12 * max(0, len(lines) - 4)
    scale = min(avail_w / total_w, avail_h / total_h)
    ox = MARGIN + (avail_w - total_w * scale) / 2
    oy = MARGIN + (avail_h - total_h * scale) / 2
    c.setStrokeColor(colour("#222222"))
    c.setLineWidth(1.2)
    c.rect(ox, oy, total_w * scale, total_h * scale, stroke=1, fill=0)
    c.setLineWidth(0.5)
    for win in windows:
        x, y = ox + win.ox * scale, oy + win.oy * scale
        wdt, hgt = win.w * scale, win.h * scale
        c.setFillColor(colour("#eef1f5"))
        c.setStrokeColor(colour("#5b7391"))
        c.rect(x, max(y, oy), wdt, min(hgt, (y + hgt) - max(y, oy)), stroke=1, fill=0)
        c.setFillColor(colour("#222222"))
        c.setFont(pdf_name("sans-bold"), 11)
        c.drawCentredString(
            x + wdt / 2, max(y, oy) + min(hgt, (y + hgt) - max(y, oy)) / 2 - 4, f"{win.row + 1}-{win.col + 1}"
        )
    c.setTrimBox((0, 0, pw, ph))
    c.setBleedBox((0, 0, pw, ph))
    c.showPage()


def write_board_full(path: Path, board, faces: list, icons: dict, title: str) -> int:
    """Each side on one page of the board's full size plus bleed; TrimBox at the board's edge."""
    b = board.bleed_pt
    size = (board.width_pt + 2 * b, board.height_pt + 2 * b)
    c = new_canvas(path, size, title)
    drawer = FaceDrawer(c, icons)
    for face in faces:
        drawer.draw_face(face, b, b)
        c.setTrimBox((b, b, b + board.width_pt, b + board.height_pt))
        c.setBleedBox((0, 0, size[0], size[1]))
        c.showPage()
    c.save()
    return len(faces)

"""What a page break may not part in a rulebook: which blocks are tied to the next (`bound`: a heading and what it
introduces, a lead-in and its list, a note and the text it comments on); a `Chain` of flowables the page may break
only inside, never between; `KeptTable`, a list or table split only with two rows or items on each side; and
`tail`, the book's end, never a scrap alone on the last page.

Inside a chain a break falls where the pieces themselves allow: a paragraph keeps two lines on each side
(`flowables.RichText`), a list or table two items or rows; so each piece's end shares a page with the next one's
start, and a chain no page can hold that way moves to the next page whole, as a `KeepTogether` does; unless only
its last piece, a figure, does not fit, and would set a little smaller (`floats`): it is so set.
"""

from __future__ import annotations

from reportlab.platypus import CondPageBreak, Flowable, Paragraph, Spacer

from pnpgen.render.flowables import BODY, LEAD, PlainTable
from pnpgen.rulebook import Heading, ListBlock, Para, Quote, TableBlock

FUZZ = 1e-6  # platypus' own tolerance (`rl_config._FUZZ`)
WHOLE_LIST = 4  # a list of this many items or fewer is never split
WHOLE_TABLE = 5  # nor a table of this many body rows (a lookup such as a score-band table reads as one)
END = 8 * BODY * LEAD  # the height of eight lines of body text: the least the book's last page holds
TEXT = (Para, ListBlock, TableBlock, Quote)  # what a note or an example box may comment on


def bound(b, nxt) -> bool:
    """Whether no page may come between block `b` and the next: a heading and what it introduces (a heading
    too), a lead-in (a paragraph ending in a colon, or any before a list or table) and what it leads into, the
    text a note or example box comments on and the box. Nothing but a heading is tied to a heading. (The book's
    end: `tail`.)"""
    if isinstance(b, Heading):
        return True
    if isinstance(nxt, Heading):
        return False
    if isinstance(b, Para) and (isinstance(nxt, ListBlock | TableBlock) or b.text.rstrip().endswith(":")):
        return True
    return isinstance(nxt, Quote) and isinstance(b, TEXT)


class KeptTable(PlainTable):
    """A table (a list: its items are its rows) split only with two body rows on each side, and not at all when it
    is short, unless it is taller than a page (`page`, the body frame's height); split anywhere rather than never
    when even the top of a page cannot hold it so."""

    whole = WHOLE_TABLE
    page = 0.0  # the height of a page's body frame (0: not known); the parts of a split do not know it

    def split(self, availWidth, availHeight):  # noqa: N803 (platypus' names)
        rows = len(self._cellvalues)
        head = self.repeatRows if isinstance(self.repeatRows, int) else 0
        lo, hi = head + 2, rows - 2
        tall = bool(self.page) and self.wrap(availWidth, availHeight)[1] > self.page
        short = rows - head <= self.whole and not tall
        self._rowSplitRange = (lo, hi) if not short and lo <= hi else (rows, rows)
        parts = super().split(availWidth, availHeight)
        if not parts and getattr(getattr(self, "_frame", None), "_atTop", False):
            self._rowSplitRange = (0, rows)  # taller than a page as it must be kept: split where it can
            parts = super().split(availWidth, availHeight)
        return parts


class KeptList(KeptTable):
    whole = WHOLE_LIST


class Chain(Flowable):
    """Flowables set one after another where the page may break only inside one of them (`_content`, the name
    `KeepTogether` gives its parts, which `render.passes` reads for the contents). Never drawn whole: like a
    `KeepTogether`, it always asks to be split, into parts platypus then sets one by one."""

    def __init__(self, items: list, rest: float = 0.0):
        super().__init__()
        self._content = items
        self.rest = rest  # the height a break must leave for the next page at least (the book's last page)

    def getSpaceBefore(self):  # noqa: N802 (platypus' names)
        return self._content[0].getSpaceBefore()

    def getSpaceAfter(self):  # noqa: N802
        return self._content[-1].getSpaceAfter()

    def wrap(self, availWidth, availHeight):  # noqa: N803
        return availWidth, 0xFFFFFF  # always split (as KeepTogether): its parts are set one by one

    def split(self, availWidth, availHeight):  # noqa: N803
        canv = getattr(self, "canv", None)
        items = self._content
        placed = []  # (top, height) of each item from the chain's top, up to the first that does not fit
        bottom = after = 0.0
        for i, item in enumerate(items):
            top = bottom if i == 0 else bottom + max(item.getSpaceBefore() - after, 0)
            _, h = item.wrapOn(canv, availWidth, max(availHeight - top, 0))
            placed.append((top, h))
            if top + h > availHeight + FUZZ:
                break
            after = item.getSpaceAfter()
            bottom = top + h + after
        else:
            return list(items)  # it all fits here
        top = placed[-1][0]
        shrink = getattr(items[-1], "shrunk", None) if len(placed) == len(items) else None
        small = shrink(availHeight - top) if shrink is not None else None
        if small is not None:  # only the last piece, a figure, does not fit: set a little smaller, it does
            return items[:-1] + [small]
        for j in range(len(placed) - 1, -1, -1):  # break inside the last piece that can keep its neighbours
            top, h = placed[j]
            room = min(availHeight - top, h - 0.5)  # a piece that fits whole still leaves its end to the next
            if room <= 0 or isinstance(items[j], Paragraph):  # a heading never splits
                continue
            parts = items[j].splitOn(canv, availWidth, room)
            if len(parts) < 2 or parts[0].wrapOn(canv, availWidth, room)[1] > room + FUZZ:
                continue
            rest = parts[1:] + items[j + 1 :]
            if self.rest and sum(f.wrapOn(canv, availWidth, 0xFFFFFF)[1] for f in rest) < self.rest:
                continue
            return items[:j] + [parts[0], Chain(rest, self.rest)]
        frame = getattr(self, "_frame", None)
        if getattr(frame, "_atTop", False):  # not even a page of its own holds it kept: set it as it comes
            first = items[0]
            # its first piece must split here, as at a page's top; never a heading (told as taller than a page)
            if placed[0][1] > availHeight + FUZZ and not isinstance(first, Paragraph):
                first._frame = frame  # what platypus' frame lends a piece it splits (a table's last resort)
                try:
                    parts = first.splitOn(canv, availWidth, availHeight)
                finally:
                    del first._frame
                if parts:
                    return parts + items[1:]
            return list(items)
        return []  # to the next page


def chains(blocks: list[list], ties: list[bool], whole: list[bool]) -> list:
    """Each block's flowables in turn, the runs no page may part made `Chain`s: a block tied to the next (`ties`)
    keeps its last piece (and the space after it) with the next block's first; a `whole` block (a heading) keeps
    its own pieces together; others may break between theirs (a component table's rows of pictures). A page
    break action (a heading's `CondPageBreak`) comes before a run, and is dropped inside one."""
    out: list = []
    run: list = []
    tied = False  # whether the last flowable is tied to the next
    for made, tie, together in zip(blocks, ties, whole):
        for k, f in enumerate(made):
            if isinstance(f, CondPageBreak):
                if not tied:
                    out += _close(run) + [f]
                    run = []
                continue
            if not tied:
                out += _close(run)
                run = []
            run.append(f)
            rest = made[k + 1 :]
            if all(isinstance(g, Spacer) for g in rest):
                tied = tie
            else:
                tied = together or isinstance(rest[0], Spacer)
    return out + _close(run)


def _close(run: list) -> list:
    space: list = []
    while run and isinstance(run[-1], Spacer):  # the space after a chain is no part of it
        space.insert(0, run.pop())
    return ([Chain(run)] if len(run) > 1 else run) + space


def tail(story: list, width: float, least: float = END) -> list:
    """The story with its last flowables, as many as make `least` points, made one chain whose breaks leave at
    least that much for the last page: a book never ends on a page holding a scrap (a note, two rows, a line)."""
    end = len(story)
    while end and isinstance(story[end - 1], Spacer):
        end -= 1
    items: list = []
    start, height = end, 0.0
    while start and height < least:
        start -= 1
        if isinstance(story[start], CondPageBreak):
            continue  # within the chain, which keeps its heading off a page's foot itself
        parts = getattr(story[start], "_content", None) or [story[start]]  # a chain or a float: its parts
        items[:0] = parts
        height += sum(f.wrap(width, 0xFFFFFF)[1] for f in parts)
    return story[:start] + [Chain(items, least)] + story[end:] if items else story

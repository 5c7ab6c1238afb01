"""Figures that do not fit the room left on a page: a rulebook's answer to the half-empty page.

A figure (a diagram, a picture, a row of the components' gallery) is one piece: when it does not fit the room
left, platypus would carry it whole to the next page and leave the rest of this one empty. Here, in this order:

1. a figure that fits when set a little smaller, no smaller than `flowables.SHRINK` of its size, is set so (its
   own `shrunk(height)` makes the copy, and its `split` gives it: a diagram, a picture);
2. else the text that follows it in its chapter floats up before it, as a LaTeX float lets it: as much as the
   room holds, split where that text allows (two lines of a paragraph, two rows of a table on each side), and
   the figure opens the next page, the rest of the text after it. A float never passes the next chapter
   heading (contents level 0), the next figure (figures keep their order), nor the book's end chain
   (`keep.tail`); a subsection heading floats up only with what it keeps (its chain), and a page break a
   heading asks for (`CondPageBreak`) stops it where the heading would not fit. The figure only ever moves
   later, so it never comes before the text above it, and a lead-in marked as leading to it (`keep.bound`: a
   paragraph ending in a colon) is in its chain and goes with it.

A section that opens with its figure (a chain of headings ending in one) floats the same way: the headings
stay, the text after the figure floats up under them, so a heading is still followed by its own text; when no
text can follow it here, the headings and the figure move on together.

The choice depends only on the story and the page, so the same book lays out the same way every time.
"""

from __future__ import annotations

from reportlab.platypus import CondPageBreak, Flowable, Paragraph, Spacer

from pnpgen.render.diagram import DiagramFlowable
from pnpgen.render.flowables import FacePair, HeadingPara, RuleLine
from pnpgen.render.keep import Chain

FUZZ = 1e-6  # platypus' own tolerance
FIGURES = (DiagramFlowable, FacePair)


def is_figure(f) -> bool:
    """A figure: a diagram, a picture, or a row of pictures (a table holding only pictures)."""
    if isinstance(f, FIGURES):
        return True
    cells = getattr(f, "_cellvalues", None)
    if not cells:
        return False
    flat = [c for row in cells for c in row if c != ""]
    return bool(flat) and all(isinstance(c, FacePair) for c in flat)


def _chapter(f) -> bool:
    """Whether flowable `f` (or the chain it is) opens a chapter (a level-2 heading, contents level 0)."""
    if isinstance(f, HeadingPara):
        return f.toc_level == 0
    content = getattr(f, "_content", None) or []
    return bool(content) and _chapter(content[0])


def _holds_figure(f) -> bool:
    return is_figure(f) or any(_holds_figure(g) for g in getattr(f, "_content", None) or [])


class Float(Flowable):
    """A figure (after the headings it opens a section with, `head`) and the flowables after it that may float up
    before it (`followers`). Never drawn whole: like a `KeepTogether`, it always asks to be split, and gives
    platypus the pieces in the order this page wants."""

    def __init__(self, head: list, figure, space: list, followers: list):
        super().__init__()
        self.head, self.figure, self.followers = head, figure, followers
        self.space = space  # the space that comes after the figure, wherever it goes
        self._content = [*head, figure, *space, *followers]  # its parts, as a chain's (`passes.headings`)

    def getSpaceBefore(self):  # noqa: N802 (platypus' names)
        return self._content[0].getSpaceBefore()

    def wrap(self, availWidth, availHeight):  # noqa: N803
        return availWidth, 0xFFFFFF  # always split: its parts are set one by one

    def split(self, availWidth, availHeight):  # noqa: N803
        canv = getattr(self, "canv", None)
        head, fig, space, rest = self.head, self.figure, self.space, self.followers
        if getattr(getattr(self, "_frame", None), "_atTop", False):
            return [*head, fig, *space, *rest]
        taken, left = fill(canv, [*head, fig], availWidth, availHeight)
        if not left:  # it fits here, at its size or a little smaller
            return [*taken, *space, *rest]
        taken, left = fill(canv, [*head, *rest], availWidth, availHeight)
        after = [f for f in taken[len(head) :] if not isinstance(f, Spacer)]
        if len(taken) < len(head) or not after or (head and _heading(after[0])):
            return []  # nothing floats up (a heading keeps its text): the figure opens the next page
        return [*taken, fig, *space, *left]


def fill(canv, flowables: list, width: float, height: float) -> tuple[list, list]:
    """As many of `flowables` as `height` holds, and what is left. One that does not fit is split where it allows
    (a chain where its own rules let it): its parts are taken up to the last, which is taken too if it fits, or
    none of them (a chain is never parted where it does not say). Spaces between flowables are counted as
    platypus' frame counts them (the space before, less the space after the last; all of the first's)."""
    taken: list = []
    used = after = 0.0

    def fits(f) -> bool:
        nonlocal used, after
        before = max(f.getSpaceBefore() - after, 0)  # the first: all of it (the frame may count less)
        room = height - used - before
        if room <= 0 or f.wrapOn(canv, width, room)[1] > room + FUZZ:
            return False
        taken.append(f)
        used += before + f.wrapOn(canv, width, room)[1] + f.getSpaceAfter()
        after = f.getSpaceAfter()
        return True

    for i, f in enumerate(flowables):
        if isinstance(f, CondPageBreak):
            if height - used < f.height:
                return taken, flowables[i + 1 :]  # its heading goes to the next page, after the figure
            continue
        if fits(f):
            continue
        before = max(f.getSpaceBefore() - after, 0)  # the first: all of it (the frame may count less)
        room = height - used - before
        whole = isinstance(f, Spacer | Paragraph)  # a heading is never split
        parts = f.splitOn(canv, width, room) if room > 0 and not whole else []
        if not parts or (len(parts) == 1 and parts[0] is f):  # it cannot be split, nor set smaller
            return taken, flowables[i:]
        mark = (len(taken), used, after)
        if not all(fits(p) for p in parts[:-1]):
            del taken[mark[0] :]
            used, after = mark[1], mark[2]
            return taken, flowables[i:]
        if not fits(parts[-1]):
            return taken, [parts[-1], *flowables[i + 1 :]]
    return taken, []


def floated(story: list) -> list:
    """The story with each figure that stands alone, or after the headings that open its section (a chain of
    them), made a `Float` of itself and what may float up before it: the flowables after it up to the next
    chapter heading or figure, or the story's end."""
    out: list = []
    i = 0
    while i < len(story):
        f = story[i]
        head = _head(f)
        if head is None:
            out.append(f)
            i += 1
            continue
        k = i + 1
        while k < len(story) and isinstance(story[k], Spacer) and not isinstance(story[k], CondPageBreak):
            k += 1
        j = k
        while j < len(story) and not _stops(story, j):
            j += 1
        figure = f._content[-1] if head else f
        out.append(Float(head, figure, story[i + 1 : k], story[k:j]))
        i = j
    return out


def _head(f) -> list | None:
    """A figure's headings: [] for a figure alone, the headings (and their rules) of a chain of headings that
    ends in a figure; None for anything else."""
    if is_figure(f):
        return []
    content = getattr(f, "_content", None)
    if type(f) is not Chain or not content or not is_figure(content[-1]):
        return None
    head = content[:-1]
    if not head or not _heading(head[0]) or not all(_heading(g) or isinstance(g, RuleLine) for g in head):
        return None
    return head


def _heading(f) -> bool:
    """A heading (a section's or a run-in one, set as a Paragraph), or a chain that opens with one."""
    content = getattr(f, "_content", None) or []
    return isinstance(f, Paragraph) or bool(content) and _heading(content[0])


def _stops(story: list, j: int) -> bool:
    """Whether a float stops before `story[j]`: a chapter's heading (or the page break before it), a figure."""
    f = story[j]
    if isinstance(f, CondPageBreak):
        return j + 1 < len(story) and _chapter(story[j + 1])
    return _chapter(f) or _holds_figure(f)

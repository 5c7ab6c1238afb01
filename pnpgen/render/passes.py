"""How a rulebook is laid out until its contents list holds.

The contents list shows the headings' pages, which are known only once the book is laid out, so ReportLab's
`multiBuild` lays it out until they stop moving: here a draft pass that draws nothing with a size of its own
(`BookDoc.drafting`), then whole passes, the last of which is the book. A rebuild knows the list the last build
ended with (the manifest keeps it): its first pass is then a whole one showing that list, and when the headings
land where it says, that pass is the book: an edited picture or sentence costs one pass, not two (35 ms of
Elements of the Gods' 190). When they do not land there, the book is made again as if no list had been given, so
what is written never depends on the build before.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from reportlab.platypus import Paragraph, Table
from reportlab.platypus.doctemplate import BaseDocTemplate, LayoutError

from pnpgen import __version__
from pnpgen.errors import ContentError, Location
from pnpgen.render.diagram import DiagramFlowable
from pnpgen.render.flowables import FacePair, HeadingPara, RichText, esc
from pnpgen.rulebook.blocks import ComponentTable, Diagram, Heading, ListBlock, Para, Quote, TableBlock
from pnpgen.text.fonts import pdf_name
from pnpgen.units import MM


class BookDoc(BaseDocTemplate):
    """The rulebook's document: its passes (`drafting`, `seeded`), running headers and contents entries."""

    def __init__(self, path, title, game_title, icons, pagesize, **kw):
        super().__init__(
            str(path),
            pagesize=pagesize,
            title=title,
            author="pnpgen",
            creator=f"pnpgen {__version__}",
            producer=f"pnpgen {__version__}",
            subject=f"Rules of {game_title}",
            invariant=1,
            initialFontName=pdf_name("sans"),
            pageCompression=1,
            **kw,
        )
        self.game_title, self.icons = game_title, icons
        self.passes = 0
        self.seeded = False  # the contents start from the last build's: the first pass is a whole one
        self.drafting = False  # a pass whose pages are never saved: pictures, rich text, cover not drawn
        self.outline_level = -1  # the PDF outline's level of the last heading
        self.beforeDocument()

    def build(self, flowables, **kw):
        """A pass of `multiBuild`. The first, never saved (`_allSatisfied`), only finds the headings' pages for
        the contents: what has a size of its own is not drawn in it (`flowables.drafting`)."""
        self.passes += 1
        self.drafting = self.passes == 1 and not self.seeded
        self.outline_level = -1  # each pass draws the outline afresh
        try:
            super().build(flowables, **kw)
        finally:
            self.drafting = False

    def handle_flowable(self, flowables):
        """Set the next flowable; `placing` is the file, line and kind of the block last begun (its split parts
        follow it), where a block no page can hold is told."""
        first = flowables[0]
        while getattr(first, "_pnpgen_at", None) is None and getattr(first, "_content", None):
            first = first._content[0]  # a chain: what it sets first
        self.placing = getattr(first, "_pnpgen_at", None) or getattr(self, "placing", None)
        super().handle_flowable(flowables)

    def _allSatisfied(self):
        return (self.passes > 1 or self.seeded) and super()._allSatisfied()

    def beforeDocument(self):
        self.current = ("", "")  # the chapter and section in force, as the pages go on
        self.shown = ("", "")  # what this page's running header names
        self.body_here = False  # whether anything but headings has been set on this page yet

    def running_head(self) -> str:
        """What the running header names: the chapter (and section) in force at the top of the page, or the
        heading(s) the page opens with. Called at the page's end, which starts the next page."""
        chapter, section = self.shown
        self.shown, self.body_here = self.current, False
        return f"{chapter}  ·  {section}" if chapter and section else chapter or section

    def afterFlowable(self, flowable):
        if not isinstance(flowable, HeadingPara):
            self.body_here = self.body_here or isinstance(flowable, BODY)
        else:
            level = flowable.toc_level
            self.current = (flowable.toc_text, "") if level == 0 else (self.current[0], flowable.toc_text)
            if not self.body_here:  # the page opens with this heading
                self.shown = self.current
            # the contents sets its entries as ReportLab markup: the heading's own `&` and `<` escaped as its own are
            self.notify("TOCEntry", (level, esc(flowable.toc_text), self.page, flowable.toc_key))
            self.canv.bookmarkPage(flowable.toc_key)
            # a PDF outline steps down one level at a time: a book whose first heading is a subsection has it
            # at the top level (ReportLab refuses the jump)
            level = min(level, self.outline_level + 1)
            self.outline_level = level
            self.canv.addOutlineEntry(flowable.toc_text, flowable.toc_key, level=level, closed=level > 0)


MIN_COLUMN = 5 * MM  # a rulebook table's column at its narrowest: a character between the cell's paddings
WHAT = {
    Heading: "this heading",
    Para: "this paragraph",
    TableBlock: "a row of this table",
    ListBlock: "an item of this list",
    Quote: "this call-out",
    Diagram: "this diagram",
    ComponentTable: "a row of the components' table",
}


def fits_across(b: TableBlock, width: float) -> None:
    """A table with more columns than fit across the column it is set in is an error at its line (its cells
    would have no width: ReportLab fails with its own words)."""
    ncols = max([len(b.header)] + [len(r) for r in b.rows])
    if ncols * MIN_COLUMN > width:
        raise ContentError.at(
            Location(b.path, b.line, 1),
            f"a table of {ncols} columns does not fit across the page: at most {int(width // MIN_COLUMN)} fit here",
            "split it into narrower tables, or turn it so that its columns become rows",
        )


def placed(made: list, b) -> list:
    """A block's flowables, each knowing the block's file and line and what it is (`BookDoc.placing`): what
    cannot be set on any page is told there. A list or a call-out is at its first block."""
    first = b
    while first is not None and not hasattr(first, "line"):
        if isinstance(first, Quote):
            first = first.blocks[0] if first.blocks else None
        elif isinstance(first, ListBlock):
            first = first.items[0][0] if first.items and first.items[0] else None
        else:
            first = None  # a rule
    if first is not None:
        at = (first.path, first.line, WHAT.get(type(b), "this picture"))
        for f in made:
            f._pnpgen_at = at
    return made


BODY = (RichText, Table, DiagramFlowable, FacePair, Paragraph)  # what a page's text is (not spaces or rules)
MAX_CONTENTS = 2_000  # entries of a contents list taken from a manifest: more is no book pnpgen wrote
MAX_PAGE = 100_000  # a page number taken from a manifest


def contents_seed(value: object) -> list[tuple] | None:
    """A contents list as a manifest keeps it ([level, text, page, key] per heading), checked; None when it is
    not one. Only its page numbers are ever used (`_pages_for`): its texts and keys must be this book's own."""
    if not isinstance(value, list) or not value or len(value) > MAX_CONTENTS:
        return None
    out = []
    for e in value:
        if not (
            isinstance(e, list)
            and len(e) == 4
            and all(isinstance(x, int) and not isinstance(x, bool) for x in (e[0], e[2]))
            and isinstance(e[1], str)
            and len(e[1]) <= 1000
            and isinstance(e[3], str)
        ):
            return None
        out.append(tuple(e))
    return out


def lay_out(make: Callable, source: Path, contents: list[tuple] | None, found: list | None) -> int:
    """Lay out and save the book `make()` gives (document, story, contents list); returns its page count.
    `contents`: the last build's list, tried first; `found`, when given, receives the list the book ends with."""
    doc, story, toc = make()
    seed = _pages_for(headings(story), contents) if contents else None
    if seed:
        doc.seeded = True
        toc._entries = seed  # shown by the first pass (`beforeBuild` makes them the last entries)
        try:
            _passes(doc, story, source, 0)  # one pass; IndexError when the headings moved
        except IndexError:
            doc, story, toc = make()  # as if no list had been given
        else:
            return _done(doc, toc, found)
    _passes(doc, story, source, 6)
    return _done(doc, toc, found)


def headings(story: list) -> list[tuple]:
    """(level, text, key) of each heading the story sends to the contents, in order."""
    out = []
    for flowable in story:
        if isinstance(flowable, HeadingPara):
            out.append((flowable.toc_level, esc(flowable.toc_text), flowable.toc_key))
        elif isinstance(getattr(flowable, "_content", None), list):  # KeepTogether: its parts go on alone
            out += headings(flowable._content)
    return out


def _pages_for(headings: list[tuple], contents: list[tuple]) -> list[tuple] | None:
    """The contents entries to start from: this book's own headings (their text and keys, set by ReportLab as
    markup) with the last build's page numbers, when that list names the same headings in the same order; None
    when it does not. Only page numbers are taken from the manifest."""
    if len(headings) != len(contents):
        return None
    out = []
    for (level, text, key), entry in zip(headings, contents):
        if (entry[0], entry[1], entry[3]) != (level, text, key) or not 0 < entry[2] <= MAX_PAGE:
            return None
        out.append((level, text, entry[2], key))
    return out


def _passes(doc, story: list, source: Path, max_passes: int) -> None:
    try:
        from pnpgen.render.finite import FiniteCanvas

        doc.multiBuild(story, maxPasses=max_passes, canvasmaker=FiniteCanvas)
    except LayoutError:
        from pnpgen.errors import display_path

        at = getattr(doc, "placing", None)
        raise ContentError.at(
            Location(at[0], at[1], 1) if at else Location(display_path(source)),
            f"rulebook: {at[2] if at else 'a table row or call-out'} is taller than a page; "
            "split it into shorter ones",
        ) from None


def _done(doc, toc, found: list | None) -> int:
    if found is not None:
        found[:] = [list(e) for e in toc._lastEntries]
    return doc.page

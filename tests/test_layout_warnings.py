"""Layout warnings, measured on drawn faces: text over text, text across another element's outline or line, an
element hidden under a later solid one, text or icons outside the safe zone, text under the size floor;
`overlap: allowed` quiets the first three; `build` prints them and `--strict` fails on them."""

from __future__ import annotations

import pytest
from conftest import run_cli

from pnpgen.edit import add_element, set_values
from pnpgen.errors import Diagnostics, Location
from pnpgen.layout.draw import FaceContext, draw_face, template_names
from pnpgen.layout.spec import LayoutLibrary
from pnpgen.layout.warnings import face_warnings
from pnpgen.schema.icons import BUILTIN, load_icons
from pnpgen.templating import Compiler
from pnpgen.units import MM

CARD = (63.5, 88.9)  # mm, safe zone 3 mm


def drawn(tmp_path, elements: str):
    """One face of a layout of `elements` (YAML list items), drawn as a build draws it, with its warnings."""
    (tmp_path / "l.yaml").write_text("elements:\n" + elements)
    from PIL import Image

    for name in ("pic.jpg", "pic.png"):  # a picture: a JPEG hides what is under it, a PNG may be see-through
        Image.new("RGBA" if name.endswith("png") else "RGB", (480, 360), (200, 120, 40, 128)).save(
            tmp_path / name
        )
    lib = LayoutLibrary([tmp_path], Compiler())
    fc = FaceContext(
        CARD[0] * MM, CARD[1] * MM, 3 * MM, 3 * MM, {}, load_icons(BUILTIN, {}, Diagnostics()), tmp_path
    )
    fc.origins = {}
    diags = Diagnostics()
    layout = lib.get("l", Location("test"))
    face = draw_face(
        layout, fc, template_names(fc, {"name": "Ash"}, {"id": "d"}, {"id": "g"}), "card 1", diags
    )
    assert face is not None
    spans = fc.origins[face][0]
    found = face_warnings(face, spans, fc)
    fc.flush_notes(diags)
    return found, diags


TITLE = "  - {id: title, type: text, x: 5, y: 5, w: 50, h: 8, text: The Title, size: 12}\n"
CASES = {
    "overlap": (
        TITLE + "  - {id: sub, type: text, x: 5, y: 6, w: 50, h: 8, text: The Subtitle, size: 12}\n",
        "overlap",
        "sub",
        "this text element's text overlaps the text of the text element 'title' at line 2",
    ),
    "across a box's outline": (
        TITLE + "  - {id: box, type: rect, x: 20, y: 0, w: 30, h: 20, stroke: black}\n",
        "crossing",
        "title",
        "this text element's text crosses the outline of the rect element 'box' at line 3",
    ),
    "across a ring": (
        TITLE + "  - {id: ring, type: ellipse, x: 15, y: 2, w: 14, h: 14, stroke: black}\n",
        "crossing",
        "title",
        "this text element's text crosses the outline of the ellipse element 'ring' at line 3",
    ),
    "across a ring drawn flat (w 0: a line)": (
        TITLE + "  - {id: ring, type: ellipse, x: 12, y: 0, w: 0, h: 20, stroke: black}\n",
        "crossing",
        "title",
        "this text element's text crosses the outline of the ellipse element 'ring' at line 3",
    ),
    "across a ring drawn flat (h 0: a line)": (
        TITLE + "  - {id: ring, type: ellipse, x: 2, y: 8, w: 40, h: 0, stroke: black}\n",
        "crossing",
        "title",
        "this text element's text crosses the outline of the ellipse element 'ring' at line 3",
    ),
    "across a polygon's edge": (
        TITLE + "  - {id: tri, type: polygon, points: [[20, 0], [40, 20], [0, 20]], stroke: black}\n",
        "crossing",
        "title",
        "this text element's text crosses the outline of the polygon element 'tri' at line 3",
    ),
    "across a line drawn before it": (
        "  - {id: rule, type: line, x1: 0, y1: 9, x2: 63.5, y2: 9}\n" + TITLE,
        "crossing",
        "title",
        "this text element's text crosses the line element 'rule' at line 2",
    ),
    "hidden text": (
        TITLE + "  - {id: panel, type: rect, x: 0, y: 0, w: 63.5, h: 20, fill: white}\n",
        "hidden",
        "title",
        "this text element is hidden under the rect element 'panel' at line 3, drawn after it with a solid fill",
    ),
    "hidden icon": (
        "  - {id: disc, type: icon, name: circle, x: 10, y: 40, size: 8}\n"
        "  - {id: panel, type: ellipse, x: 5, y: 30, w: 40, h: 30, fill: '#223344'}\n",
        "hidden",
        "disc",
        "this icon element is hidden under the ellipse element 'panel' at line 3",
    ),
    "hidden under a picture": (
        "  - {id: cost, type: ellipse, x: 10, y: 40, w: 8, h: 8, fill: '#aa2200'}\n"
        "  - {id: art, type: image, src: pic.jpg, x: 5, y: 30, w: 40, h: 30}\n",
        "hidden",
        "cost",
        "this ellipse element is hidden under the image element 'art' at line 3, drawn after it (a JPEG has no",
    ),
    "outside safe text": (
        "  - {id: edge, type: text, x: 0.5, y: 40, w: 30, h: 8, text: Edge}\n",
        "outside-safe",
        "edge",
        "text reaches outside the safe zone (3 mm inside the cut)",
    ),
    "outside safe icon": (
        "  - {id: edge, type: icon, name: star, x: 60, y: 40, size: 8}\n",
        "outside-safe",
        "edge",
        "icon reaches outside the safe zone",
    ),
    "small text": (
        "  - {id: tiny, type: text, x: 5, y: 40, w: 50, h: 8, text: Tiny, size: 6.5}\n",
        "small-text",
        "tiny",
        "text is drawn as small as 6.5 pt, under the 7 pt a print shop recommends",
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_each_kind_of_warning_is_found_on_the_drawn_face_with_its_boxes(tmp_path, case):
    elements, kind, element, message = CASES[case]
    found, diags = drawn(tmp_path, elements)
    assert [w.kind for w in found] == [kind], found
    (w,) = found
    line = next(i for i, text in enumerate(elements.splitlines(), 2) if f"id: {element}," in text)
    assert w.loc.line == line and message in w.message
    x, y, wd, ht = w.box  # points from the trim's top-left corner: the element's drawn box
    assert wd > 0 and ht > 0 and -3 * MM <= x <= CARD[0] * MM and -3 * MM <= y <= CARD[1] * MM
    if kind in ("overlap", "crossing", "hidden"):
        assert w.other is not None and w.other_box is not None
        ox, oy, ow, oh = w.other_box
        assert min(x + wd, ox + ow) > max(x, ox) and min(y + ht, oy + oh) > max(y, oy)  # the boxes meet
    # the build reports the same (overlap and hidden by the new check; the others by their elements)
    assert any(message.split(" (")[0] in d.message for d in diags.warnings), diags.items


@pytest.mark.parametrize(
    "case",
    [
        "overlap",
        "across a box's outline",
        "across a ring",
        "across a polygon's edge",
        "across a line drawn before it",
        "hidden text",
        "hidden icon",
        "hidden under a picture",
    ],
)
@pytest.mark.parametrize("which", ["over", "under"])
def test_overlap_allowed_on_either_element_says_it_is_meant(tmp_path, case, which):
    elements, _kind, _element, _message = CASES[case]
    lines = elements.splitlines(keepends=True)
    i = 1 if which == "over" else 0
    lines[i] = lines[i].replace("}\n", ", overlap: allowed}\n")
    found, diags = drawn(tmp_path, "".join(lines))
    assert found == [] and diags.warnings == []


@pytest.mark.parametrize(
    "elements",
    [
        # a background under a panel, text on both: drawn in the right order
        "  - {type: rect, area: bleed, fill: black}\n"
        "  - {type: rect, x: 3, y: 3, w: 57.5, h: 82.9, fill: white}\n" + TITLE,
        # a shape larger than the cover drawn after it is a background, not hidden
        "  - {type: rect, x: 0, y: 0, w: 63.5, h: 40, fill: '#cc0000'}\n  - {type: rect, x: 10, y: 10, w: 20, h: 10, fill: '#0000cc'}\n",
        # stroked, unfilled or see-through covers hide nothing
        TITLE + "  - {type: rect, x: 0, y: 0, w: 63.5, h: 20, stroke: black}\n"
        "  - {type: rect, x: 0, y: 0, w: 63.5, h: 20, fill: white, opacity: 0.5}\n",
        # a PNG may be see-through: it hides nothing (a JPEG does)
        "  - {type: ellipse, x: 10, y: 40, w: 8, h: 8, fill: '#aa2200'}\n"
        "  - {type: image, src: pic.png, x: 5, y: 30, w: 40, h: 30}\n",
        # text that only touches another's box (lines apart) does not overlap
        TITLE + "  - {type: text, x: 5, y: 13, w: 50, h: 8, text: Below, size: 12}\n",
        # text wholly inside a ring and a diamond, and clear of a rule below it, crosses none
        "  - {type: ellipse, x: 0, y: -10, w: 63.5, h: 50, stroke: black}\n"
        "  - {type: polygon, points: [[30, -12], [70, 9], [30, 30], [-10, 9]], stroke: black}\n"
        "  - {type: line, x1: 5, y1: 16, x2: 58, y2: 16}\n" + TITLE,
        # a label on a panel laid over a circle's edge: the panel hides the edge where the label is
        "  - {type: ellipse, x: 10, y: 2, w: 40, h: 40, stroke: black}\n"
        "  - {type: rect, x: 5, y: 36, w: 50, h: 8, fill: black}\n"
        "  - {type: text, x: 6, y: 37, w: 48, h: 6, text: On the panel, color: white}\n",
    ],
)
def test_a_well_made_layout_gives_no_warning(tmp_path, elements):
    found, diags = drawn(tmp_path, elements)
    assert found == [] and diags.warnings == []


def test_build_prints_layout_warnings_and_strict_fails_on_them(project):
    root = project("basic")
    hero = root / "content" / "sample" / "layouts" / "hero.yaml"
    assert run_cli("build", "--out", "out", "--strict", cwd=root).exit_code == 0
    good = {p: p.read_bytes() for p in (root / "out").rglob("*") if p.is_file()}
    add_element(hero, "rect", {"x": 0, "y": 50, "w": 63.5, "h": 40, "fill": "white"})  # over the rules text
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 0
    assert (
        "hero.yaml:30:5: warning: this text element is hidden under the rect element at line 39"
        in result.output
    )
    result = run_cli("build", "--out", "out", "--strict", cwd=root)
    assert result.exit_code == 1 and "hidden under the rect element at line 39" in result.output
    set_values(hero, 5, {"overlap": "allowed"})
    result = run_cli("build", "--out", "out", "--strict", cwd=root)
    assert result.exit_code == 0 and "hidden" not in result.output
    assert good.keys() <= {p for p in (root / "out").rglob("*") if p.is_file()}


def test_the_crossing_check_skips_only_what_cannot_cross():
    """`crossings` first sets a part's text against every line of a shape as one box (clear of them all, or inside
    a lone frame: skipped). Over 3,000 random faces of rectangles, ellipses, lines and polygon edges, it finds
    exactly the crossings that comparing every glyph with every line finds."""
    import random
    from types import SimpleNamespace

    from pnpgen.layout import warnings
    from pnpgen.layout.outlines import crosses

    rng = random.Random(7)

    def box(w=60.0):
        x, y = rng.uniform(-5, w), rng.uniform(-5, w)
        return (x, y, x + rng.uniform(0.5, 25), y + rng.uniform(0.5, 8))

    def shape(n):
        kind = rng.choice(["rect", "ellipse", "line", "edge"])
        lines = []
        for _ in range(1 if kind in ("rect", "ellipse") else rng.randint(1, 6)):
            b = box()
            if kind == "ellipse":
                b = (b[0], b[1], b[0] + rng.uniform(1, 60), b[1] + rng.uniform(1, 12))  # long and thin too
            lines.append((kind, b, rng.uniform(0.05, 2.0)))
        return SimpleNamespace(lines=lines, text=[], opaque=[], allowed=False, box=None, el=el(n))

    def el(n):
        return SimpleNamespace(type="rect", id=None, loc=Location("f.yaml", n, 1))

    found = 0
    for _ in range(3000):
        parts = [shape(n) for n in range(rng.randint(1, 3))]
        texts = [
            SimpleNamespace(lines=[], text=[box() for _ in range(rng.randint(1, 4))], opaque=[], allowed=False, box=None, el=el(10 + n))
            for n in range(rng.randint(1, 3))
        ]  # fmt: skip
        for t in texts:
            t.box = warnings._around(t.text)
        everything = parts + texts
        got = {(w.loc.line, w.other.line) for w in warnings.crossings(everything)}
        want = {
            (t.el.loc.line, s.el.loc.line)
            for s in parts
            for t in texts
            if any(crosses(g, line) for g in t.text for line in s.lines)
        }
        assert got == want
        found += len(want)
    assert found > 500  # the faces cross often enough for the test to mean something


@pytest.mark.parametrize("fill", ["one element each", "one element for all"])
@pytest.mark.parametrize("kind", ["rect", "ellipse", "line", "edge"])
def test_the_crossing_check_is_bounded_by_the_fills_drawn_after_too(monkeypatch, kind, fill):
    """Each glyph that crosses a line is checked against every solid fill drawn after it (a label on a panel).
    A face of hundreds of words crossing a line under a panel drawn after thousands of small fills near the line
    made ~800,000 such checks a face (1,000 words and 2,000 fills: 10 s a face), over the comparison budget: it
    counts them now, and says what it left unchecked."""
    from types import SimpleNamespace

    from pnpgen.layout import outlines, warnings

    def el(n):
        return SimpleNamespace(type="rect", id=None, loc=Location("f.yaml", n, 1))

    def part(n, text=(), lines=(), opaque=()):
        return SimpleNamespace(lines=list(lines), text=list(text), opaque=list(opaque), allowed=False, box=None, el=el(n))  # fmt: skip

    band = {"rect": (40, -10, 60, 1010), "ellipse": (40, -10, 60, 1010)}.get(kind, (50, -10, 50, 1010))
    shape = part(1, lines=[(kind, band, 0.5)])
    words = part(
        2, text=[(0, i * 1.0, 100, i * 1.0 + 5) for i in range(400)]
    )  # 400 lines of text, all crossing
    fills = [(49.8, i * 0.5, 50.2, i * 0.5 + 0.1) for i in range(2000)]  # small, near the line, covering none
    fills.append(
        (-10, -20, 110, 1020)
    )  # but the last: a panel over all of it (each word is checked to the end)
    after = (
        [part(3 + i, opaque=[f]) for i, f in enumerate(fills)]
        if fill == "one element each"
        else [part(3, opaque=fills)]
    )
    checks = 0

    def counted(a, b):
        nonlocal checks
        checks += 1
        return outlines.inside(a, b)

    monkeypatch.setattr(warnings, "inside", counted)
    found = warnings.crossings([shape, words, *after])
    assert checks <= 2 * warnings.PAIR_BUDGET, checks
    assert [w.kind for w in found] == ["unchecked"], found  # nothing crosses where it shows; too much to tell


@pytest.mark.parametrize("kind", ["rect", "ellipse", "line", "edge"])
def test_the_crossing_check_looks_at_each_textless_part_once(kind):
    """A face of 2,000 stroked shapes and one text: each shape looked at every part for text, 4,000,000 looks
    a face outside the comparison budget (0.18 s a face, 3 minutes for a deck of 1,000 such cards). The parts
    with text are found once; a part without text is looked at a bounded number of times, not once per shape."""
    from types import SimpleNamespace

    from pnpgen.layout import warnings

    looks = 0

    class Part(SimpleNamespace):
        def __getattribute__(self, name):
            if name == "text" and not object.__getattribute__(self, "text"):
                nonlocal looks
                looks += 1
            return object.__getattribute__(self, name)

    def el(n):
        return SimpleNamespace(type="rect", id=None, loc=Location("f.yaml", n, 1))

    shapes = [
        Part(lines=[(kind, (0, i * 0.01, 10, i * 0.01 + 5), 0.5)], text=[], opaque=[], allowed=False, box=None, el=el(i))
        for i in range(2000)
    ]  # fmt: skip
    words = Part(lines=[], text=[(100, 100, 120, 110)], opaque=[], allowed=False, box=None, el=el(9999))
    assert warnings.crossings([*shapes, words]) == []
    assert looks <= 3 * len(shapes), looks

"""Diagrams from data: `{{ diagram('setup') }}` in a rulebook reads `content/<game>/diagrams/setup.yaml` and
plans a picture of a board side (or a plain area) with the game's own pieces placed on its cells, arrows, labels
and marked cells. The pieces and the board are the components' faces, so the diagram follows the content.

Everything here is geometry in points from the top-left of the board (or area), y downwards; `render/diagram.py`
draws a plan. The diagram file is read through the game's reader (recorded); the faces it shows are recorded as a
value (`=rulebook:diagram/<id>`) that `values_hold` draws again to judge freshness.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pnpgen.errors import ContentError, Diagnostics, Location, did_you_mean, display_path
from pnpgen.faces import Face
from pnpgen.schema.diagrams import AREA, VIEW
from pnpgen.schema.scene import read_scene
from pnpgen.source import LMap


@dataclass(frozen=True)
class Grid:
    x: float
    y: float
    cols: int
    rows: int
    cw: float
    ch: float
    lines: bool
    coords: bool

    def centre(self, cell: tuple[float, float]) -> tuple[float, float]:
        return self.x + (cell[0] - 0.5) * self.cw, self.y + (cell[1] - 0.5) * self.ch


@dataclass
class DiagramPlan:
    id: str
    caption: str
    width_pt: float | None  # as printed; None: the text column
    view: tuple[float, float, float, float]  # x, y, w, h of the part shown
    fill: str | None  # a plain area's colour
    board: Face | None  # the board side's face
    grid: Grid
    pieces: list = field(default_factory=list)  # (face, cx, cy, w, h, rotate)
    arrows: list = field(default_factory=list)  # (x1, y1, x2, y2, label, colour, dashed)
    labels: list = field(default_factory=list)  # (x, y, text, size, colour)
    marks: list = field(default_factory=list)  # (x, y, w, h, fill, cross)
    locs: list = field(default_factory=list)  # each piece's place in the diagram file
    arrow_locs: list = field(default_factory=list)
    label_locs: list = field(default_factory=list)

    def snapshot(self) -> str:
        """What the diagram shows, as stable text (its faces' draw operations included)."""
        parts = [repr((self.caption, self.width_pt, self.view, self.fill, self.grid))]
        parts.append(self.board.snapshot() if self.board is not None else "")
        for face, *rest in self.pieces:
            parts.append(face.snapshot() + repr(rest))
        parts += [repr(self.arrows), repr(self.labels), repr(self.marks)]
        return "\n--\n".join(parts)


def diagram_path(game, diagram_id: str):
    return game.root / "diagrams" / f"{diagram_id}.yaml"


def load_diagram(
    run, diagram_id: str, diags: Diagnostics, called: Location | None = None
) -> DiagramPlan | None:
    """Read, check and plan one diagram; problems go to `diags` at their file:line:column (None then).
    `called`: where the rulebook calls it (a missing file is reported there)."""
    path = diagram_path(run.game, diagram_id)
    display = display_path(path)
    try:
        data = run.reader.load_yaml(path, "diagram", called)
    except ContentError as exc:
        diags.extend(exc.diagnostics)
        return None
    before = len(diags.errors)
    scene = read_scene(run.game, diagram_id, data, display, diags)
    if scene is None:
        return None
    top, g = scene.top, scene.grid
    comps = {c.id: c for c in run.game.components}
    board_face, extent, fill = None, None, None
    if top["board"] is not None:
        board = comps.get(top["board"])
        if board is None or board.kind != "board":
            boards = [c.id for c in run.game.components if c.kind == "board"]
            diags.error(
                data.loc_of("board"),
                f"no board '{top['board']}' in this game",
                did_you_mean(top["board"], boards),
            )
            return None
        sides = [s.id for s in board.sides]
        index = sides.index(top["side"]) if top["side"] in sides else (0 if top["side"] is None else -1)
        if index < 0:
            diags.error(
                data.loc_of("side"),
                f"board '{board.id}' has no side '{top['side']}'",
                did_you_mean(top["side"], sides),
            )
            return None
        faces = run.board_faces(board, diags)
        if faces is None:
            diags.consequence(
                data.loc_of("board"), f"board '{board.id}' could not be drawn (see its own messages)"
            )
            return None
        board_face = faces[index]
        extent = (board.width_pt, board.height_pt)
        if top["area"] is not None:
            diags.error(data.key_loc("area"), "a diagram has a board or an area, not both")
    elif top["side"] is not None:
        diags.error(data.key_loc("side"), "'side' needs a 'board'")
    ch = g["cell_h"] if g["cell_h"] is not None else g["cell"]
    lines = g["lines"] if g["lines"] is not None else board_face is None
    grid = Grid(g["x"], g["y"], g["cols"], g["rows"], g["cell"], ch, lines, g["coords"])
    if extent is None:
        if top["area"] is not None:
            a = AREA.read(top["area"], diags, "the diagram's area")
            extent, fill = (a["w"], a["h"]), a["fill"]
        else:  # the grid with a margin as wide as its offset
            extent, fill = (2 * grid.x + grid.cols * grid.cw, 2 * grid.y + grid.rows * grid.ch), "#f4ecd8"
    view = (0.0, 0.0, *extent)
    if top["view"] is not None:
        v = VIEW.read(top["view"], diags, "the diagram's view")
        if v.ok:
            view = (v["x"], v["y"], v["w"], v["h"])
            if v["x"] + v["w"] > extent[0] + 0.01 or v["y"] + v["h"] > extent[1] + 0.01:
                diags.error(top["view"].loc, "the view reaches past the board (or area) it shows")
    if len(diags.errors) > before:
        return None
    if board_face is not None:
        from pnpgen.rulebook.crops import seen_text_only

        board_face = seen_text_only(board_face, view)
    caption = top["caption"] + (f" ({top['part']})" if top["part"] else "")
    plan = DiagramPlan(diagram_id, caption, top["width"], view, fill, board_face, grid)
    for p in scene.pieces:
        face = _face(run, p, diags)
        if face is not None:
            plan.pieces.append((face, *grid.centre(p.at), *_size(face, p.size_pt), p.rotate))
            plan.locs.append(p.loc)
    arrow_texts, label_texts = _measured(run, scene, diags)
    for i, arrow in enumerate(scene.arrows):
        (x1, y1), (x2, y2) = grid.centre(arrow.start), grid.centre(arrow.end)
        label = arrow_texts.get(i, arrow.label)
        plan.arrows.append((x1, y1, x2, y2, label, arrow.colour, arrow.dashed))
        plan.arrow_locs.append(arrow.loc)
    for i, lab in enumerate(scene.labels):
        plan.labels.append((*grid.centre(lab.at), label_texts.get(i, lab.text), lab.size, lab.colour))
        plan.label_locs.append(lab.loc)
    for cell, mark_fill, cross, _loc in scene.marks:
        cx, cy = grid.centre(cell)
        plan.marks.append((cx - grid.cw / 2, cy - grid.ch / 2, grid.cw, grid.ch, mark_fill, cross))
    from pnpgen.rulebook.crops import check_crops

    check_crops(plan, data, diags, part=bool(top["part"]))
    return plan if len(diags.errors) == before else None


def _measured(run, scene, diags: Diagnostics) -> tuple[dict, dict]:
    """The numbers the diagram's `measure`s print, worked out by the game's facts.yaml (read and recorded)."""
    if not any(x.measure for x in (*scene.arrows, *scene.labels)):
        return {}, {}
    from pnpgen.rules import measured
    from pnpgen.schema.facts import read_facts

    path = run.game.root / "facts.yaml"
    if not run.reader.probe(path, "facts file"):
        diags.error(scene.data.loc, "the diagram's measures need facts.yaml's 'measures'")
        return {}, {}
    try:
        facts = read_facts(run.reader.load_yaml(path, "facts file"), Diagnostics(), display_path(path))
    except ContentError as exc:
        diags.extend(exc.diagnostics)
        return {}, {}
    return measured(scene, run.game, facts.measures, diags)


def _face(run, p, diags: Diagnostics):
    comp = p.component
    if comp.kind == "board":  # a board laid on the table (a strip, a small board): `card` named its side
        faces = run.board_faces(comp, diags)
        if faces is None:
            diags.consequence(p.loc, f"board '{comp.id}' could not be drawn (see its own messages)")
            return None
        return faces[p.index]
    faces = run.card_faces(comp, p.index, diags)
    if faces is None:  # its layout failed: that message says why
        diags.consequence(
            p.loc, f"card {p.card.name!r} of '{comp.id}' could not be drawn (see its own messages)"
        )
        return None
    face = faces[1 if p.back else 0]
    if face is None:
        diags.error(
            p.loc,
            f"card {p.card.name!r} of '{comp.id}' has no back to draw",
            "give its deck (or the card) a 'back' layout, or leave out 'back: true'",
        )
    return face


def _size(face, size: float | None) -> tuple[float, float]:
    w, h = face.width_pt, face.height_pt
    k = 1.0 if size is None else size / max(w, h)
    return w * k, h * k


@dataclass
class Cover:
    """A game's own rulebook cover (`cover.yaml`): its colours and, drawn from a diagram, its art."""

    background: str
    ink: str
    accent: str
    art: DiagramPlan | None = None

    def snapshot(self) -> str:
        art = self.art.snapshot() if self.art is not None else ""
        return f"{self.background} {self.ink} {self.accent}\n{art}"


def load_cover(run, diags: Diagnostics) -> Cover | None:
    """`content/<game>/cover.yaml` when there is one (the lookup is recorded: adding it later redraws the book)."""
    from pnpgen.colours import ColourError, parse_colour
    from pnpgen.schema.diagrams import COVER

    path = run.game.root / "cover.yaml"
    if not run.reader.probe(path, "rulebook cover"):
        return None
    try:
        data = run.reader.load_yaml(path, "rulebook cover")
    except ContentError as exc:
        diags.extend(exc.diagnostics)
        return None
    if not isinstance(data, LMap):
        diags.error(
            Location(display_path(path), 1, 1), "a cover file must be a mapping: background, ink, accent, art"
        )
        return None
    values = COVER.read(data, diags)
    if not values.ok:
        return None
    palette = dict(run.game.palette)
    colours = {}
    for key in ("background", "ink", "accent"):
        name = values[key]
        if name in palette:
            colours[key] = palette[name]
            continue
        try:
            colours[key] = parse_colour(name, None, allow_none=False)
        except ColourError:
            diags.error(
                values.loc_of(key),
                f"'{key}' must be a colour of the game's palette or a colour such as '#2b2140' (got {name!r})",
                did_you_mean(str(name), palette),
            )
    if len(colours) < 3:
        return None
    art = None
    if values["art"] is not None:
        art = load_diagram(run, values["art"], diags, values.loc_of("art"))
        if art is None:
            return None
    return Cover(colours["background"], colours["ink"], colours["accent"], art)

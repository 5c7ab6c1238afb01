"""Die nets as geometry, in face sides with y down: regular faces unfolded from a tree (each face laid on a side
of the one before it), and which sides of the net's outline are glued together when it folds (found by zipping
the outline from its closed corners, so no net lists its pairs by hand)."""

from __future__ import annotations

import math

Point = tuple[float, float]

# Each die folded from a tree of regular faces: (sides of a face, the full angle round one of its corners in
# degrees, [(parent face, parent's side)] for faces 1 on; face 0 lies first, its side 0 along the top).
TREES: dict[str, tuple[int, float, tuple[tuple[int, int], ...]]] = {
    # a strip of six triangles, one more above its third and one below its fourth
    "d8": (3, 240.0, ((0, 1), (1, 1), (2, 2), (3, 1), (4, 2), (2, 1), (3, 2))),
    # two flowers of six pentagons (a middle one and its five petals), joined where two petals meet
    "d12": (
        5,
        324.0,
        ((0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (4, 2), (6, 3), (7, 1), (7, 2), (7, 3), (7, 4)),
    ),
    # a strip of ten triangles, five caps above its downward ones and five below its upward ones
    "d20": (
        3,
        300.0,
        ((0, 1), (1, 1), (2, 2), (3, 1), (4, 2), (5, 1), (6, 2), (7, 1), (8, 2))
        + ((0, 0), (2, 1), (4, 1), (6, 1), (8, 1))
        + ((1, 2), (3, 2), (5, 2), (7, 2), (9, 2)),
    ),
}


def unfold(sides: int, tree) -> list[list[Point]]:
    """Each face's corners, clockwise on the page (side i runs from corner i to corner i + 1), side length 1,
    moved so the net's box starts at (0, 0)."""
    turn = 2 * math.pi / sides
    faces = [_regular((0.0, 0.0), (1.0, 0.0), sides, turn)]
    for parent, side in tree:
        poly = faces[parent]
        a, b = poly[side], poly[(side + 1) % sides]
        faces.append(_regular(b, a, sides, turn))  # the shared side runs the other way round the new face
    x0 = min(x for f in faces for x, _ in f)
    y0 = min(y for f in faces for _, y in f)
    return [[(round(x - x0, 12), round(y - y0, 12)) for x, y in f] for f in faces]


def _regular(a: Point, b: Point, sides: int, turn: float) -> list[Point]:
    """The regular polygon whose side 0 runs a -> b, turning clockwise on the page (y down)."""
    out = [a, b]
    angle = math.atan2(b[1] - a[1], b[0] - a[0])
    for _ in range(sides - 2):
        angle += turn
        x, y = out[-1]
        out.append((x + math.cos(angle), y + math.sin(angle)))
    return out


def key(point: Point) -> tuple[int, int]:
    return round(point[0] * 1000), round(point[1] * 1000)


def outline(faces: list[list[Point]]) -> list[tuple[int, int]]:
    """The net's outline as (face, side) in order round it: the sides no other face shares."""
    count: dict = {}
    for poly in faces:
        for i in range(len(poly)):
            k = frozenset((key(poly[i]), key(poly[(i + 1) % len(poly)])))
            count[k] = count.get(k, 0) + 1
    start_of = {}
    for f, poly in enumerate(faces):
        for i in range(len(poly)):
            a, b = poly[i], poly[(i + 1) % len(poly)]
            if count[frozenset((key(a), key(b)))] == 1:
                start_of[key(a)] = (f, i, key(b))
    first = min(start_of)
    out, at = [], first
    while True:
        f, i, end = start_of[at]
        out.append((f, i))
        at = end
        if at == first:
            return out


def corner_angles(faces: list[list[Point]]) -> dict[tuple[int, int], float]:
    """{corner: the degrees of face round it in the flat net}; 360 less that is the gap outside it."""
    angle: dict = {}
    for poly in faces:
        for p in poly:
            angle[key(p)] = angle.get(key(p), 0.0) + 180.0 - 360.0 / len(poly)
    return angle


def glued(faces: list[list[Point]], full: float) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The pairs of outline sides that fold onto each other: where the faces round an outline corner make the
    full angle of the solid's corner, the two sides meeting there close; repeat. Raises ValueError when the
    net does not close (not a net of that solid)."""
    sides = outline(faces)
    angle = corner_angles(faces)
    # the ring: each outline side with the corner it starts at; corners that fold together merge their angles
    ring = [(side, key(faces[side[0]][side[1]])) for side in sides]
    total = {c: angle[c] for _, c in ring}
    pairs = []
    while ring:
        for j in range(len(ring)):
            after = (j + 1) % len(ring)
            corner = ring[after][1]
            if len(ring) > 2 and abs(total[corner] - full) > 1e-6:
                continue
            pairs.append((ring[j][0], ring[after][0]))
            start, nxt = ring[j][1], ring[(after + 1) % len(ring)][1]
            if len(ring) > 2 and start != nxt:
                total[start] = total[start] + total[nxt]  # the two far ends meet at one corner
                ring = [(s, start if c == nxt else c) for s, c in ring]
            ring = [r for k, r in enumerate(ring) if k not in (j, after)]
            break
        else:
            raise ValueError("the outline does not close")
    return pairs

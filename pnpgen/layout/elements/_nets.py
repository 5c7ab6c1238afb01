"""Die nets as geometry, in face sides with y down: regular faces unfolded from a tree (each face laid on a side
of the one before it), and which sides of the net's outline are glued together when it folds (found by zipping
the outline from its closed corners, so no net lists its pairs by hand)."""

from __future__ import annotations

import math

Point = tuple[float, float]

PHI = (1 + math.sqrt(5)) / 2
# A face: its sides' lengths (in `size`) and the turn after each side, degrees clockwise on the page.
TRIANGLE = ((1.0,) * 3, (120.0,) * 3)
PENTAGON = ((1.0,) * 5, (72.0,) * 5)
# a d10's kite (a pentagonal trapezohedron's face): apex 36 degrees, the other three 108; long sides `size`
KITE = ((1.0, 1 / PHI**2, 1 / PHI**2, 1.0), (72.0, 72.0, 72.0, 144.0))
# Each die folded from a tree of faces: (its face, the full angles round the solid's corners in degrees, and for
# faces 1 on (parent face, parent's side, own side laid on it, 0 when not given)); face 0 lies first, its side 0
# along the top (a d10's turned 36 degrees up, so its fans' straight sides lie level).
TREES: dict[str, tuple[tuple, tuple[float, ...], tuple[tuple[int, ...], ...]]] = {
    # a strip of six triangles, one more above its third and one below its fourth
    "d8": (TRIANGLE, (240.0,), ((0, 1), (1, 1), (2, 2), (3, 1), (4, 2), (2, 1), (3, 2))),
    # two fans of five kites round their apexes, joined at a short side
    "d10": (
        KITE,
        (180.0, 324.0),
        ((0, 0, 3), (1, 0, 3), (2, 0, 3), (3, 0, 3), (1, 2, 2), (5, 0, 3), (6, 0, 3), (7, 0, 3), (8, 0, 3)),
    ),
    # two flowers of six pentagons (a middle one and its five petals), joined where two petals meet
    "d12": (
        PENTAGON,
        (324.0,),
        ((0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (4, 2), (6, 3), (7, 1), (7, 2), (7, 3), (7, 4)),
    ),
    # a strip of ten triangles, five caps above its downward ones and five below its upward ones
    "d20": (
        TRIANGLE,
        (300.0,),
        ((0, 1), (1, 1), (2, 2), (3, 1), (4, 2), (5, 1), (6, 2), (7, 1), (8, 2))
        + ((0, 0), (2, 1), (4, 1), (6, 1), (8, 1))
        + ((1, 2), (3, 2), (5, 2), (7, 2), (9, 2)),
    ),
}


def unfold(shape, tree) -> list[list[Point]]:
    """Each face's corners, clockwise on the page (side i runs from corner i to corner i + 1), in `size`s,
    moved so the net's box starts at (0, 0)."""
    turn = math.radians(-36.0 if shape is KITE else 0.0)
    faces = [_face((0.0, 0.0), (shape[0][0] * math.cos(turn), shape[0][0] * math.sin(turn)), shape, 0)]
    for parent, side, *own in tree:
        poly = faces[parent]
        a, b = poly[side], poly[(side + 1) % len(poly)]
        faces.append(_face(b, a, shape, own[0] if own else 0))  # the shared side runs the other way round
    x0 = min(x for f in faces for x, _ in f)
    y0 = min(y for f in faces for _, y in f)
    return [[(round(x - x0, 12), round(y - y0, 12)) for x, y in f] for f in faces]


def _face(a: Point, b: Point, shape, j: int) -> list[Point]:
    """The face whose side j runs a -> b, its corners in order from corner 0."""
    lengths, turns = shape
    n = len(lengths)
    at = {j: a, (j + 1) % n: b}
    angle = math.atan2(b[1] - a[1], b[0] - a[0])
    for k in range(1, n - 1):
        i = (j + k) % n
        angle += math.radians(turns[(i - 1) % n])
        x, y = at[i]
        at[(i + 1) % n] = (x + lengths[i] * math.cos(angle), y + lengths[i] * math.sin(angle))
    return [at[i] for i in range(n)]


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
    out: list[tuple[int, int]] = []
    at = first
    while len(out) <= len(start_of):
        if at not in start_of:
            break
        f, i, end = start_of[at]
        out.append((f, i))
        at = end
        if at == first:
            return out
    raise ValueError("the faces overlap: their outline is not one loop")


def corner_angles(faces: list[list[Point]]) -> dict[tuple[int, int], float]:
    """{corner: the degrees of face round it in the flat net}; 360 less that is the gap outside it."""
    angle: dict = {}
    for poly in faces:
        for i, p in enumerate(poly):
            angle[key(p)] = angle.get(key(p), 0.0) + _inside_angle(poly, i)
    return angle


def _inside_angle(poly: list[Point], i: int) -> float:
    """The degrees inside a convex face at corner i."""
    (px, py), (qx, qy), (rx, ry) = poly[i], poly[i - 1], poly[(i + 1) % len(poly)]
    turn = math.degrees(math.atan2(qy - py, qx - px) - math.atan2(ry - py, rx - px)) % 360
    return min(turn, 360 - turn)


def glued(
    faces: list[list[Point]], fulls: tuple[float, ...]
) -> list[tuple[tuple[int, int], tuple[int, int]]]:
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
            if len(ring) > 2 and min(abs(total[corner] - f) for f in fulls) > 1e-6:
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

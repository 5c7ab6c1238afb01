"""A face's digest (manifest.json's `front` and `back`): what it is made of, however it is computed."""

from __future__ import annotations

import hashlib

from pnpgen.faces import Ellipse, Face, Icon, Image, Line, Polygon, Rect, Text, Vector, face_digest, op_text


class Size(float):
    """A float of another type, as a layout's arithmetic may give."""


def reference_digest(face: Face) -> str:
    """The digest as the manifest's format defines it: the face's size and cut, then `op_text` of each op."""
    lines = [f"{face.width_pt:.2f} {face.height_pt:.2f} {face.bleed_pt:.2f} {face.shape}"]
    lines += [op_text(op) for op in face.ops]
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]


def test_a_digest_is_its_operations_text_whatever_their_values_types(tmp_path):
    art, svg = tmp_path / "a.png", tmp_path / "b.svg"
    art.write_bytes(b"not really a png")
    svg.write_text("<svg/>")
    ops = (
        Rect(-9.0, -9, 198.0, 270.0, fill="#f6efe0"),
        Rect(
            8.5, 8.5, 163, 235.0, radius=5.67, stroke="#7a3b1d", stroke_width=1.2, dash=(2.0, 1), opacity=0.5
        ),
        Ellipse(1, 2.345, 3.0, 4.0, fill=None, stroke="#000000"),
        Line(0.0, 0.0, 10.004, 10.006, dash=(1.5,)),
        Polygon(((0.0, 1.0), (2.5, 3.25), (4, 5)), fill="#ffffff"),
        Text(17.0, 30.26, "display-bold", Size(13.25), "#000000", "Card {1} \u00e9 %s"),
        Text(17, 30, "sans", 9, "#000000", ""),
        Icon("star", 68.03, 56.69, 42.52, 42.52, None),
        Icon("star", 68.03, 56.69, 42.52, 42.52, "#e0a526"),
        Image(str(art), 0.0, 0.0, 10.0, 10.0, (0.0, 0.0, 5.0, 5.0)),
        Vector(str(svg), "ab" * 32, 1.0, 2.0, 3.0, 4.0, (1, 2, 3, 4)),
    )
    for n in range(1, len(ops) + 1):
        face = Face(180.0, 252.0, 8.5, ops[:n], "rect")
        assert face_digest(face) == reference_digest(face)
        again = Face(180.0, 252.0, 8.5, ops[:n], "rect")
        assert face_digest(again) == face_digest(face)  # the second time from what was kept, or the art again
    assert face_digest(Face(180.0, 252.0, 8.5, ops[:1])) != face_digest(Face(180.0, 252.0, 8.5, ops[:2]))
    assert "dash=(2.00 1)" in op_text(ops[1]) and "size=13.25" in op_text(ops[5])
    assert "size=9 " in op_text(ops[6]) and "tint=None" in op_text(ops[7])


def test_a_kept_digest_follows_the_art_it_draws(tmp_path):
    """A face's digest is kept once computed, and computed again when an art file it draws changes under it (a
    face kept by a long-running process): the same face object, the new bytes, the digest a new face gets."""
    import os

    art = tmp_path / "a.png"
    art.write_bytes(b"first art")
    face = Face(180.0, 252.0, 8.5, (Image(str(art), 0.0, 0.0, 10.0, 10.0, (0.0, 0.0, 5.0, 5.0)),), "rect")
    first = face_digest(face)
    assert face_digest(face) == first == reference_digest(face)
    art.write_bytes(b"other art, longer")
    os.utime(art, ns=(1, 1))  # a new stat key, whatever the file system's clock
    assert face_digest(face) != first
    assert (
        face_digest(face) == reference_digest(face) == face_digest(Face(180.0, 252.0, 8.5, face.ops, "rect"))
    )

"""The faces the print-all file last drew of each component, kept between builds (`build` after a one-card edit).

The print-all file shows every component, so after an edit to one deck it is drawn again, and with it the faces
of every other component, whose own files are kept. Those faces are the same as last time: a kept component's
inputs all hold. So each component's faces are stored, once drawn, in the per-user cache (`codecache.root()`, its
`faces` folder; `PNPGEN_CACHE=off` turns it off), one file per game and component id, overwritten when the
component is drawn again: the folder holds as many files as the components built, whichever folders they were
built in (two copies of a game share them; the key names the project folder, as faces name art by its path).

An entry is taken only for a component whose files this build keeps, under the key it was stored with: pnpgen's
own digest (its code), Python's version, the project folder, and every input its manifest entries recorded. It
holds plain values (marshal data, as `codecache`'s entries; no code is built from it: each draw operation is
made by name from `pnpgen.faces`'s classes), and every face it gives is checked against the digest the manifest
recorded for that card. Anything else (missing, damaged, another key, a digest that differs) is a miss: the
component is drawn, as before. The bytes written never depend on the store: same input, same bytes.
"""

from __future__ import annotations

import hashlib
import json
import marshal
import sys
from pathlib import Path
from types import MappingProxyType

from pnpgen import codecache
from pnpgen.faces import Ellipse, Face, Icon, Image, Line, Polygon, Rect, Text, Vector, face_digest

FORMAT = "pnpgen-faces-2"
MAX_ENTRY = 64 * 1024 * 1024  # bytes: a larger entry is not read
# the draw operations an entry may name, by class name (read-only: no mutable module globals)
OPS = MappingProxyType(
    {cls.__name__: cls for cls in (Rect, Ellipse, Line, Polygon, Text, Icon, Image, Vector)}
)


def _slot(run, component: str) -> Path | None:
    """The file a component's faces are kept in, or None when the cache is off."""
    where = codecache.root()
    if where is None:
        return None
    name = "\0".join((run.game.id, component))
    return where / "faces" / hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _key(run, component: str, inputs: dict) -> str:
    """What the faces were drawn from: pnpgen's code, Python's version, the project folder (faces name their art
    by its path), the component and every input it read."""
    from pnpgen.pipeline.freshness import engine_digest

    where = str(run.project.root)
    text = json.dumps([FORMAT, engine_digest(), sys.version, where, component, sorted(inputs.items())])
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _old_inputs(run, part) -> dict | None:
    """What a kept component's files recorded (all its entries read the same), or None."""
    entries = run.old_entries(part)
    if not entries:
        return None
    inputs: dict = {}
    for e in entries:
        if not isinstance(e.get("inputs"), dict):
            return None
        inputs.update(e["inputs"])
    return inputs


# -- plain values -----------------------------------------------------------------------------------------
def flat(face: Face) -> tuple:
    """A face as plain values (its size, cut and each operation's class name and fields): what marshal keeps, and
    what pickle sends quickest (a deck's half drawn in a worker, `halves`)."""
    ops = tuple((type(op).__name__, *(getattr(op, k) for k in op.__slots__)) for op in face.ops)
    return (face.width_pt, face.height_pt, face.bleed_pt, face.shape, ops)


def unflat(values: tuple) -> Face:
    """The face `flat` gave these values for; raises (TypeError, KeyError...) when they are not such values."""
    w, h, b, shape, ops = values
    return Face(w, h, b, tuple(OPS[op[0]](*op[1:]) for op in ops), shape)


def _encode(forms: dict) -> dict:
    """{"full": faces, "low": faces}, each a list of faces or of (front, back) pairs, as plain values; a face
    shared by several places is stored once. "read", when given, is kept as it is (`outputs._forms`)."""
    table: list = []
    seen: dict[int, int] = {}

    def ix(face) -> int:
        if face is None:
            return -1
        n = seen.get(id(face))
        if n is None:
            n = seen[id(face)] = len(table)
            table.append(flat(face))
        return n

    out: dict = {}
    for ink, faces in forms.items():
        if ink == "read":  # what drawing the rulebook's picture read: plain text keys and digests
            out[ink] = dict(faces)
            continue
        out[ink] = tuple((ix(f[0]), ix(f[1])) if isinstance(f, tuple) else ix(f) for f in faces)
    return {"table": tuple(table), **out}


def _decode(data: dict, ink: str) -> list | None:
    """The faces of one form, or None when the entry lacks it; raises (TypeError, KeyError...) when damaged."""
    places = data.get(ink)
    if places is None:
        return None
    table = data["table"]
    made: dict[int, Face | None] = {-1: None}

    def face(n: int):
        if n not in made:
            made[n] = unflat(table[n])
        return made[n]

    return [(face(p[0]), face(p[1])) if isinstance(p, tuple) else face(p) for p in places]


# -- load and keep ----------------------------------------------------------------------------------------
def load(run, part, inks: set) -> dict | None:
    """The kept faces of a component whose files this build keeps, in the forms `inks` asks ("full", "low"), each
    checked against its manifest records, and what drawing the rulebook's picture of it read ("read", when it was
    kept); None when there are none to take. What drawing them read is recorded again, as drawing them would."""
    if part.component not in run.kept:
        return None
    slot, inputs = _slot(run, part.component), _old_inputs(run, part)
    if slot is None or inputs is None:
        return None
    try:
        with open(slot, "rb") as fh:
            if not codecache.ours(fh):
                return None  # someone else's file
            raw = fh.read(MAX_ENTRY + 1)
        if len(raw) > MAX_ENTRY:
            return None
        fmt, key, data = marshal.loads(raw)
        if fmt != FORMAT or key != _key(run, part.component, inputs):
            return None
        # the full ink always: a part's records and checks stand on it, drawn for a low-ink file too
        forms: dict = {ink: _decode(data, ink) for ink in inks | {"full"}}
        if any(f is None for f in forms.values()) or not _as_recorded(run, part, forms):
            return None
        read = data.get("read")
        if isinstance(read, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in read.items()):
            forms["read"] = read
    except (OSError, ValueError, EOFError, TypeError, KeyError, IndexError):
        return None
    run.reader.replay(inputs)
    return forms


def _as_recorded(run, part, forms: dict) -> bool:
    """Whether every face is the one the component's manifest entries recorded (cards and board sides; their shape
    is checked where the component was judged fresh: `manifest.rows_ok`)."""
    for e in run.old_entries(part):
        faces = forms.get(part.printing.ink_of(e["path"]))
        if faces is None:
            continue
        if "cards" in e:
            i = 0
            for record in e["cards"]:
                front, back = faces[i]
                if face_digest(front) != record.get("front"):
                    return False
                if (back and face_digest(back)) != record.get("back"):
                    return False
                i += record["count"]
            if i != len(faces):
                return False
        if "sides" in e:
            if [face_digest(f) for f in faces] != [s.get("front") for s in e["sides"]]:
                return False
    return True


def keep(run, part, forms: dict) -> None:
    """Store a component's faces drawn in this build (silently not when the cache cannot be written)."""
    inputs = part.inputs or _old_inputs(run, part)
    slot = _slot(run, part.component)
    if slot is None or not inputs:
        return
    try:
        raw = marshal.dumps((FORMAT, _key(run, part.component, inputs), _encode(forms)))
    except ValueError:
        return
    if len(raw) > MAX_ENTRY:
        return  # it would not be read
    codecache.put(slot, raw)

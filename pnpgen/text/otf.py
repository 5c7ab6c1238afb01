"""A game font made embeddable: an OpenType font with CFF outlines converted to TrueType (quadratic) outlines,
and a variable font fixed at one instance, both with fontTools.

ReportLab embeds TrueType outlines only. A CFF (or CFF2) font's cubic curves become quadratic ones within one
font unit (`Cu2QuPen`); a variable font is instanced (`varLib.instancer`) at a named instance of its `fvar` table
or at axis values. The result is the same bytes for the same file and choice (no timestamps are recomputed), and
is kept in pnpgen's cache folder (`codecache`) under a digest of what made it, so each font is converted once per
machine; with the cache off it goes to a folder of this process's own. A plain TrueType font used as it is is
never copied.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import io
import shutil
import tempfile
from functools import cache
from pathlib import Path

INSTANCE_KEYS = ("instance", "axes")


class InstanceError(ValueError):
    """An instance the font does not have (the named instances listed), or axes it lacks."""


def prepare(path: str, instance: str | dict | None = None) -> str:
    """A TrueType file ReportLab can embed for the font at `path` (checked by `bounds.fonts` first), at the named
    `instance` or {axis tag: value}: `path` itself when it already is one, else a converted copy."""
    data = Path(path).read_bytes()
    if _first_tag(data) != b"OTTO" and instance is None:
        return path
    from fontTools import version

    made = hashlib.sha256(Path(__file__).read_bytes() + version.encode() + repr(instance).encode() + data)
    name = f"{made.hexdigest()[:32]}.ttf"
    for folder in (_folder(), _own()):
        if (folder / name).is_file():
            return str(folder / name)
    out = convert(data, instance)
    for folder in (_folder(), _own()):  # the cache, else (full, read-only) this process's own folder
        try:
            with tempfile.NamedTemporaryFile(dir=folder, suffix=".part", delete=False) as fh:
                fh.write(out)
            Path(fh.name).replace(folder / name)  # whole or not at all: another process may write it too
            return str(folder / name)
        except OSError:
            with contextlib.suppress(OSError, NameError):
                Path(fh.name).unlink()
            if (folder / name).is_file():
                return str(folder / name)
    raise OSError("no folder to keep the converted font in")


def _first_tag(data: bytes) -> bytes:
    """The first font's signature (a collection's first font, which ReportLab reads)."""
    if data[:4] == b"ttcf" and len(data) >= 16:
        at = int.from_bytes(data[12:16], "big")
        return data[at : at + 4]
    return data[:4]


def convert(data: bytes, instance: str | dict | None = None) -> bytes:
    from fontTools.ttLib import TTFont

    font = TTFont(
        io.BytesIO(data), recalcTimestamp=False, lazy=False, fontNumber=0 if data[:4] == b"ttcf" else -1
    )
    if instance is not None:
        font = _instanced(font, instance)
        _rename(font, instance)
    if "CFF " in font or "CFF2" in font:
        _to_truetype(font)
    out = io.BytesIO()
    font.save(out, reorderTables=True)
    return out.getvalue()


def named_instances(font) -> dict[str, dict[str, float]]:
    """A variable font's named instances: name -> {axis tag: value}."""
    if "fvar" not in font:
        return {}
    names = font["name"]
    out = {}
    for inst in font["fvar"].instances:
        name = names.getDebugName(inst.subfamilyNameID)
        if name:
            out[name] = dict(inst.coordinates)
    return out


def _instanced(font, instance: str | dict):
    from fontTools.varLib import instancer

    if "fvar" not in font:
        raise InstanceError("is not a variable font (it has no 'fvar' table): remove its instance or axes")
    axes = {a.axisTag: (a.minValue, a.maxValue) for a in font["fvar"].axes}
    if isinstance(instance, str):
        known = named_instances(font)
        if instance not in known:
            raise InstanceError(
                f"has no instance named {instance!r}; its named instances: {', '.join(known) or '(none)'}"
            )
        location = known[instance]
    else:
        unknown = sorted(set(instance) - set(axes))
        if unknown:
            raise InstanceError(f"has no axis {', '.join(unknown)}; its axes: {', '.join(axes)}")
        location = {tag: float(instance.get(tag, _default(font, tag))) for tag in axes}
        for tag, value in location.items():
            low, high = axes[tag]
            if not low <= value <= high:
                raise InstanceError(f"axis {tag} goes from {low:g} to {high:g} (got {value:g})")
    full = {tag: location.get(tag, _default(font, tag)) for tag in axes}
    return instancer.instantiateVariableFont(font, full, updateFontNames=False)


def _rename(font, instance: str | dict) -> None:
    """An instance's own PostScript name (`Flex-Regular-Bold`, `Flex-Regular-wght550`): ReportLab takes two fonts
    of one name for one font, so two instances of a font would otherwise print in whichever came first."""
    label = (
        instance if isinstance(instance, str) else "".join(f"{k}{v:g}" for k, v in sorted(instance.items()))
    )
    names = font["name"]
    base = names.getDebugName(6) or "Font"
    ps = "".join(ch for ch in f"{base}-{label}" if ch.isascii() and (ch.isalnum() or ch in "-_"))[:63]
    names.setName(ps, 6, 3, 1, 0x409)
    names.setName(ps, 6, 1, 0, 0)


def _default(font, tag: str) -> float:
    return next(a.defaultValue for a in font["fvar"].axes if a.axisTag == tag)


def _to_truetype(font) -> None:
    """CFF/CFF2 outlines to `glyf` ones in place (after fontTools' own otf2ttf recipe)."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import newTable

    order = font.getGlyphOrder()
    glyphset = font.getGlyphSet()
    quadratic = {}
    for name in order:
        pen = TTGlyphPen(glyphset)
        glyphset[name].draw(Cu2QuPen(pen, 1.0, reverse_direction=True))
        quadratic[name] = pen.glyph()
    font["loca"] = newTable("loca")
    font["glyf"] = glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = quadratic
    for tag in ("CFF ", "CFF2", "VORG"):
        if tag in font:
            del font[tag]
    glyf.compile(font)
    hmtx = font["hmtx"]
    for name, glyph in glyf.glyphs.items():
        if hasattr(glyph, "xMin"):
            hmtx[name] = (hmtx[name][0], glyph.xMin)
    font["maxp"] = maxp = newTable("maxp")
    maxp.tableVersion = 0x00010000
    for field in ("maxZones",):
        setattr(maxp, field, 1)
    for field in (
        "maxTwilightPoints",
        "maxStorage",
        "maxFunctionDefs",
        "maxInstructionDefs",
        "maxStackElements",
        "maxSizeOfInstructions",
        "maxComponentElements",
    ):
        setattr(maxp, field, 0)
    maxp.compile(font)
    post = font["post"]
    post.formatType, post.extraNames, post.mapping, post.glyphOrder = 2.0, [], {}, order
    try:
        post.compile(font)
    except OverflowError:
        post.formatType = 3.0
    font.sfntVersion = "\x00\x01\x00\x00"


@cache
def _folder() -> Path:
    from pnpgen import codecache

    where = codecache.folder()
    if where is not None:
        target = where.parent / "fonts"
        try:
            target.mkdir(parents=True, exist_ok=True)
            return target
        except OSError:
            pass  # a cache folder that cannot be made: this process's own instead
    return _own()


@cache
def _own() -> Path:
    own = Path(tempfile.mkdtemp(prefix="pnpgen-fonts-"))
    atexit.register(shutil.rmtree, own, True)
    return own

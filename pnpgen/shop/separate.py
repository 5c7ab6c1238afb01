"""Separation: a PDF pnpgen drew, turned to CMYK in place (pikepdf), for the PDF/X targets.

- Colour operators in every content stream (pages and forms, nested): `rg`/`RG` become `k`/`K` by
  `colours.rgb_to_cmyk` under the target's ink limit; `g`/`G` become black-only `k`/`K`; `k`/`K` (a designer's
  `cmyk()`) stay as written. `sc`/`scn` and colour spaces other than DeviceGray, DeviceRGB and DeviceCMYK are
  refused (`SeparationError`): pnpgen's own drawing never makes them.
- Black text is pure K and overprints: inside each text object whose fill is a near-neutral dark (no channel
  over 20 %, channels within 6 % of each other: black, `#1d1d1b`) the fill becomes 0 0 0 100 with overprint on
  (`/OP`, `/op`, `/OPM 1`), and the colour before it comes back after the text. Every other pure-K fill or
  stroke (cut marks, black lines) overprints as well; every other colour knocks out.
- Shadings (an SVG's gradients) in DeviceRGB become DeviceCMYK: the colours at their stops (the C0 and C1 of
  exponential functions, inside stitching functions too) are separated; other function types are refused.
- Images in DeviceRGB become DeviceCMYK 8-bit by the same formula, pixel by pixel (Pillow); an image with a
  soft mask (alpha) is refused: PDF/X-1a has no transparency.
- Given the printer's CMYK ICC profile (`export shop --cmyk-profile`), chromatic colours, gradients and images
  are separated through it instead (`Inks`), under the same ink limit.
"""

from __future__ import annotations

import zlib
from decimal import Decimal

import pikepdf

from pnpgen.colours import rgb_to_cmyk

OVERPRINT = {  # (fill overprints, stroke overprints) -> ExtGState name
    (False, False): "/PnpKO",
    (True, False): "/PnpOPf",
    (False, True): "/PnpOPs",
    (True, True): "/PnpOPfs",
}
PURE_K = (0.0, 0.0, 0.0, 1.0)
SPOT = "spot"  # a Separation colour (the factory's die-cut lines): it overprints


def is_spot(resources, name) -> bool:
    """A named colour space that is a Separation over DeviceCMYK (PDF/X-1a allows it)."""
    spaces = resources.get("/ColorSpace", {}) if resources is not None else {}
    space = spaces.get(str(name)) if str(name) in spaces else None
    return (
        isinstance(space, pikepdf.Array)
        and len(space) == 4
        and space[0] == "/Separation"
        and space[2] == "/DeviceCMYK"
    )


class SeparationError(ValueError):
    """Something in the PDF cannot be made CMYK without changing what it shows; the message says what."""


def _num(v: float) -> Decimal:
    return Decimal(f"{v:.4f}").normalize() if v else Decimal(0)


def _near_black(rgb) -> bool:
    return max(rgb) <= 0.2 and max(rgb) - min(rgb) <= 0.06


def _cmyk_of(op: str, operands, inks: Inks) -> tuple[float, float, float, float]:
    values = [float(v) for v in operands]
    if op in ("rg", "RG"):
        return inks.colour(*values)
    if op in ("g", "G"):
        return 0.0, 0.0, 0.0, 1.0 - values[0]
    return values[0], values[1], values[2], values[3]


class _Stream:
    """Rewrites one content stream; state follows q/Q."""

    def __init__(self, inks: Inks, resources=None):
        self.inks, self.resources = inks, resources
        # CMYK, SPOT, or None: unknown (a form starts with its caller's state)
        self.fill: tuple | str | None = None
        self.fill_rgb: tuple | None = None
        self.stroke: tuple | str | None = None
        self.gs: tuple | None = None  # the overprint state in force
        self.stack: list = []
        self.out: list = []
        self.text_restore: list | None = None

    def _set_gs(self) -> None:
        want = (self.fill in (PURE_K, SPOT), self.stroke in (PURE_K, SPOT))
        if want != self.gs:
            self.out.append(([pikepdf.Name(OVERPRINT[want])], pikepdf.Operator("gs")))
            self.gs = want

    def _colour(self, cmyk, stroke: bool) -> None:
        self.out.append(([_num(v) for v in cmyk], pikepdf.Operator("K" if stroke else "k")))

    def run(self, instructions) -> list:
        for operands, operator in instructions:
            op = str(operator)
            if op == "q":
                self.stack.append((self.fill, self.fill_rgb, self.stroke, self.gs))
                self.out.append((operands, operator))
            elif op == "Q":
                self.out.append((operands, operator))
                if self.stack:
                    self.fill, self.fill_rgb, self.stroke, self.gs = self.stack.pop()
            elif op in ("rg", "g", "k", "RG", "G", "K"):
                stroke = op.isupper()
                cmyk = _cmyk_of(op.lower() if not stroke else op, operands, self.inks)
                if stroke:
                    self.stroke = cmyk
                else:
                    self.fill = cmyk
                    self.fill_rgb = tuple(float(v) for v in operands) if op == "rg" else None
                self._colour(cmyk, stroke)
                self._set_gs()
            elif op in ("cs", "CS") and operands and is_spot(self.resources, operands[0]):
                self.out.append((operands, operator))
                if op == "CS":
                    self.stroke = SPOT
                else:
                    self.fill, self.fill_rgb = SPOT, None
                self._set_gs()
            elif op in ("sc", "scn", "SC", "SCN") and SPOT in (
                (self.stroke,) if op.isupper() else (self.fill,)
            ):
                self.out.append((operands, operator))
            elif op in ("sc", "scn", "SC", "SCN", "cs", "CS"):
                raise SeparationError(f"a colour space pnpgen cannot separate ('{op}' {list(operands)})")
            elif op == "BT":
                self.out.append((operands, operator))
                black = self.fill == PURE_K or (self.fill_rgb is not None and _near_black(self.fill_rgb))
                if black and self.fill != PURE_K:
                    self.text_restore = [self.fill, self.fill_rgb, self.gs]
                    self.fill = PURE_K
                    self._colour(PURE_K, False)
                    self._set_gs()
            elif op == "ET":
                self.out.append((operands, operator))
                if self.text_restore is not None:
                    self.fill, self.fill_rgb, _ = self.text_restore
                    self.text_restore = None
                    self._colour(self.fill, False)
                    self._set_gs()
            else:
                self.out.append((operands, operator))
        return self.out


def _ext_gstates(pdf: pikepdf.Pdf) -> dict:
    made = {}
    for (fill, stroke), name in OVERPRINT.items():
        made[name] = pdf.make_indirect(
            pikepdf.Dictionary(Type=pikepdf.Name.ExtGState, OP=stroke, op=fill, OPM=1)
        )
    return made


def _with_states(resources: pikepdf.Dictionary, states: dict) -> None:
    if "/ExtGState" not in resources:
        resources.ExtGState = pikepdf.Dictionary()
    for name, obj in states.items():
        resources.ExtGState[name] = obj


def separate(pdf: pikepdf.Pdf, ink_limit: float, profile: bytes | None = None) -> None:
    """Turn every page, form and image of `pdf` to CMYK (see the module's docstring); `profile`: a CMYK ICC
    profile to separate chromatic colours and art through (else the formula)."""
    inks = Inks(ink_limit, profile)
    states = _ext_gstates(pdf)
    done: set = set()

    def holder(obj, is_page: bool) -> None:
        key = obj.objgen
        if key != (0, 0) and key in done:
            return
        done.add(key)
        resources = obj.get("/Resources")
        if resources is None:
            resources = obj.Resources = pikepdf.Dictionary()
        for _, shading in list(resources.get("/Shading", {}).items()):
            _shading(shading, inks, done)
        for _, pattern in list(resources.get("/Pattern", {}).items()):
            if "/Shading" in pattern:
                _shading(pattern.Shading, inks, done)
            elif pattern.get("/PatternType") == 1:
                holder(pattern, False)
        for _, x in list(resources.get("/XObject", {}).items()):
            if x.get("/Subtype") == "/Form":
                holder(x, False)
            elif x.get("/Subtype") == "/Image":
                image(x)
        instructions = pikepdf.parse_content_stream(obj)
        data = pikepdf.unparse_content_stream(_Stream(inks, resources).run(instructions))
        if is_page:
            pikepdf.Page(obj).contents_coalesce()
            obj.Contents.write(data)
        else:
            obj.write(data)
        _with_states(resources, states)

    def image(x) -> None:
        if x.objgen in done:
            return
        done.add(x.objgen)
        if "/SMask" in x or "/Mask" in x:
            raise SeparationError("an image with transparency (alpha); PDF/X-1a allows none: flatten the art")
        space = x.get("/ColorSpace")
        if space == "/DeviceCMYK" or space == "/DeviceGray":
            return
        if space != "/DeviceRGB":
            raise SeparationError(f"an image in the colour space {space}, which pnpgen cannot separate")
        from pikepdf import PdfImage

        picture = PdfImage(x).as_pil_image().convert("RGB")
        raw = inks.image(picture).tobytes()
        x.write(zlib.compress(raw, 6), filter=pikepdf.Name.FlateDecode)
        x.ColorSpace = pikepdf.Name.DeviceCMYK
        x.BitsPerComponent = 8
        for key in ("/DecodeParms", "/Decode"):
            if key in x:
                del x[key]

    for page in pdf.pages:
        holder(page.obj, True)


def _shading(shading, inks: Inks, done: set) -> None:
    key = shading.objgen
    if key != (0, 0):
        if key in done:
            return
        done.add(key)
    space = shading.get("/ColorSpace")
    if space in ("/DeviceCMYK", "/DeviceGray"):
        return
    if space != "/DeviceRGB":
        raise SeparationError(f"a gradient in the colour space {space}, which pnpgen cannot separate")
    if "/Function" not in shading:
        raise SeparationError("a gradient without a function (a mesh), which pnpgen cannot separate")
    shading.Function = _function(shading.Function, inks)
    if "/Background" in shading:
        shading.Background = pikepdf.Array(
            [_num(v) for v in inks.colour(*(float(c) for c in shading.Background))]
        )
    shading.ColorSpace = pikepdf.Name.DeviceCMYK


def _function(fn, inks: Inks):
    """An RGB function of a gradient as a CMYK one (a copy: functions may be shared)."""
    if isinstance(fn, pikepdf.Array):
        raise SeparationError("a gradient with one function per colour, which pnpgen cannot separate")
    kind = int(fn.get("/FunctionType", -1))
    if kind == 2:
        out = pikepdf.Dictionary({k: v for k, v in fn.items()})
        for key in ("/C0", "/C1"):
            rgb = [float(v) for v in fn.get(key, [0, 0, 0] if key == "/C0" else [1, 1, 1])]
            out[key] = pikepdf.Array([_num(v) for v in inks.colour(*rgb)])
        return out
    if kind == 3:
        out = pikepdf.Dictionary({k: v for k, v in fn.items()})
        out.Functions = pikepdf.Array([_function(f, inks) for f in fn.Functions])
        return out
    raise SeparationError(f"a gradient with a function of type {kind}, which pnpgen cannot separate")


def rgb_image_to_cmyk(picture, ink_limit: float):
    """An RGB Pillow image as CMYK by `colours.rgb_to_cmyk`'s formula, pixel by pixel (in Pillow's C code)."""
    from PIL import ImageChops, ImageMath

    r, g, b = picture.split()
    k = ImageChops.invert(ImageChops.lighter(ImageChops.lighter(r, g), b))  # 255 - max(r, g, b)
    env = {"k": k.convert("F")}
    parts = []
    for ch in (r, g, b):
        env["v"] = ch.convert("F")
        parts.append(
            ImageMath.lambda_eval(
                lambda e: (255 - e["v"] - e["k"]) * 255 / e["max"](255 - e["k"], 1e-6), **env
            )
        )
    return _under_limit(parts, k, ink_limit)


def _under_limit(parts, k, ink_limit: float):
    """CMYK from c, m, y (float images 0..255) and k (8-bit), c, m and y scaled down together where the four
    add up to more than `ink_limit` (black is kept)."""
    from PIL import Image, ImageMath

    env = {"k": k.convert("F"), "lim": ink_limit * 255, "c": parts[0], "m": parts[1], "y": parts[2]}
    total = ImageMath.lambda_eval(lambda e: e["c"] + e["m"] + e["y"], **env)
    scale = ImageMath.lambda_eval(
        lambda e: e["min"](e["max"](e["lim"] - e["k"], 0) / e["max"](e["t"], 1e-6), 1.0),
        **env,
        t=total,
    )
    channels = [ImageMath.lambda_eval(lambda e: e["p"] * e["s"], p=p, s=scale).convert("L") for p in parts]
    return Image.merge("CMYK", (*channels, k))


class Inks:
    """How an RGB colour or image becomes CMYK under the ink limit: `colours.rgb_to_cmyk`'s formula, or, given
    a CMYK ICC profile (the printer's, such as ISO Coated v2 for FOGRA39), littleCMS through Pillow from sRGB to
    that profile (relative colorimetric, black-point compensation), then c, m and y scaled down where the total
    is over the limit. Neutral colours (r = g = b) go to black alone either way, so grey lines, cut marks and
    black text never become four-colour greys that blur when the plates are out of register."""

    def __init__(self, ink_limit: float, profile: bytes | None = None):
        self.limit = ink_limit
        self.transform = None
        self.known: dict = {}
        if profile:
            from io import BytesIO

            from PIL import ImageCms

            from pnpgen.artcolour import srgb_profile

            self.transform = ImageCms.buildTransform(
                srgb_profile(),
                ImageCms.ImageCmsProfile(BytesIO(profile)),
                "RGB",
                "CMYK",
                renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                flags=ImageCms.Flags.BLACKPOINTCOMPENSATION,
            )

    def colour(self, r: float, g: float, b: float) -> tuple[float, float, float, float]:
        if self.transform is None or r == g == b:
            return rgb_to_cmyk(r, g, b, ink_limit=self.limit)
        key = (r, g, b)
        if key not in self.known:
            from PIL import Image

            pixel = Image.new("RGB", (1, 1), tuple(round(v * 255) for v in key))
            c, m, y, k = (v / 255 for v in self.image(pixel).getpixel((0, 0)))
            self.known[key] = (c, m, y, k)
        return self.known[key]

    def image(self, picture):
        """An RGB Pillow image as CMYK."""
        if self.transform is None:
            return rgb_image_to_cmyk(picture, self.limit)
        from PIL import ImageCms

        cmyk = ImageCms.applyTransform(picture, self.transform)
        assert cmyk is not None  # None only when the transform is applied in place
        c, m, y, k = cmyk.split()
        return _under_limit([ch.convert("F") for ch in (c, m, y)], k, self.limit)

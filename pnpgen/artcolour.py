"""Raster art's own colour profile, applied: art that carries an ICC profile other than sRGB (Adobe RGB, Display
P3, a camera's profile) is converted to sRGB through Pillow's colour management (littleCMS) when it is read for
drawing, so every writer (sheets, print-all, boards, shop files, PNGs rendered from them) shows the colours the
artist saw. Art without a profile, or with an sRGB one, is read as it is (its bytes go into the PDF untouched,
a JPEG's never decoded). Only RGB art is converted: greyscale, palette art without a profile and CMYK art keep
their values.

The conversion uses the relative colorimetric intent with black-point compensation, what image editors use
for "convert to sRGB"; alpha is kept.
"""

from __future__ import annotations

from functools import lru_cache
from io import BytesIO


class ProfileError(ValueError):
    """An embedded profile Pillow cannot read or apply; the message says which."""


@lru_cache(maxsize=1)
def srgb_profile():
    from PIL import ImageCms

    return ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))


def profile_of(data: bytes | None) -> tuple[str, str] | None:
    """(description, colour space such as 'RGB' or 'CMYK') of an embedded ICC profile; None when there is none.
    Raises ProfileError when it cannot be read."""
    if not data:
        return None
    from PIL import ImageCms

    from pnpgen.bounds import Refused
    from pnpgen.bounds.icc import check_icc

    try:  # its header and tag table first: littleCMS trusts their numbers
        check_icc(data)
    except Refused as exc:
        raise ProfileError(f"an unreadable colour profile (it {exc.message})") from None
    try:
        profile = ImageCms.ImageCmsProfile(BytesIO(data))
        name = ImageCms.getProfileDescription(profile).strip() or "unnamed"
        return name, profile.profile.xcolor_space.strip()
    except (OSError, ImageCms.PyCMSError) as exc:
        raise ProfileError(f"an unreadable colour profile ({exc})") from None


def needs_conversion(info: dict, mode: str) -> bool:
    """Art whose embedded profile is an RGB one other than sRGB (so its values are not sRGB values)."""
    try:
        found = profile_of(info.get("icc_profile"))
    except ProfileError:
        return False  # drawn as if sRGB; preflight says so
    if found is None or mode not in ("RGB", "RGBA", "P"):
        return False
    name, space = found
    return space == "RGB" and "srgb" not in name.lower()


def jpeg_without_profile(path: str) -> bool:
    """Whether the file is a JPEG whose headers, up to its image data, carry no ICC profile: its bytes then go into
    the PDF as they are, read by ReportLab without Pillow (`render.pdf`), as `as_srgb` would leave them. False
    when it has one, or when its headers do not read plainly (Pillow then decides, as for any other art)."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(1 << 20)  # a JPEG's headers come first; a megabyte holds any sane set of them
    except OSError:
        return False
    if data[:2] != b"\xff\xd8":
        return False
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            return False
        marker = data[at + 1]
        if marker == 0xFF:  # a fill byte
            at += 1
            continue
        if marker == 0xDA:  # the image data starts: no profile before it
            return True
        if marker == 0x01 or 0xD0 <= marker <= 0xD8:  # markers without a length
            at += 2
            continue
        if marker == 0xE2 and data[at + 4 : at + 16] == b"ICC_PROFILE\x00":
            return False
        at += 2 + int.from_bytes(data[at + 2 : at + 4], "big")
    return False


def as_srgb(path: str):
    """The file at `path`, or a Pillow image of it converted to sRGB when its profile says it is not sRGB."""
    from PIL import Image

    with Image.open(path) as im:
        if not needs_conversion(im.info, im.mode):
            return path
        from PIL import ImageCms  # colour management, only for art that needs it

        source = ImageCms.ImageCmsProfile(BytesIO(im.info["icc_profile"]))
        mode = "RGBA" if im.mode == "RGBA" or (im.mode == "P" and "transparency" in im.info) else "RGB"
        picture = im.convert(mode)
    try:
        return ImageCms.profileToProfile(
            picture,
            source,
            srgb_profile(),
            renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
            outputMode=mode,
            flags=ImageCms.Flags.BLACKPOINTCOMPENSATION,
        )
    except ImageCms.PyCMSError:
        return path  # a profile littleCMS will not apply: drawn as if sRGB (preflight names it)

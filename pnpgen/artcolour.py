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


def as_srgb(path: str):
    """The file at `path`, or a Pillow image of it converted to sRGB when its profile says it is not sRGB."""
    from PIL import Image, ImageCms

    with Image.open(path) as im:
        if not needs_conversion(im.info, im.mode):
            return path
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

"""PDF/X-1a:2003 from a PDF pnpgen drew: separated to CMYK (`separate`), then given the structure PDF/X asks.

What is written (ISO 15930-4 as summarised in the PDF Reference, "PDF/X output intents", and Adobe's notes):
- an OutputIntent `/S /GTS_PDFX` naming a registered characterisation (`OutputConditionIdentifier` FOGRA39 or
  CGATS TR 001, `RegistryName` http://www.color.org): for PDF/X-1a a registered condition needs no embedded
  profile; when the colours were separated through the printer's own profile (`--cmyk-profile`), that profile
  is embedded as the intent's `DestOutputProfile` and named in its `Info`;
- Info: `GTS_PDFXVersion (PDF/X-1a:2003)`, `Trapped /False`, Title, CreationDate and ModDate;
- TrimBox and BleedBox on every page (MediaBox = BleedBox = trim + bleed);
- a document ID (derived from the content, so the same build gives the same bytes);
- PDF 1.4 header, no annotations, no transparency, every font embedded, nothing in RGB;
- each font subset named for its own program (`_subsets_retagged`): ReportLab tags every document's first subset
  `AAAAAA+`, so a file joining two documents (the booklet: its pages and its back cover) had two different
  subsets under one name, which a RIP caching fonts by name may set with the wrong glyphs.

`problems(pdf)` lists what in a PDF breaks these rules. The export calls it on every file it wrote and refuses
to move any into place while one has a problem, so no file a shop would reject is left in the output folder.
"""

from __future__ import annotations

import hashlib
import math
import re
from decimal import Decimal
from pathlib import Path

import pikepdf

from pnpgen.shop.separate import is_spot, separate
from pnpgen.shop.targets import ShopTarget

VERSION = "PDF/X-1a:2003"
REGISTRY = "http://www.color.org"
PAINT = {"rg", "RG", "sc", "SC", "scn", "SCN", "cs", "CS"}
FIXED_DATE = "D:20000101000000Z"
# every content-stream operator of PDF 1.4: anything else (`nan`, `inf`, a damaged number) is not a PDF/X file's
OPERATORS = frozenset(
    "b B b* B* BDC BI BMC BT BX c cm CS cs d d0 d1 Do DP EI EMC ET EX f F f* G g gs h i ID j J K k l m M MP n q Q "
    "re RG rg ri s S SC sc SCN scn sh T* Tc Td TD Tf Tj TJ TL Tm Tr Ts Tw Tz v w W W* y ' \"".split()
)
ARITY = {  # operators that take only numbers, and how many
    **dict.fromkeys("w M j J i Tc Tw Tz TL Ts Tr g G".split(), 1),
    **dict.fromkeys("m l Td TD d0".split(), 2),
    "rg": 3,
    "RG": 3,
    **dict.fromkeys("v y re k K".split(), 4),
    **dict.fromkeys("cm Tm c d1".split(), 6),
}
MAX_REAL = 32767.0  # PDF 1.4's limit for a real number (PDF Reference, Appendix C)  # SOURCE_DATE_EPOCH-free and deterministic, like pnpgen's other PDFs


def make_pdfx(source: Path, target_path: Path, target: ShopTarget, title: str, bleed_pt: float) -> None:
    """Write `source` (a pnpgen PDF, one piece per page with `bleed_pt` all round) as PDF/X-1a to
    `target_path`. Raises SeparationError when something cannot be separated."""
    profile = Path(target.cmyk_profile).read_bytes() if target.cmyk_profile else None
    with pikepdf.open(source) as pdf:
        separate(pdf, target.ink_limit, profile)
        for page in pdf.pages:
            x0, y0, x1, y1 = (float(v) for v in page.MediaBox)
            page.obj.BleedBox = pikepdf.Array([x0, y0, x1, y1])
            page.obj.TrimBox = pikepdf.Array([x0 + bleed_pt, y0 + bleed_pt, x1 - bleed_pt, y1 - bleed_pt])
            for key in ("/Annots", "/Trans", "/AA"):
                if key in page.obj:
                    del page.obj[key]
        _unused_fonts_removed(pdf)
        _subsets_retagged(pdf)
        intent = pikepdf.Dictionary(
            Type=pikepdf.Name.OutputIntent,
            S=pikepdf.Name.GTS_PDFX,
            OutputConditionIdentifier=pikepdf.String(target.condition),
            OutputCondition=pikepdf.String(target.condition_name),
            RegistryName=pikepdf.String(REGISTRY),
            Info=pikepdf.String(target.condition_name),
        )
        if profile is not None:
            from pnpgen.artcolour import profile_of

            named = profile_of(profile)
            assert named is not None  # a CMYK profile, checked when it was given (`shop.export.cmyk_profile`)
            intent.DestOutputProfile = pdf.make_stream(profile, N=4)
            intent.Info = pikepdf.String(f"{target.condition_name}; separated with {named[0]}")
        pdf.Root.OutputIntents = pikepdf.Array([pdf.make_indirect(intent)])
        for key in ("/OpenAction", "/AcroForm", "/Names"):
            if key in pdf.Root:
                del pdf.Root[key]
        info = pdf.docinfo
        info.Title = pikepdf.String(title)
        info.GTS_PDFXVersion = pikepdf.String(VERSION)
        info.Trapped = pikepdf.Name("/False")
        info.CreationDate = pikepdf.String(FIXED_DATE)
        info.ModDate = pikepdf.String(FIXED_DATE)
        pdf.save(target_path, force_version="1.4", deterministic_id=True, compress_streams=True)


def _fonts_in(resources) -> dict:
    return dict(resources.get("/Font", {}).items()) if resources is not None else {}


def _unused_fonts_removed(pdf: pikepdf.Pdf) -> None:
    """ReportLab lists its standard Helvetica in every form's resources though pnpgen never sets text in it:
    a font that a stream names but never uses (`Tf`) is dropped, so no unembedded font is referenced."""
    for holder in _holders(pdf):
        resources = holder.get("/Resources")
        fonts = _fonts_in(resources)
        if not fonts:
            continue
        instructions = _without_empty_text(pikepdf.parse_content_stream(holder))
        if instructions is not None:
            data = pikepdf.unparse_content_stream(instructions)
            if "/Type" in holder and holder.Type == "/Page":
                pikepdf.Page(holder).contents_coalesce()
                holder.Contents.write(data)
            else:
                holder.write(data)
        used = {
            str(ins.operands[0]) for ins in pikepdf.parse_content_stream(holder) if str(ins.operator) == "Tf"
        }
        for name, font in fonts.items():
            if name not in used and not _embedded(font):
                del resources.Font[name]


SUBSET_TAG = re.compile(r"^/[A-Z]{6}\+")


def _font_program(font) -> pikepdf.Object | None:
    descriptor = font.get("/FontDescriptor")
    if descriptor is None:
        return None
    return next((descriptor[k] for k in ("/FontFile", "/FontFile2", "/FontFile3") if k in descriptor), None)


def _subset_fonts(pdf: pikepdf.Pdf) -> list:
    """Every font with its own program (a Type0 font's descendants) that its pages and forms use, each once."""
    found, seen = [], set()
    for holder in _holders(pdf):
        for _, font in _fonts_in(holder.get("/Resources")).items():
            for f in [font, *font.get("/DescendantFonts", [])]:
                if f.objgen not in seen and _font_program(f) is not None:
                    seen.add(f.objgen)
                    found.append(f)
    return found


def _subsets_retagged(pdf: pikepdf.Pdf) -> None:
    """Each subset's tag (`ABCDEF+`) made from its own program: one subset, one name; two, two names."""
    for font in _subset_fonts(pdf):
        name = str(font.BaseFont)
        if not SUBSET_TAG.match(name):
            continue
        program = _font_program(font)
        assert program is not None  # `_subset_fonts` keeps only fonts with a program
        digest = hashlib.sha256(name[8:].encode() + program.read_bytes()).digest()
        tag = "".join(chr(65 + b % 26) for b in digest[:6])
        renamed = pikepdf.Name(f"/{tag}+{name[8:]}")
        font.BaseFont = renamed
        font.FontDescriptor.FontName = renamed
    for holder in _holders(pdf):  # a Type0 font is named for its descendant
        for _, font in _fonts_in(holder.get("/Resources")).items():
            kids = font.get("/DescendantFonts", [])
            if len(kids) == 1 and SUBSET_TAG.match(str(font.BaseFont)):
                font.BaseFont = pikepdf.Name(
                    str(font.BaseFont)[:1] + str(kids[0].BaseFont)[1:8] + str(font.BaseFont)[8:]
                )


def _shared_subset_names(pdf: pikepdf.Pdf) -> list[str]:
    programs: dict[str, set[bytes]] = {}
    for font in _subset_fonts(pdf):
        name = str(font.BaseFont)
        program = _font_program(font)
        if SUBSET_TAG.match(name) and program is not None:
            programs.setdefault(name, set()).add(hashlib.sha256(program.read_bytes()).digest())
    return [
        f"{len(found)} different font subsets share the name {name[1:]}"
        for name, found in programs.items()
        if len(found) > 1
    ]


SHOW = {"Tj", "TJ", "'", '"'}


def _without_empty_text(instructions) -> list | None:
    """The instructions without text objects that show no text (ReportLab opens every page with one that only
    selects Helvetica); None when there is none."""
    out, pending, dropped = [], None, False
    for item in instructions:
        op = str(item[1])
        if op == "BT":
            pending = [item]
        elif pending is not None:
            pending.append(item)
            if op in SHOW:
                out += pending
                pending = None
            elif op == "ET":
                dropped = True
                pending = None
        else:
            out.append(item)
    if pending:
        out += pending
    return out if dropped else None


def _holders(pdf: pikepdf.Pdf) -> list:
    """Every page and form XObject, each once."""
    found: list[pikepdf.Object] = []
    seen: set[tuple[int, int]] = set()
    todo: list[pikepdf.Object] = [p.obj for p in pdf.pages]
    while todo:
        obj = todo.pop()
        key = obj.objgen
        if key != (0, 0) and key in seen:
            continue
        seen.add(key)
        found.append(obj)
        resources = obj.get("/Resources")
        for _, x in resources.get("/XObject", {}).items() if resources is not None else ():
            if x.get("/Subtype") == "/Form":
                todo.append(x)
    return found


def _embedded(font) -> bool:
    if font.get("/Subtype") == "/Type0":
        return all(_embedded(f) for f in font.get("/DescendantFonts", []))
    descriptor = font.get("/FontDescriptor")
    return descriptor is not None and any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))


def page_count(path: Path) -> int:
    with pikepdf.open(path) as pdf:
        return len(pdf.pages)


def problems(path: Path) -> list[str]:
    """What in the PDF at `path` breaks PDF/X-1a as pnpgen writes it; empty when nothing does."""
    found: list[str] = []
    with pikepdf.open(path) as pdf:
        if pdf.pdf_version > "1.4":
            found.append(f"PDF version {pdf.pdf_version}, over the 1.4 PDF/X-1a:2003 allows")
        intents: pikepdf.Object | list[pikepdf.Object] = pdf.Root.get("/OutputIntents", [])
        pdfx_intents = [i for i in intents if i.get("/S") == "/GTS_PDFX"]
        if not any(str(i.get("/OutputConditionIdentifier", "")) for i in pdfx_intents):
            found.append("no PDF/X output intent")
        elif len(pdfx_intents) > 1:
            found.append(f"{len(pdfx_intents)} PDF/X output intents, where PDF/X allows one")
        for intent in pdfx_intents:
            if "/Info" not in intent:
                found.append("the PDF/X output intent has no Info")
            if "/DestOutputProfile" not in intent and not str(intent.get("/RegistryName", "")):
                found.append(
                    "the PDF/X output intent neither embeds a profile nor names its condition's registry"
                )
        info: pikepdf.Object | dict[str, pikepdf.Object] = pdf.trailer.get("/Info", {})
        for key in ("/Title", "/CreationDate", "/ModDate"):
            if not str(info.get(key, "")):
                found.append(f"no {key[1:]} in the document information")
        if str(info.get("/GTS_PDFXVersion", "")) != VERSION:
            found.append(f"GTS_PDFXVersion is not {VERSION}")
        if info.get("/Trapped") not in ("/True", "/False"):
            found.append("Trapped is not True or False")
        if "/ID" not in pdf.trailer:
            found.append("no document ID")
        for n, page in enumerate(pdf.pages, 1):
            for box in ("/TrimBox", "/BleedBox"):
                if box not in page.obj:
                    found.append(f"page {n} has no {box[1:]}")
            found += _box_problems(page.obj, n)
            if "/Annots" in page.obj:
                found.append(f"page {n} has annotations")
        for holder in _holders(pdf):
            found += _holder_problems(holder)
        found += _shared_subset_names(pdf)
    return sorted(set(found))


def _box_problems(page, n: int) -> list[str]:
    """Each box four finite numbers, each inside the one before: MediaBox, BleedBox, TrimBox, ArtBox."""
    boxes: list[tuple[str, list[float]]] = []
    for key in ("/MediaBox", "/BleedBox", "/TrimBox", "/ArtBox"):
        if key not in page:
            continue
        try:
            box = [float(v) for v in page[key]]
        except (TypeError, ValueError):
            return [f"page {n} has a {key[1:]} that is not four numbers"]
        if len(box) != 4 or not all(math.isfinite(v) and abs(v) <= 14400 for v in box):
            return [f"page {n} has a {key[1:]} that is not four finite numbers within a page's 200 in"]
        if boxes:
            outer_key, outer = boxes[-1]
            eps = 0.01
            if not (
                box[0] >= outer[0] - eps
                and box[1] >= outer[1] - eps
                and box[2] <= outer[2] + eps
                and box[3] <= outer[3] + eps
                and box[0] < box[2]
                and box[1] < box[3]
            ):
                return [f"page {n} has a {key[1:]} that is not inside its {outer_key[1:]}"]
        boxes.append((key, box))
    return []


def _number_problems(name: str, operands) -> list[str]:
    """An operator PDF does not have (how `nan` and `inf` read, and numbers past what a reader parses), numbers
    missing or not finite where an operator takes numbers, or a real past PDF 1.4's limit."""
    if name not in OPERATORS:
        return [f"'{name[:20]}' where a PDF operator or number must be (a number that is not finite?)"]
    arity = ARITY.get(name)
    values = list(operands)
    if name == "d" and len(values) == 2:  # [dash array] phase
        values = [*values[0], values[1]] if isinstance(values[0], pikepdf.Array) else values
    elif name == "TJ" and values and isinstance(values[0], pikepdf.Array):
        values = [v for v in values[0] if not isinstance(v, (str, bytes, pikepdf.String))]
    elif arity is None:
        return []
    if arity is not None and len(values) != arity:
        return [f"'{name}' with {len(values)} operands instead of {arity} (a number missing or not finite?)"]
    for v in values:
        if isinstance(v, bool) or not isinstance(v, (int, Decimal)):
            return [f"'{name}' with an operand that is not a number ({str(v)[:20]})"]
        limit: float = 2**31 if isinstance(v, int) else MAX_REAL
        number = float(v)
        if not math.isfinite(number) or abs(number) > limit:
            return [f"'{name}' with a number past what PDF 1.4 holds ({v})"]
    return []


def _holder_problems(holder) -> list[str]:
    found = []
    resources = holder.get("/Resources")
    spot = {"fill": False, "stroke": False}
    try:
        instructions = pikepdf.parse_content_stream(holder)
    except Exception as exc:  # pikepdf refuses a stream with a keyword where a value must be (`[1 nan] 0 d`)
        return [f"a content stream that cannot be read ({type(exc).__name__}: {exc})"]
    for ins in instructions:
        operands, op = ins.operands, ins.operator
        name = str(op)
        found += _number_problems(name, operands)
        if name in ("cs", "CS"):
            spot["stroke" if name == "CS" else "fill"] = bool(operands) and is_spot(resources, operands[0])
            if not spot["stroke" if name == "CS" else "fill"]:
                found.append(f"a colour space other than DeviceCMYK or a CMYK spot colour ('{op}')")
        elif name in ("sc", "scn", "SC", "SCN") and spot["stroke" if name.isupper() else "fill"]:
            pass
        elif name in PAINT:
            found.append(f"an RGB or other non-CMYK colour operator ('{op}')")
        elif str(op) == "BI":
            found.append("an inline image")
    for name, font in _fonts_in(resources).items():
        if not _embedded(font):
            found.append(f"font {font.get('/BaseFont', name)} is not embedded")
    if resources is None:
        return found
    for _, state in resources.get("/ExtGState", {}).items():
        for key in ("/ca", "/CA"):
            if key in state and float(state[key]) < 1:
                found.append(f"transparency ({key[1:]} {float(state[key]):g})")
        if "/SMask" in state and state.SMask != "/None":
            found.append("a soft mask (transparency)")
    shadings = [s for _, s in resources.get("/Shading", {}).items()]
    shadings += [p.Shading for _, p in resources.get("/Pattern", {}).items() if "/Shading" in p]
    for shading in shadings:
        if shading.get("/ColorSpace") not in ("/DeviceCMYK", "/DeviceGray"):
            found.append(f"a gradient in {shading.get('/ColorSpace')}")
    for _, x in resources.get("/XObject", {}).items():
        if x.get("/Subtype") == "/Image":
            if x.get("/ColorSpace") not in ("/DeviceCMYK", "/DeviceGray"):
                found.append(f"an image in {x.get('/ColorSpace')}")
            if "/SMask" in x:
                found.append("an image with an alpha channel (transparency)")
    return found

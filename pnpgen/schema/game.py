"""game.yaml: its table, and the loader of a whole game (game.yaml and every component file it names)."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

from pnpgen.errors import ContentError, Diagnostics, Location, did_you_mean, display_path
from pnpgen.inputs import Reader
from pnpgen.model import Game
from pnpgen.names import is_name, near_file, rule_of, suggested
from pnpgen.schema.components import load_component
from pnpgen.schema.fields import (
    Invalid,
    Key,
    Table,
    as_bool,
    as_colour,
    as_id,
    as_players,
    as_str,
    describe,
    each_value,
    listing,
    mapping,
)
from pnpgen.schema.words import as_language, as_words
from pnpgen.source import LMap
from pnpgen.units import PAPERS
from pnpgen.words import Words


def _as_icons(value):
    """`icons: icons.yaml`, or `icons: {file: icons.yaml, svg: icons/}` (either key may be left out)."""
    if not isinstance(value, LMap):
        return as_str(value)
    for key in value:
        if key not in ("file", "svg"):
            message = f"takes 'file' (an icons file) and 'svg' (a folder of SVG icons), not '{key}'"
            raise Invalid(message, value.key_loc(key))
        if not isinstance(value[key], str) or not value[key]:
            raise Invalid(f"'{key}' must be a path inside the game folder", value.loc_of(key))
    if not value:
        raise Invalid("needs 'file' (an icons file), 'svg' (a folder of SVG icons) or both")
    return value


FONT_STYLES = ("regular", "bold", "italic", "bolditalic")
SHIPPED_FAMILIES = ("sans", "serif", "display")


def _as_fonts(value) -> LMap:
    """`fonts:` {family: {style: file}}: names, styles and paths checked here; the files when they are read."""
    if not isinstance(value, LMap):
        raise Invalid("must map font family names to {regular: file, bold: file, ...}")
    for family, styles in value.items():
        if not is_name(family) or family in SHIPPED_FAMILIES:
            better = suggested(str(family))
            use = f"; use '{better}'" if better not in SHIPPED_FAMILIES else f"; use 'my-{better}'"
            raise Invalid(
                f"font family name {family!r} must be a name ({rule_of(family)}) other than sans, serif and "
                f"display{use}"
            )
        if not isinstance(styles, LMap) or "regular" not in styles:
            raise Invalid(
                f"font '{family}' must give at least its regular file: {{regular: fonts/X.ttf, ...}}"
            )
        for style, file in styles.items():
            if style not in FONT_STYLES:
                raise Invalid(
                    f"font '{family}': '{style}' is not a style; " + did_you_mean(str(style), FONT_STYLES)
                )
            if isinstance(file, LMap):
                _as_font_choice(family, style, file)
            elif not isinstance(file, str):
                raise Invalid(
                    f"font '{family}' {style}: must be a file such as fonts/{family}-{style}.ttf, or "
                    f"{{file: fonts/{family}.ttf, instance: Bold}} for a variable font"
                )
    return value


def _as_font_choice(family: str, style: str, value: LMap) -> None:
    """A style given as {file: X.ttf, instance: Bold} or {file: X.ttf, axes: {wght: 700}} (a variable font)."""
    where = f"font '{family}' {style}"
    extra = [k for k in value if k not in ("file", "instance", "axes")]
    if extra:
        raise Invalid(
            f"{where}: '{extra[0]}' is not a key; "
            + did_you_mean(str(extra[0]), ("file", "instance", "axes"))
        )
    if not isinstance(value.get("file"), str):
        raise Invalid(f"{where}: needs 'file', such as {{file: fonts/{family}.ttf, instance: Bold}}")
    if "instance" in value and "axes" in value:
        raise Invalid(f"{where}: give 'instance' or 'axes', not both")
    if "instance" in value and not isinstance(value["instance"], str):
        raise Invalid(f"{where}: 'instance' must be a named instance such as Bold")
    axes = value.get("axes", {})
    if not isinstance(axes, dict) or not all(
        isinstance(k, str) and isinstance(v, int | float) and not isinstance(v, bool) for k, v in axes.items()
    ):
        raise Invalid(f"{where}: 'axes' must map axis tags to numbers, such as {{wght: 700}}")


def _choice(options: tuple):
    def convert(value):
        if value not in options:
            raise Invalid(f"must be one of {', '.join(options)} (got {describe(value)})")
        return value

    return convert


def _as_paper(value) -> str:
    """A paper name, as `--paper` takes it (any case): a4 or letter."""
    if isinstance(value, str) and value.lower() in PAPERS:
        return value.lower()
    raise Invalid(f"is not a paper size ({describe(value)}); " + did_you_mean(str(value).lower(), PAPERS))


def _as_supply(value) -> tuple:
    items = listing("must be a list of things players bring, such as [two six-sided dice, a bag]")(value)
    return tuple(as_str(x) for x in items)


PRINT = Table(
    "print section",
    (
        Key(
            "duplex",
            _choice(("long", "short", "none")),
            "how the sheets print by default: long, short or none",
        ),
        Key(
            "paper",
            _as_paper,
            "the paper every command prints on by default: a4 (the default) or letter; `--paper` and a "
            "`--printer` profile's paper come first",
        ),
        Key("fold", as_bool, "also write fold-over sheets (`<deck>-fold.pdf`) by default"),
        Key("ink", _choice(("full", "low", "both")), "full colour, low ink (`-lowink`), or both, by default"),
        Key(
            "checklist",
            as_bool,
            "also write each deck's checklist (`<deck>-checklist.pdf`): names, counts, tick boxes",
        ),
        Key(
            "supply",
            _as_supply,
            "what players bring from home, listed on the print-and-build page (dice, a bag, pencils)",
            default=(),
        ),
    ),
    title="Keys of print: in game.yaml",
)

GAME = Table(
    "game.yaml",
    (
        Key("id", as_id, "the game's id; must equal its folder's name", required=True),
        Key("title", as_str, "the game's title", required=True),
        Key("players", as_players, "a number, or a range such as '2-4'", required=True),
        Key("credits", as_str, "free text for the rulebook's cover", default=""),
        Key(
            "palette",
            each_value(as_colour, "palette colour '{key}'", "must map names to '#rrggbb' colours"),
            "named colours, usable wherever a colour is expected",
            default=MappingProxyType({}),
        ),
        Key(
            "palette_low",
            each_value(as_colour, "palette_low colour '{key}'", "must map names to '#rrggbb' colours"),
            "the low-ink form's colours, over `palette` (without it pnpgen's own low-ink transform is used)",
        ),
        Key("print", mapping("must be a mapping of print defaults"), "the game's print defaults (see below)"),
        Key(
            "icons",
            _as_icons,
            "the game's own icons: a file, or {file: icons.yaml, svg: icons/} with a folder of SVG icons",
        ),
        Key(
            "fonts",
            _as_fonts,
            "the game's own fonts: {family: {regular: fonts/X.ttf, bold: ..., italic: ..., bolditalic: ...}}; a style "
            "may be {file: fonts/X.ttf, instance: Bold} or {file: ..., axes: {wght: 700}} (a variable font)",
        ),
        Key(
            "language",
            as_language,
            "the language of the words pnpgen prints itself (the rulebook's cover, sheet labels): en (the "
            "default), fr or de",
        ),
        Key(
            "words",
            as_words,
            "your text for any of those words, over the language's: {contents: Sommaire, ...} (see Rulebooks)",
            takes=("language",),
        ),
        Key(
            "components",
            listing("must be a list of component files"),
            "component files inside the game folder, one component each",
            required=True,
        ),
    ),
    title="Keys of game.yaml",
)


def default_reader(root: Path) -> Reader:
    """A reader for a game of a project laid out as usual: content/<game>/ beside the shared layouts/."""
    project = root.parent.parent
    return Reader([root, project / "layouts"], project)


def print_defaults(root: Path, reader: Reader) -> dict:
    """The keys game.yaml's `print:` sets, checked, without loading the game (what `calibrate` prints on)."""
    data = reader.load_yaml(root / "game.yaml", "game file")
    section = data.get("print") if isinstance(data, LMap) else None
    if not isinstance(section, LMap):
        return {}
    diags = Diagnostics()
    values = PRINT.read(section, diags, "print:")
    diags.raise_if_errors()
    return {k: values[k] for k in values.given}


def load_game(root: Path, reader: Reader | None = None, warnings: Diagnostics | None = None) -> Game:
    """Read and validate content/<game>/: game.yaml and every component file it names, through `reader` (which
    confines and records every read; the game's own reads are kept as `Game.inputs`, each component's as its
    `inputs`)."""
    reader = reader or default_reader(root)
    diags = Diagnostics()
    with reader.recording() as recorded:
        data = reader.load_yaml(root / "game.yaml", "game file")
        if not isinstance(data, LMap):
            raise ContentError.at(
                Location(display_path(root / "game.yaml"), 1, 1),
                "game.yaml must be a mapping (id, title, players, components)",
            )
        v = GAME.read(data, diags)
        if v["id"] and v["id"] != root.name:
            diags.error(data.loc_of("id"), f"id '{v['id']}' must equal the folder name '{root.name}'")
        icons_file = _icons_file(root, v["icons"], data.loc_of("icons"), reader, diags)
        fonts = _fonts(root, v["fonts"], reader, diags)
        printing = PRINT.read(v["print"], diags, "print:") if v["print"] is not None else None
    game_inputs = MappingProxyType(dict(recorded))
    components = []
    seen: dict[str, Location] = {}
    for i, item in enumerate(v["components"] or ()):
        try:
            comp = _component(root, item, v["components"].loc_at(i), reader, diags)
        except ContentError as exc:
            diags.extend(exc.diagnostics)
            continue
        if comp is None:
            continue
        if comp.id in seen:
            diags.error(comp.loc, f"component id '{comp.id}' is used twice (also at {seen[comp.id]})")
            continue
        seen[comp.id] = comp.loc
        components.append(comp)
    # a data sheet's bad cells drop their rows: the rest of the game is whole, and is drawn to find what else is
    # wrong, so that a sheet's errors come all at once (`PartialGame`)
    partial = bool(diags.errors) and all(in_sheet(d.location) for d in diags.errors)
    if not partial or any(not getattr(c, "cards", True) for c in components):
        diags.raise_if_errors()
    if (
        warnings is not None and not partial
    ):  # a caller that reports warnings gets them (a sheet's unnamed column...)
        warnings.extend(diags)
    lo, hi = v["players"]
    game = Game(
        id=v["id"],
        title=v["title"],
        players_min=lo,
        players_max=hi,
        credits=v["credits"],
        root=root,
        palette=v["palette"],
        palette_low=v["palette_low"],
        printing=(
            MappingProxyType({k: printing[k] for k in printing.given} | {"supply": printing["supply"]})
            if printing is not None
            else MappingProxyType({"supply": ()})
        ),
        icons_file=icons_file,
        components=tuple(components),
        loc=data.loc,
        key_locs=MappingProxyType({str(k): data.loc_of(k) for k in data}),
        inputs=game_inputs,
        fonts=MappingProxyType(fonts),
        words=v["words"] or Words(v["language"] or "en"),
    )
    if partial:
        raise PartialGame(diags, game)
    return game


def in_sheet(loc: Location) -> bool:
    """Whether a place is a cell of a data sheet: `Location.in_sheet`, the one rule (a fetched sheet's too)."""
    return loc.in_sheet


class PartialGame(ContentError):
    """The game loaded but for rows of a data sheet with bad cells (its errors): `game` is the rest, which a build
    draws (writing nothing) to report the drawing's errors with the cells', in one build."""

    def __init__(self, diagnostics: Diagnostics, game: Game):
        super().__init__(diagnostics)
        self.game = game

    def __reduce__(self):  # crosses process boundaries as the plain error it is
        return (ContentError, (self.diagnostics,))


def _fonts(root: Path, value, reader: Reader, diags: Diagnostics) -> dict:
    """{family: {style: (real path, location, instance or axes or None)}}, each file found and read through the reader (recorded)."""
    out: dict = {}
    for family, styles in (value or {}).items():
        found = {}
        for style, given in styles.items():
            loc = styles.loc_of(style)
            choice = None
            file = given
            if isinstance(given, LMap):
                file = given["file"]
                choice = given.get("instance") or (dict(given["axes"]) if "axes" in given else None)
            try:
                path = reader.inside(root, file, loc, "font")
                if Path(file).suffix.lower() not in (".ttf", ".otf"):
                    raise ContentError.at(
                        loc, f"font '{family}' {style}: expected a .ttf or .otf file (got {file!r})"
                    )
                found[style] = (str(reader.use(path, "font", loc)), loc, choice)
            except ContentError as exc:
                diags.extend(exc.diagnostics)
        out[family] = MappingProxyType(found)
    return out


def _icons_file(root: Path, value, loc: Location, reader: Reader, diags: Diagnostics):
    """The game's icons file (a Path), or with the mapping form its `IconSources`; None when it names none."""
    if not value:
        return None
    if isinstance(value, LMap):
        from pnpgen.schema.icons import IconSources

        file = folder = None
        if "file" in value:
            file = _icons_file(root, value["file"], value.loc_of("file"), reader, diags)
        if "svg" in value:
            folder = _icons_folder(root, value["svg"], value.loc_of("svg"), reader, diags)
        return IconSources(file, folder) if file or folder else None
    try:
        path = reader.inside(root, value, loc, "icons")
        if not reader.probe(path, "icons file", loc):
            diags.error(loc, f"icons file '{value}' not found", near_file(path, value))
            return None
    except ContentError as exc:
        diags.extend(exc.diagnostics)
        return None
    return path


def _icons_folder(root: Path, name: str, loc: Location, reader: Reader, diags: Diagnostics) -> Path | None:
    """A folder of SVG icons inside the game folder (listed, and so recorded, when the icons are loaded)."""
    try:
        path = reader.inside(root, name, loc, "icons folder")
    except ContentError as exc:
        diags.extend(exc.diagnostics)
        return None
    if not path.is_dir():
        missing = not path.exists()
        said = "not found" if missing else "is not a folder"
        diags.error(loc, f"icons folder '{name}' {said}", near_file(path, name) if missing else "")
        return None
    return path


def _component(root: Path, item, loc: Location, reader: Reader, diags: Diagnostics):
    """One entry of `components`: its file found, read (and recorded as the component's own inputs) and loaded."""
    if not isinstance(item, str):
        raise ContentError.at(loc, "a component entry must be a file path such as decks/monument.yaml")
    path = reader.inside(root, item, loc, "component file")
    with reader.recording() as recorded:
        if not reader.probe(path, "component file", loc):
            raise ContentError.at(loc, f"component file '{item}' not found", near_file(path, item))
        data = reader.load_yaml(path, "component file")
        return load_component(path, data, diags, recorded, reader, root)

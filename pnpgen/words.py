"""The words pnpgen prints itself on what players hold, in the game's language.

`ENGLISH` is the one table of them: a key a designer can read, and its English text with named placeholders
(`{n}`), filled by whoever prints it. A game picks a built-in language (`language: fr` in game.yaml: `LANGUAGES`)
and overrides any key with its own `words:` (`schema/words.py` checks the keys and placeholders); the result is a
`Words`, carried on the model's `Game` to every writer that prints these words. Nothing here is mutable.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from string import Formatter
from types import MappingProxyType

from pnpgen.errors import Location

ENGLISH: Mapping[str, str] = MappingProxyType(
    {
        # the rulebook's cover (and the printed booklet's back cover)
        "rules_of_play": "Rules of play",
        "for_players": "For {players} players",
        "edition": "Print-and-play edition built with pnpgen",
        # the rulebook
        "contents": "Contents",
        "front_and_back": "front and back",
        "component": "Component",
        "count": "Count",
        "printed_as": "Printed as",
        "cards": "cards",
        "tiles": "tiles",
        "tokens": "tokens",
        "printed_rect": "{pieces}, {w} × {h} mm",
        "printed_square": "square {pieces}, {w} × {h} mm",
        "printed_hex": "hexagonal {pieces}, {across} mm across the flats",
        "printed_circle": "round {pieces}, {across} mm across",
        "printed_triangle": "triangular {pieces}, {side} mm sides",
        "printed_board": "board, {w} × {h} mm, {sides}",
        "one_side": "{n} side",
        "sides": "{n} sides",
        # every sheet's margin label
        "sheet_of": "sheet {n} of {count}",
        "shared_sheet_of": "shared sheet {n} of {count}",
        "fronts": "fronts",
        "backs": "backs",
        "fold_then_cut": "fold on the dashed line, then cut",
        "reprint": "reprint",
        "board_page": "page {row}-{col} (row {row} of {rows}, column {col} of {cols}) · true size",
        # a board tiled over pages: its map page ("\n" ends a line; a line too long is broken between words)
        "board_map_row": "True size {w} x {h} mm, printed on {pages} pages ({rows} row of {cols}).",
        "board_map_rows": "True size {w} x {h} mm, printed on {pages} pages ({rows} rows of {cols}).",
        "board_map_how": "Neighbouring pages repeat a {overlap} mm strip. Cut each page along its dashed red line "
        "(it runs\nthrough the crosses), lay it over its right or lower neighbour so its half crosses complete "
        "the\nneighbour's crosses, and glue. Start from the bottom-right page and work up and left.",
        "blank_back": "This side is the back of page {page}: left blank on purpose.",
        # a deck's checklist (`print: checklist`): one piece in all (`checklist_card`), or more
        "checklist_card": "{count} card, {names} different. Tick each line once its cards are all in the printed deck.",
        "checklist_cards": "{count} cards, {names} different. Tick each line once its cards are all in the printed deck.",
        "checklist_tile": "{count} tile, {names} different. Tick each line once its tiles are all in the printed set.",
        "checklist_tiles": "{count} tiles, {names} different. Tick each line once its tiles are all in the printed set.",
        "checklist_token": "{count} token, {names} different. Tick each line once its tokens are all in the printed set.",
        "checklist_tokens": "{count} tokens, {names} different. Tick each line once its tokens are all in the printed set.",
        "page_of": "page {n} of {count}",
        "continued": "{list}, continued",
    }
)

FRENCH: Mapping[str, str] = MappingProxyType(
    {
        "rules_of_play": "Règles du jeu",
        "for_players": "Pour {players} joueurs",
        "edition": "Édition à imprimer soi-même, faite avec pnpgen",
        "contents": "Sommaire",
        "front_and_back": "recto et verso",
        "component": "Élément",
        "count": "Nombre",
        "printed_as": "Format",
        "cards": "cartes",
        "tiles": "tuiles",
        "tokens": "jetons",
        "printed_rect": "{pieces}, {w} × {h} mm",
        "printed_square": "{pieces} en carré, {w} × {h} mm",
        "printed_hex": "{pieces} en hexagone, {across} mm entre côtés plats",
        "printed_circle": "{pieces} en disque, {across} mm de diamètre",
        "printed_triangle": "{pieces} en triangle, côtés de {side} mm",
        "printed_board": "plateau, {w} × {h} mm, {sides}",
        "one_side": "{n} face",
        "sides": "{n} faces",
        "sheet_of": "feuille {n} sur {count}",
        "shared_sheet_of": "feuille partagée {n} sur {count}",
        "fronts": "rectos",
        "backs": "versos",
        "fold_then_cut": "plier sur le pointillé, puis découper",
        "reprint": "réimpression",
        "board_page": "page {row}-{col} (rangée {row} sur {rows}, colonne {col} sur {cols}) · taille réelle",
        "board_map_row": "Taille réelle {w} x {h} mm, imprimée sur {pages} pages ({rows} rangée de {cols}).",
        "board_map_rows": "Taille réelle {w} x {h} mm, imprimée sur {pages} pages ({rows} rangées de {cols}).",
        "board_map_how": "Deux pages voisines répètent une bande de {overlap} mm. Découpez chaque page le long de "
        "son pointillé rouge (il passe par les croix), posez-la sur sa voisine de droite ou du dessous pour que ses "
        "demi-croix complètent celles de la voisine, et collez. Commencez par la page en bas à droite, puis "
        "remontez vers la gauche.",
        "blank_back": "Ce côté est le dos de la page {page} : laissé vierge exprès.",
        "checklist_card": "{count} carte, {names} différente. Cochez chaque ligne quand toutes ses cartes sont dans le paquet imprimé.",
        "checklist_cards": "{count} cartes, {names} différentes. Cochez chaque ligne quand toutes ses cartes sont dans le paquet imprimé.",
        "checklist_tile": "{count} tuile, {names} différente. Cochez chaque ligne quand toutes ses tuiles sont dans le lot imprimé.",
        "checklist_tiles": "{count} tuiles, {names} différentes. Cochez chaque ligne quand toutes ses tuiles sont dans le lot imprimé.",
        "checklist_token": "{count} jeton, {names} différent. Cochez chaque ligne quand tous ses jetons sont dans le lot imprimé.",
        "checklist_tokens": "{count} jetons, {names} différents. Cochez chaque ligne quand tous ses jetons sont dans le lot imprimé.",
        "page_of": "page {n} sur {count}",
        "continued": "{list} (suite)",
    }
)

GERMAN: Mapping[str, str] = MappingProxyType(
    {
        "rules_of_play": "Spielregeln",
        "for_players": "Für {players} Personen",
        "edition": "Print-and-Play-Ausgabe, erstellt mit pnpgen",
        "contents": "Inhalt",
        "front_and_back": "Vorder- und Rückseite",
        "component": "Spielmaterial",
        "count": "Anzahl",
        "printed_as": "Gedruckt als",
        "cards": "Karten",
        "tiles": "Plättchen",
        "tokens": "Marker",
        "printed_rect": "{pieces}, {w} × {h} mm",
        "printed_square": "quadratische {pieces}, {w} × {h} mm",
        "printed_hex": "sechseckige {pieces}, {across} mm zwischen den geraden Seiten",
        "printed_circle": "runde {pieces}, {across} mm Durchmesser",
        "printed_triangle": "dreieckige {pieces}, {side} mm Seitenlänge",
        "printed_board": "Spielplan, {w} × {h} mm, {sides}",
        "one_side": "{n} Seite",
        "sides": "{n} Seiten",
        "sheet_of": "Bogen {n} von {count}",
        "shared_sheet_of": "gemeinsamer Bogen {n} von {count}",
        "fronts": "Vorderseiten",
        "backs": "Rückseiten",
        "fold_then_cut": "an der gestrichelten Linie falten, dann schneiden",
        "reprint": "Nachdruck",
        "board_page": "Seite {row}-{col} (Reihe {row} von {rows}, Spalte {col} von {cols}) · Originalgröße",
        "board_map_row": "Originalgröße {w} x {h} mm, gedruckt auf {pages} Seiten ({rows} Reihe mit {cols}).",
        "board_map_rows": "Originalgröße {w} x {h} mm, gedruckt auf {pages} Seiten ({rows} Reihen mit je {cols}).",
        "board_map_how": "Benachbarte Seiten wiederholen einen Streifen von {overlap} mm. Schneiden Sie jede Seite "
        "an ihrer rot gestrichelten Linie (sie läuft durch die Kreuze), legen Sie sie so über die rechte oder untere "
        "Nachbarseite, dass ihre halben Kreuze die der Nachbarseite ergänzen, und kleben Sie. Beginnen Sie mit der "
        "Seite unten rechts und arbeiten Sie sich nach oben und links vor.",
        "blank_back": "Diese Seite ist die Rückseite von Seite {page}: absichtlich leer.",
        "checklist_card": "{count} Karte, {names} verschiedene. Haken Sie jede Zeile ab, sobald alle ihre Karten im gedruckten Stapel sind.",
        "checklist_cards": "{count} Karten, {names} verschiedene. Haken Sie jede Zeile ab, sobald alle ihre Karten im gedruckten Stapel sind.",
        "checklist_tile": "{count} Plättchen, {names} verschiedene. Haken Sie jede Zeile ab, sobald alle ihre Plättchen im gedruckten Satz sind.",
        "checklist_tiles": "{count} Plättchen, {names} verschiedene. Haken Sie jede Zeile ab, sobald alle ihre Plättchen im gedruckten Satz sind.",
        "checklist_token": "{count} Marker, {names} verschiedene. Haken Sie jede Zeile ab, sobald alle ihre Marker im gedruckten Satz sind.",
        "checklist_tokens": "{count} Marker, {names} verschiedene. Haken Sie jede Zeile ab, sobald alle ihre Marker im gedruckten Satz sind.",
        "page_of": "Seite {n} von {count}",
        "continued": "{list} (Fortsetzung)",
    }
)

# game.yaml's `language:`: each built-in language gives every key (`tests/test_words.py`)
LANGUAGES: Mapping[str, Mapping[str, str]] = MappingProxyType({"en": ENGLISH, "fr": FRENCH, "de": GERMAN})


def placeholders(text: str) -> tuple[str, ...]:
    """The names of `text`'s placeholders, in order; ValueError for a brace that opens no plain `{name}` (a
    format spec, a conversion, an index or an attribute: pnpgen fills names with text, nothing more)."""
    names = []
    try:
        parts = list(Formatter().parse(text))
    except ValueError:
        raise ValueError("a lone '{' or '}'") from None
    for _literal, name, spec, conversion in parts:
        if name is None:
            continue
        if not name.isidentifier() or spec or conversion:
            raise ValueError(
                f"'{{{name}{'!' + conversion if conversion else ''}{':' + spec if spec else ''}}}'"
            )
        names.append(name)
    return tuple(names)


@dataclass(frozen=True)
class Words:
    """A game's words: English, under its language's, under its own `words:` (`given`, key -> text, each written
    at its place in `places`)."""

    language: str = "en"
    given: tuple[tuple[str, str], ...] = ()
    places: tuple[Location, ...] = field(default=(), repr=False, compare=False)
    table: Mapping[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "table", {**ENGLISH, **LANGUAGES[self.language], **dict(self.given)})

    def __call__(self, key: str, **values: object) -> str:
        """The text of `key` with its placeholders filled (each value printed as `str` prints it)."""
        return self.table[key].format(**{k: str(v) for k, v in values.items()})


# the font a key is printed in where it is not `sans` (or its bold): the glyphs its text must find there
FONTS: Mapping[str, str] = MappingProxyType({"rules_of_play": "display"})

ENGLISH_WORDS = Words()  # what a writer prints when no game is given (a test's, a tool's own page)

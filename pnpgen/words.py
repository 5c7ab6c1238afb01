"""The words pnpgen prints itself on what players hold, in the game's language.

`ENGLISH` is the one table of them: a key a designer can read, and its English text with named placeholders
(`{n}`), filled by whoever prints it. A game picks a built-in language (`language: fr` in game.yaml: `LANGUAGES`)
and overrides any key with its own `words:` (`schema/words.py` checks the keys and placeholders); the result is a
`Words`, carried on the model's `Game` to every writer that prints these words; no table changes once made.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from string import Formatter
from types import MappingProxyType

from pnpgen.errors import Location, short

ENGLISH: Mapping[str, str] = MappingProxyType(
    {
        # the rulebook's cover (and the printed booklet's back cover)
        "rules_of_play": "Rules of play",
        "for_players": "For {players} players",
        "for_one_player": "For 1 player",
        "edition": "Print-and-play edition built with pnpgen",
        # the rulebook
        "decimal_mark": ".",
        "contents": "Contents",
        "front_and_back": "front and back",
        "colon": "{before}: {after}",  # a name and what follows it: a caption, a heading, a label
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
        "board_map_row": "True size {w} × {h} mm, printed on {pages} pages ({rows} row of {cols}).",
        "board_map_rows": "True size {w} × {h} mm, printed on {pages} pages ({rows} rows of {cols}).",
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
        # the print-all file's first page, the print-and-build page
        "guide_title": "{title}: print and build",
        "guide_intro": "Everything this game needs, in the order to print it.",
        "guide_how": "How to print",
        "guide_pages": "What is on which pages",
        "guide_need": "What you need",
        "guide_from_home": "From home, as well (not printed)",
        "guide_col_pages": "Pages",
        "guide_col_what": "What",
        "guide_col_then": "Then",
        "guide_goes_on": "The list goes on: see each page's label for what it holds.",
        "guide_page_one": "page 1",
        "flip_long": "double-sided, flipping on the long edge (\u201clong-edge binding\u201d)",
        "flip_short": "double-sided, flipping on the short edge (\u201cshort-edge binding\u201d)",
        "flip_none": "single-sided",
        "paper_a4": "A4",
        "paper_letter": "US Letter",
        "guide_paper": "Paper: {paper}, {flip}. Print at 100 % (\u201cactual size\u201d): turn off \u201cfit to page\u201d and "
        "\u201cshrink oversized pages\u201d, or every piece comes out smaller.",
        "guide_one_job": "Print pages 1 to {pages} in one double-sided job. Every page that has no back of its own is "
        "followed by a blank one, so each sheet's backs land behind its fronts.",
        "guide_first_sheet": "Before printing everything, print the first sheet (its fronts and backs) and hold it "
        "against the light: the cut marks of both sides should meet. If they do not, shift the back side with your "
        "printer's duplex offset (image shift) setting; if it has none, print the pages of backs on sheets of their "
        "own and glue each behind its fronts, cut marks lined up against a window.",
        "guide_glue": "Each page of backs follows its page of fronts. Glue each backs page to its fronts page, back "
        "to back, lining the cut marks up against a window, and cut once the glue is dry.",
        "guide_fold_one": "No duplex printer? {files} holds the same fronts and backs as fold-over sheets: print them "
        "single-sided, fold on the dashed line, then cut.",
        "guide_fold": "No duplex printer? {files} hold the same fronts and backs as fold-over sheets: print them "
        "single-sided, fold on the dashed line, then cut.",
        "guide_checklist_one": "Checklist: {files} lists every piece of its deck with how many to make and a box to "
        "tick: tick each one as you cut it, and nothing goes missing.",
        "guide_checklist": "Checklists: {files} list every piece of each deck with how many to make and a box to "
        "tick: tick each one as you cut it, and nothing goes missing.",
        "guide_shifted": "Backs are shifted by {dx} mm across and {dy} mm up to correct your printer.",
        "guide_shifted_turned": "Backs are shifted by {dx} mm across and {dy} mm up and turned {angle}\u00b0 to "
        "correct your printer.",
        "guide_low_ink": "This is the low-ink form: pale fills and outlines, black text.",
        "guide_knife": "a craft knife, a metal ruler and a cutting mat (scissors will do for cards)",
        "guide_glue_stick": "a glue stick",
        "guide_card_stock": "card stock (200\u2013300 g/m\u00b2) or thin greyboard to glue tiles and tokens onto, if "
        "you like them sturdy",
        "guide_sheet": "The components take {n} sheet of paper.",
        "guide_sheets": "The components take {n} sheets of paper.",
        "guide_sheet_saved": "The components take {n} sheet of paper, {saved} fewer than printing each from its own "
        "file: small sets share sheets.",
        "guide_sheets_saved": "The components take {n} sheets of paper, {saved} fewer than printing each from its own "
        "file: small sets share sheets.",
        "guide_rulebook": "The rules are in rulebook.pdf: print it double-sided, flipping on the long edge.",
        # the print-and-build page's rows: what each run of pages holds, and what to do with it
        "n_card": "{n} card",
        "n_cards": "{n} cards",
        "n_tile": "{n} tile",
        "n_tiles": "{n} tiles",
        "n_token": "{n} token",
        "n_tokens": "{n} tokens",
        "row_deck": "{name} ({pieces})",
        "row_deck_shared": "{name} ({pieces}; {shared} on the shared sheets)",
        "row_board": "{name} (board, {sides})",
        "row_shared_cards": "Shared sheets of cards: {names}",
        "row_shared_pieces": "Shared sheets of tiles and tokens: {names}",
        "how_cards": "cut on the cut marks: straight cuts right across the sheet",
        "how_pieces": "cut on the cut marks, then glue to card or greyboard if you want them sturdier",
        "how_round": "cut round each piece on its black outline",
        "how_shared_cards": "cut on the cut marks, as the other card sheets",
        "how_shared_pieces": "cut round each piece on its black outline; each component keeps to its own band",
        "how_board_tiled": "true size on several pages: cut each page on its dashed red line, lay it over its "
        "neighbour so the crosses meet, and glue (its first page is the map)",
        "how_board_dice": "one page a side: cut each die out on its solid lines, fold on the dashed ones, glue the tabs",
        "how_board": "one page a side: trim to the board's edge",
        # Tabletop Simulator's saved object and save (`export tts`): what players read at the table
        "tts_bag": "Every component of {title}.",
        "tts_save": "{title} ({players} players)",
        "tts_note": "{title}, set up for {players} players. Deal the decks with TTS's deal; every piece is counted.",
        "tts_supply": "Supply: {name}",
        "tts_unused": "Not used with {players} players",
    }
)

FRENCH: Mapping[str, str] = MappingProxyType(
    {
        "rules_of_play": "Règles du jeu",
        "for_players": "Pour {players} joueurs",
        "for_one_player": "Pour 1 joueur",
        "edition": "Édition à imprimer soi-même, faite avec pnpgen",
        "decimal_mark": ",",
        "contents": "Sommaire",
        "front_and_back": "recto et verso",
        "colon": "{before} : {after}",
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
        "board_map_row": "Taille réelle {w} × {h} mm, imprimée sur {pages} pages ({rows} rangée de {cols}).",
        "board_map_rows": "Taille réelle {w} × {h} mm, imprimée sur {pages} pages ({rows} rangées de {cols}).",
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
        "guide_title": "{title} : imprimer et monter",
        "guide_intro": "Tout ce qu'il faut pour ce jeu, dans l'ordre d'impression.",
        "guide_how": "Comment imprimer",
        "guide_pages": "Quelles pages contiennent quoi",
        "guide_need": "Ce qu'il vous faut",
        "guide_from_home": "À prévoir aussi (non imprimé)",
        "guide_col_pages": "Pages",
        "guide_col_what": "Contenu",
        "guide_col_then": "Ensuite",
        "guide_goes_on": "La liste continue : l'étiquette de chaque page dit ce qu'elle contient.",
        "guide_page_one": "page 1",
        "flip_long": "recto verso, retournement sur le bord long (« reliure bord long »)",
        "flip_short": "recto verso, retournement sur le bord court (« reliure bord court »)",
        "flip_none": "recto seul",
        "paper_a4": "A4",
        "paper_letter": "US Letter",
        "guide_paper": "Papier : {paper}, {flip}. Imprimez à 100 % (« taille réelle ») : désactivez « ajuster à la page » et « réduire les pages trop grandes », sinon chaque pièce sort plus petite.",
        "guide_one_job": "Imprimez les pages 1 à {pages} en une seule impression recto verso. Chaque page sans verso propre est suivie d'une page blanche, pour que les versos de chaque feuille tombent derrière ses rectos.",
        "guide_first_sheet": "Avant de tout imprimer, imprimez la première feuille (rectos et versos) et regardez-la à contre-jour : les traits de coupe des deux faces doivent se rejoindre. Sinon, décalez le verso avec le réglage de décalage recto verso (décalage d'image) de l'imprimante ; s'il n'existe pas, imprimez les pages de versos sur des feuilles à part et collez chacune derrière ses rectos, traits de coupe alignés contre une vitre.",
        "guide_glue": "Chaque page de versos suit sa page de rectos. Collez chaque page de versos dos à dos avec sa page de rectos, traits de coupe alignés contre une vitre, et découpez une fois la colle sèche.",
        "guide_fold_one": "Pas d'imprimante recto verso ? {files} contient les mêmes rectos et versos en feuilles à plier : imprimez-les en recto seul, pliez sur le pointillé, puis découpez.",
        "guide_fold": "Pas d'imprimante recto verso ? {files} contiennent les mêmes rectos et versos en feuilles à plier : imprimez-les en recto seul, pliez sur le pointillé, puis découpez.",
        "guide_checklist_one": "Liste de contrôle : {files} liste chaque pièce de son paquet, avec le nombre à fabriquer et une case à cocher : cochez-la à chaque pièce découpée, et rien ne manquera.",
        "guide_checklist": "Listes de contrôle : {files} listent chaque pièce de chaque paquet, avec le nombre à fabriquer et une case à cocher : cochez-la à chaque pièce découpée, et rien ne manquera.",
        "guide_shifted": "Les versos sont décalés de {dx} mm en largeur et de {dy} mm vers le haut pour corriger votre imprimante.",
        "guide_shifted_turned": "Les versos sont décalés de {dx} mm en largeur et de {dy} mm vers le haut, et tournés de {angle}°, pour corriger votre imprimante.",
        "guide_low_ink": "Ceci est la version économe en encre : aplats et contours pâles, texte noir.",
        "guide_knife": "un cutter, une règle métallique et un tapis de coupe (des ciseaux suffisent pour les cartes)",
        "guide_glue_stick": "un bâton de colle",
        "guide_card_stock": "du papier cartonné (200–300 g/m²) ou du carton gris fin sur lequel coller tuiles et jetons, si vous les voulez solides",
        "guide_sheet": "Les éléments tiennent sur {n} feuille de papier.",
        "guide_sheets": "Les éléments tiennent sur {n} feuilles de papier.",
        "guide_sheet_saved": "Les éléments tiennent sur {n} feuille de papier, {saved} de moins qu'en imprimant chacun depuis son propre fichier : les petits lots partagent des feuilles.",
        "guide_sheets_saved": "Les éléments tiennent sur {n} feuilles de papier, {saved} de moins qu'en imprimant chacun depuis son propre fichier : les petits lots partagent des feuilles.",
        "guide_rulebook": "Les règles sont dans rulebook.pdf : imprimez-le en recto verso, retournement sur le bord long.",
        "n_card": "{n} carte",
        "n_cards": "{n} cartes",
        "n_tile": "{n} tuile",
        "n_tiles": "{n} tuiles",
        "n_token": "{n} jeton",
        "n_tokens": "{n} jetons",
        "row_deck": "{name} ({pieces})",
        "row_deck_shared": "{name} ({pieces} ; {shared} sur les feuilles partagées)",
        "row_board": "{name} (plateau, {sides})",
        "row_shared_cards": "Feuilles partagées de cartes : {names}",
        "row_shared_pieces": "Feuilles partagées de tuiles et jetons : {names}",
        "how_cards": "découper sur les traits de coupe : des coupes droites d'un bord à l'autre de la feuille",
        "how_pieces": "découper sur les traits de coupe, puis coller sur du carton si vous les voulez plus solides",
        "how_round": "découper chaque pièce sur son contour noir",
        "how_shared_cards": "découper sur les traits de coupe, comme les autres feuilles de cartes",
        "how_shared_pieces": "découper chaque pièce sur son contour noir ; chaque élément reste dans sa bande",
        "how_board_tiled": "taille réelle sur plusieurs pages : découpez chaque page sur son pointillé rouge, posez-la sur sa voisine pour que les croix se rejoignent, et collez (la première page est le plan)",
        "how_board_dice": "une page par face : découpez chaque dé sur ses traits pleins, pliez sur les pointillés, collez les languettes",
        "how_board": "une page par face : rognez au bord du plateau",
        "tts_bag": "Tout le matériel de {title}.",
        "tts_save": "{title} ({players} joueurs)",
        "tts_note": "{title}, mis en place pour {players} joueurs. Distribuez les paquets avec la donne de TTS ; chaque pièce est comptée.",
        "tts_supply": "Réserve : {name}",
        "tts_unused": "Inutilisé à {players} joueurs",
    }
)

GERMAN: Mapping[str, str] = MappingProxyType(
    {
        "rules_of_play": "Spielregeln",
        "for_players": "Für {players} Personen",
        "for_one_player": "Für 1 Person",
        "edition": "Print-and-Play-Ausgabe, erstellt mit pnpgen",
        "decimal_mark": ",",
        "contents": "Inhalt",
        "front_and_back": "Vorder- und Rückseite",
        "colon": "{before}: {after}",
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
        "board_map_row": "Originalgröße {w} × {h} mm, gedruckt auf {pages} Seiten ({rows} Reihe mit {cols}).",
        "board_map_rows": "Originalgröße {w} × {h} mm, gedruckt auf {pages} Seiten ({rows} Reihen mit je {cols}).",
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
        "guide_title": "{title}: drucken und basteln",
        "guide_intro": "Alles, was dieses Spiel braucht, in der Reihenfolge zum Drucken.",
        "guide_how": "So wird gedruckt",
        "guide_pages": "Was auf welchen Seiten steht",
        "guide_need": "Was Sie brauchen",
        "guide_from_home": "Außerdem von zu Hause (nicht gedruckt)",
        "guide_col_pages": "Seiten",
        "guide_col_what": "Was",
        "guide_col_then": "Dann",
        "guide_goes_on": "Die Liste geht weiter: Die Beschriftung jeder Seite sagt, was sie enthält.",
        "guide_page_one": "Seite 1",
        "flip_long": "beidseitig, Wenden an der langen Kante („Bindung an der langen Kante“)",
        "flip_short": "beidseitig, Wenden an der kurzen Kante („Bindung an der kurzen Kante“)",
        "flip_none": "einseitig",
        "paper_a4": "A4",
        "paper_letter": "US Letter",
        "guide_paper": "Papier: {paper}, {flip}. Drucken Sie mit 100 % („tatsächliche Größe“): Schalten Sie „An Seite anpassen“ und „Übergroße Seiten verkleinern“ aus, sonst wird jedes Teil kleiner.",
        "guide_one_job": "Drucken Sie die Seiten 1 bis {pages} in einem beidseitigen Auftrag. Auf jede Seite ohne eigene Rückseite folgt eine leere, damit die Rückseiten jedes Bogens hinter seinen Vorderseiten landen.",
        "guide_first_sheet": "Drucken Sie vor allem anderen den ersten Bogen (Vorder- und Rückseiten) und halten Sie ihn gegen das Licht: Die Schnittmarken beider Seiten sollten sich decken. Wenn nicht, verschieben Sie die Rückseite mit der Duplex-Versatz-Einstellung (Bildverschiebung) Ihres Druckers; hat er keine, drucken Sie die Seiten mit Rückseiten auf eigene Bögen und kleben Sie jede hinter ihre Vorderseiten, die Schnittmarken an einer Fensterscheibe ausgerichtet.",
        "guide_glue": "Auf jede Seite mit Vorderseiten folgt ihre Seite mit Rückseiten. Kleben Sie beide Rücken an Rücken zusammen, die Schnittmarken an einer Fensterscheibe ausgerichtet, und schneiden Sie erst, wenn der Kleber trocken ist.",
        "guide_fold_one": "Kein Duplexdrucker? {files} enthält dieselben Vorder- und Rückseiten als Faltbögen: einseitig drucken, an der gestrichelten Linie falten, dann schneiden.",
        "guide_fold": "Kein Duplexdrucker? {files} enthalten dieselben Vorder- und Rückseiten als Faltbögen: einseitig drucken, an der gestrichelten Linie falten, dann schneiden.",
        "guide_checklist_one": "Checkliste: {files} führt jedes Teil seines Stapels mit seiner Anzahl und einem Kästchen auf: Haken Sie jedes ab, sobald es ausgeschnitten ist, dann fehlt nichts.",
        "guide_checklist": "Checklisten: {files} führen jedes Teil jedes Stapels mit seiner Anzahl und einem Kästchen auf: Haken Sie jedes ab, sobald es ausgeschnitten ist, dann fehlt nichts.",
        "guide_shifted": "Die Rückseiten sind um {dx} mm waagerecht und {dy} mm nach oben verschoben, um Ihren Drucker auszugleichen.",
        "guide_shifted_turned": "Die Rückseiten sind um {dx} mm waagerecht und {dy} mm nach oben verschoben und um {angle}° gedreht, um Ihren Drucker auszugleichen.",
        "guide_low_ink": "Dies ist die tintensparende Fassung: blasse Flächen und Umrisse, schwarzer Text.",
        "guide_knife": "ein Bastelmesser, ein Metalllineal und eine Schneidematte (für Karten genügt eine Schere)",
        "guide_glue_stick": "einen Klebestift",
        "guide_card_stock": "Karton (200–300 g/m²) oder dünne Graupappe, um Plättchen und Marker aufzukleben, wenn sie stabil sein sollen",
        "guide_sheet": "Das Spielmaterial braucht {n} Bogen Papier.",
        "guide_sheets": "Das Spielmaterial braucht {n} Bogen Papier.",
        "guide_sheet_saved": "Das Spielmaterial braucht {n} Bogen Papier, {saved} weniger als beim Druck jeder Datei für sich: Kleine Sätze teilen sich Bögen.",
        "guide_sheets_saved": "Das Spielmaterial braucht {n} Bogen Papier, {saved} weniger als beim Druck jeder Datei für sich: Kleine Sätze teilen sich Bögen.",
        "guide_rulebook": "Die Regeln stehen in rulebook.pdf: beidseitig drucken, Wenden an der langen Kante.",
        "n_card": "{n} Karte",
        "n_cards": "{n} Karten",
        "n_tile": "{n} Plättchen",
        "n_tiles": "{n} Plättchen",
        "n_token": "{n} Marker",
        "n_tokens": "{n} Marker",
        "row_deck": "{name} ({pieces})",
        "row_deck_shared": "{name} ({pieces}; {shared} auf den gemeinsamen Bögen)",
        "row_board": "{name} (Spielplan, {sides})",
        "row_shared_cards": "Gemeinsame Bögen mit Karten: {names}",
        "row_shared_pieces": "Gemeinsame Bögen mit Plättchen und Markern: {names}",
        "how_cards": "an den Schnittmarken schneiden: gerade Schnitte quer über den ganzen Bogen",
        "how_pieces": "an den Schnittmarken schneiden, dann auf Karton kleben, wenn sie stabiler sein sollen",
        "how_round": "jedes Teil an seinem schwarzen Umriss ausschneiden",
        "how_shared_cards": "an den Schnittmarken schneiden, wie die anderen Kartenbögen",
        "how_shared_pieces": "jedes Teil an seinem schwarzen Umriss ausschneiden; jedes Spielmaterial bleibt in seinem Streifen",
        "how_board_tiled": "Originalgröße auf mehreren Seiten: jede Seite an ihrer rot gestrichelten Linie schneiden, so über die Nachbarseite legen, dass sich die Kreuze decken, und kleben (die erste Seite ist der Plan)",
        "how_board_dice": "eine Seite je Spielplanseite: jeden Würfel an den durchgezogenen Linien ausschneiden, an den gestrichelten falten, die Laschen kleben",
        "how_board": "eine Seite je Spielplanseite: am Rand des Spielplans beschneiden",
        "tts_bag": "Das gesamte Spielmaterial von {title}.",
        "tts_save": "{title} ({players} Personen)",
        "tts_note": "{title}, aufgebaut für {players} Personen. Teilt die Stapel mit dem Austeilen von TTS aus; jedes Teil ist gezählt.",
        "tts_supply": "Vorrat: {name}",
        "tts_unused": "Nicht benutzt bei {players} Personen",
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
            written = f"{{{name}{'!' + conversion if conversion else ''}{':' + spec if spec else ''}}}"
            raise ValueError(f"'{short(written)}'")  # a placeholder of 10,000 letters is shown shortened
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

    def number(self, value: float, spec: str) -> str:
        """`value` as `format(value, spec)` writes it, with the game's decimal mark (`decimal_mark`: 63,5 mm)."""
        return format(value, spec).replace(".", self.table["decimal_mark"])


# the font a key is printed in where it is not `sans` (or its bold): the glyphs its text must find there
FONTS: Mapping[str, str] = MappingProxyType({"rules_of_play": "display"})

ENGLISH_WORDS = Words()  # what a writer prints when no game is given (a test's, a tool's own page)

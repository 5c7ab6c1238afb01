"""Where a line of text may break: at a space, but not where a reader in any of pnpgen's languages would see
the line start or end wrongly. `tokens` gives the words a wrapper sets, each a run no line break enters:

- a no-break space (U+00A0, U+202F, U+2007), as typed in a game's own words or text, never breaks;
- a mark that closes what comes before it, standing apart (French `Papier :`, `« taille réelle »`, a German
  `100 %`), stays with the word before it, so no line starts with `:`, `;`, `!`, `?`, `%`, `»` or `)`;
- a mark that opens what follows it, standing apart (`«`, `„`, `(`), stays with the word after it;
- a unit after a number (`63,5 mm`, `200–300 g/m²`, `63,5 × 88,9`) stays with the number.
"""

from __future__ import annotations

import re

NO_BREAK = "\u00a0\u202f\u2007"
CLOSING = frozenset(":;!?%\u2030\u00bb\u203a)]}\u2026")  # ... and %, per mille, », ›, closing brackets, …
OPENING = frozenset("\u00ab\u2039\u201e([{")  # «, ‹, „ and opening brackets
UNITS = frozenset({"mm", "cm", "m", "in", "pt", "px", "%", "\u2030", "\u00b0", "g/m\u00b2", "\u00d7", "x"})
TIMES = frozenset({"\u00d7", "x"})  # between two numbers: stays with both
_BREAKABLE = re.compile(rf"[^\S{NO_BREAK}]+")  # whitespace but the no-break spaces
_TRAILING = ".,;:!?)]}\u00bb\u203a"


def tokens(text: str) -> list[str]:
    """`text` (one paragraph) split at its breakable spaces into the runs a line may be broken between (see the
    module's rules); each run keeps the spaces inside it as one space. (A word's first or last character decides
    first: most words join nothing, and every card's text goes through here.)"""
    out: list[str] = []
    glue_next = False
    for tok in _BREAKABLE.split(str(text)):
        if not tok:
            continue
        joined = bool(out) and (
            glue_next
            or (tok[0] in CLOSING and _closes(tok))
            or (out[-1][-1].isdigit() and tok.rstrip(_TRAILING) in UNITS)
        )
        if joined:
            out[-1] += " " + tok
        else:
            out.append(tok)
        glue_next = (tok[0] in OPENING and all(ch in OPENING for ch in tok)) or (joined and tok in TIMES)
    return out


def _closes(tok: str) -> bool:
    return tok[0] in CLOSING and not any(ch.isalnum() for ch in tok)

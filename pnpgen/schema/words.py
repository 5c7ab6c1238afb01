"""game.yaml's `language:` and `words:`: a built-in language and the game's own words over it (`pnpgen.words`).

Every problem is placed where it is written: an unknown key at the key, naming the nearest key; a value that
drops a placeholder its English text has, or names one it lacks, at the value.
"""

from __future__ import annotations

from pnpgen.errors import did_you_mean, short
from pnpgen.schema.fields import Invalid, Problems, describe
from pnpgen.source import LMap
from pnpgen.words import ENGLISH, LANGUAGES, Words, placeholders

# a language named as a designer may name it: in English, in itself, in the other built-in languages
NAMED = {"english": "en", "englisch": "en", "anglais": "en"}
NAMED |= {"french": "fr", "français": "fr", "francais": "fr", "französisch": "fr", "franzoesisch": "fr"}
NAMED |= {"german": "de", "deutsch": "de", "allemand": "de"}


def as_language(value) -> str:
    """A built-in language's code (`pnpgen.words.LANGUAGES`). A tag with a region (`de-DE`, `fr_CA`) or the
    language's name (`Deutsch`, `French`) is refused saying the code to write."""
    if isinstance(value, str) and value in LANGUAGES:
        return value
    word = str(value).strip().lower()
    code = NAMED.get(word) or next((c for c in LANGUAGES if word.replace("_", "-").startswith(c + "-")), None)
    hint = f"did you mean '{code}'? (accepted: {', '.join(sorted(LANGUAGES))})" if code else ""
    raise Invalid(
        f"is not a language pnpgen has its words in ({describe(value)}); "
        + (hint or did_you_mean(word, LANGUAGES))
    )


def as_words(value, language: str | None) -> Words:
    """`words:` {key: text}, each key one of pnpgen's (`ENGLISH`), each text with the placeholders its English
    text has, no more and no fewer."""
    if not isinstance(value, LMap):
        raise Invalid("must map pnpgen's word keys to your text, such as {contents: Sommaire}")
    given, places, problems = [], [], []
    for key, text in value.items():
        if key not in ENGLISH:
            problems.append(
                (value.key_loc(key), f"unknown key '{key}' in words: " + did_you_mean(str(key), ENGLISH))
            )
            continue
        at = value.loc_of(key)
        if not isinstance(text, str) or isinstance(text, bool):
            problems.append((at, f"words: '{key}' must be text (got {describe(text)})"))
            continue
        problem = _placeholders_differ(key, text)
        if problem:
            problems.append((at, problem))
            continue
        given.append((str(key), text))
        places.append(at)
    if problems:
        raise Problems(problems)
    return Words(language or "en", tuple(given), tuple(places))


def _placeholders_differ(key: str, text: str) -> str:
    """What is wrong with `text`'s placeholders for `key`, or ""."""
    want = set(placeholders(ENGLISH[key]))
    try:
        got = set(placeholders(text))
    except ValueError as exc:
        return (
            f"words: '{key}' has {exc}: a placeholder is a plain name in braces, such as {{n}} "
            "(write a brace itself as {{ or }})"
        )
    parts = []
    if got - want:
        parts.append(f"names {_braced(got - want)}, which pnpgen does not fill")
    if want - got:
        parts.append(f"leaves out {_braced(want - got)}, which pnpgen fills in")
    if not parts:
        return ""
    takes = _braced(want) or "no placeholder"
    return f"words: '{key}' {' and '.join(parts)}: it takes {takes} (its English: {ENGLISH[key]!r})"


def _braced(names: set[str]) -> str:
    return ", ".join(short(f"{{{n}}}") for n in sorted(names))  # a name of 10,000 letters is shown shortened

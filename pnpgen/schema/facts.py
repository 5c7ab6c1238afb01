"""facts.yaml: what the game's documents state, with where; its tables and its reader.

The reader checks the file's own shape and its references inside the file (a fact's erratum, a number's fact);
`pnpgen.checker` holds the facts against the content.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pnpgen.errors import Diagnostics, Location, did_you_mean
from pnpgen.schema.fields import (
    Invalid,
    Key,
    Table,
    Values,
    as_expression,
    as_id,
    as_str,
    as_whole,
    describe,
    each_value,
    listing,
    mapping,
)
from pnpgen.source import LList, LMap


def as_player_list(value) -> tuple[int, ...]:
    counts = value if isinstance(value, list) else [value]
    if not counts or not all(isinstance(n, int) and not isinstance(n, bool) for n in counts):
        raise Invalid("must be a player count or a list of them")
    return tuple(counts)


def as_scalar(value):
    """A plain value as written: a number or text."""
    if isinstance(value, bool) or value is None or isinstance(value, (dict, list)):
        raise Invalid(f"must be a number or text (got {describe(value)})")
    return value


def as_words(value) -> tuple[str, ...]:
    words = value if isinstance(value, list) else [value]
    return tuple(as_str(w) for w in words)


FILE = Table(
    "facts.yaml",
    (
        Key("document", as_str, "the document the facts come from"),
        Key("facts", listing(), "what the document states (see the keys of a fact)"),
        Key("errata", listing(), "where the documents cannot all be true, and what the content does"),
        Key("uses", listing(), "every piece the rules use, and the component that is it"),
        Key("numbers", listing(), "every number of the document's components and setup sections"),
        Key("rules", listing(), "rules every diagram must obey (see the keys of a rule)"),
        Key("measures", listing(), "numbers a diagram's labels show, worked out by the rules' expressions"),
        Key("let", mapping(), "named expressions every rule and measure sees before its own `let`"),
        Key(
            "keywords",
            as_words,
            "terms cards use that the rulebook must introduce (besides **Term:** labels)",
        ),
    ),
    title="Keys of facts.yaml",
)
FACT = Table(
    "fact",
    (
        Key("id", as_id, "unique among the facts", required=True),
        Key("section", as_str, "where the document says it"),
        Key("says", as_str, "what it says, in short, in our words"),
        Key("component", as_str, "the component it is about"),
        Key("filter", mapping(), "only pieces whose fields have these values"),
        Key("total", as_whole, "pieces, counting copies"),
        Key("by", as_str, "a field of the pieces to break them down by"),
        Key(
            "counts",
            each_value(as_whole, "count for '{key}'", "must be a mapping"),
            "with `by`: exactly this many pieces for each value",
        ),
        Key("each", as_whole, "with `by`: every value has this many pieces"),
        Key("values", as_whole, "with `by`: there are this many different values"),
        Key("players", as_player_list, "the player counts `need`, `have` and `value` are checked for"),
        Key("need", as_expression, "an expression: what the rules take"),
        Key("have", as_expression, "an expression: what there is; must be at least `need`"),
        Key("value", as_expression, "an expression whose result must be `equals`"),
        Key("equals", None, "what `value` must give"),
        Key("erratum", as_str, "the erratum that explains why this fact fails"),
        Key("note", as_str, "free text for the reader of facts.yaml"),
    ),
)
ERRATUM = Table(
    "erratum",
    (
        Key("id", as_id, "unique among the errata", required=True),
        Key("section", as_str, "where the documents disagree"),
        Key("says", as_str, "what they say", required=True),
        Key("resolution", as_str, "what the content does about it", required=True),
    ),
)
USE = Table(
    "use",
    (
        Key("piece", as_str, "the piece as the rules name it", required=True),
        Key("component", as_str, "the component that is it", required=True),
        Key("in", as_words, "where the rules use it: setup, turn, scoring..."),
        Key("note", as_str, "free text"),
    ),
    title="Keys of a use",
)
NUMBER = Table(
    "number",
    (
        Key("section", as_str, "the section the number stands in"),
        Key("number", as_scalar, "the number as the document writes it"),
        Key("fact", as_str, "the fact that checks it"),
        Key("why", as_str, "or why it is not a count of pieces"),
    ),
)
RULE = Table(
    "rule",
    (
        Key("id", as_id, "unique among the rules", required=True),
        Key("section", as_str, "where the document says it"),
        Key("says", as_str, "the rule, in short, in our words", required=True),
        Key("diagrams", as_words, "the diagrams it is about; default: every diagram"),
        Key("each", as_expression, "an expression giving the items to check one by one, each as `it`"),
        Key(
            "let", mapping(), "named expressions worked out in order before `holds`, each using those before"
        ),
        Key(
            "holds",
            as_expression,
            "an expression that must be true (for every item of `each`)",
            required=True,
        ),
        Key("note", as_str, "free text for the reader of facts.yaml"),
    ),
)
MEASURE = Table(
    "measure",
    (
        Key(
            "id", as_id, "unique among the measures; an arrow's or label's `measure` names it", required=True
        ),
        Key("section", as_str, "where the document says it"),
        Key("says", as_str, "what it works out, in our words", required=True),
        Key("let", mapping(), "named expressions worked out in order before `value`"),
        Key(
            "value", as_expression, "the number (or text) printed, for the arrow or label `it`", required=True
        ),
    ),
)
TABLES = (FILE, FACT, ERRATUM, USE, NUMBER, RULE, MEASURE)


@dataclass
class Facts:
    document: str = ""
    facts: list[Values] = field(default_factory=list)  # each well formed (the others are reported)
    errata: dict[str, Values] = field(default_factory=dict)  # by id
    uses: list[Values] = field(default_factory=list)
    numbers: list[Values] = field(default_factory=list)
    rules: list[Values] = field(default_factory=list)
    measures: dict[str, Values] = field(default_factory=dict)  # by id
    keywords: tuple[str, ...] = ()  # terms the rulebook must introduce where a card names them


def read_facts(data, diags: Diagnostics, display: str) -> Facts:
    """facts.yaml's mapping -> its facts, errata, uses and numbers; every problem goes to `diags`."""
    out = Facts()
    if not isinstance(data, LMap):
        diags.error(Location(display, 1), "facts.yaml must be a mapping with 'facts'")
        return out
    top = FILE.read(data, diags)
    out.document = top["document"] or ""
    out.keywords = top["keywords"] or ()
    for e in _items(top["errata"], ERRATUM, "an erratum is a mapping with id, says and resolution", diags):
        if e["id"]:
            out.errata[e["id"]] = e
    seen: set = set()
    for fact in _items(top["facts"], FACT, "a fact is a mapping with an 'id'", diags, keep_bad=True):
        if fact["id"] and fact["id"] in seen:
            diags.error(fact.loc_of("id"), f"fact id '{fact['id']}' is used twice")
        seen.add(fact["id"])
        if _whole(fact, out.errata, diags):
            out.facts.append(fact)
    out.uses = _items(top["uses"], USE, "a use is {piece: name, component: id, in: [...]}", diags)
    numbers = "a number is {section:, number:, fact: id} or {..., why: reason}"
    for n in _items(top["numbers"], NUMBER, numbers, diags, keep_bad=True):
        if n["fact"] is None and not n["why"]:
            diags.error(n.loc, f"number {n['number']} needs the fact that checks it, or 'why' it is not one")
        elif n["fact"] is not None and n["fact"] not in seen:
            diags.error(
                n.loc_of("fact"),
                f"number {n['number']} names no fact '{n['fact']}'",
                did_you_mean(str(n["fact"]), [s for s in seen if s]),
            )
        out.numbers.append(n)
    ids: set = set()
    for rule in _items(top["rules"], RULE, "a rule is {id:, says:, holds: expression}", diags):
        if rule["id"] in ids:
            diags.error(rule.loc_of("id"), f"rule id '{rule['id']}' is used twice")
        ids.add(rule["id"])
        out.rules.append(rule)
    for m in _items(top["measures"], MEASURE, "a measure is {id:, says:, value: expression}", diags):
        if m["id"] in out.measures:
            diags.error(m.loc_of("id"), f"measure id '{m['id']}' is used twice")
        out.measures.setdefault(m["id"], m)
    if top["let"]:
        for entry in out.rules + list(out.measures.values()):
            entry["let"] = _shared(top["let"], entry["let"], diags)
    return out


def _shared(shared: LMap, own: LMap | None, diags: Diagnostics) -> LMap:
    """The file's `let` before a rule's or measure's own: one table (Deity's `opposes`) written once for all."""
    out = LMap(shared)
    out.loc, out.key_locs, out.val_locs = shared.loc, dict(shared.key_locs), dict(shared.val_locs)
    if own is None:
        return out
    for name, expr in own.items():
        if name in shared:
            diags.error(own.key_loc(name), f"'{name}' is already named by facts.yaml's own 'let'")
            continue
        out[name] = expr
        out.key_locs[name], out.val_locs[name] = own.key_loc(name), own.loc_of(name)
    return out


def _items(items: LList | None, table: Table, shape: str, diags: Diagnostics, keep_bad=False) -> list[Values]:
    out: list[Values] = []
    if items is None:
        return out
    for i, item in enumerate(items):
        if not isinstance(item, LMap):
            diags.error(items.loc_at(i), shape)
            continue
        v = table.read(item, diags)
        if v.ok or keep_bad:
            out.append(v)
    return out


def _whole(fact: Values, errata: dict, diags: Diagnostics) -> bool:
    """The rules between a fact's keys; True when the fact is well formed and can be checked."""
    ok = fact.ok
    if ("need" in fact.given) != ("have" in fact.given):
        diags.error(fact.loc, "a supply fact needs both 'need' and 'have'")
        ok = False
    if ("value" in fact.given) != ("equals" in fact.given):
        diags.error(fact.loc, "a value fact needs both 'value' and 'equals'")
        ok = False
    if {"counts", "each", "values"} & fact.given and "by" not in fact.given:
        diags.error(
            fact.loc, "'counts', 'each' and 'values' need 'by' (the field to break the pieces down by)"
        )
        ok = False
    if ok and fact["erratum"] is not None and fact["erratum"] not in errata:
        diags.error(
            fact.loc_of("erratum"),
            f"fact '{fact['id']}' names an erratum '{fact['erratum']}' that errata do not list",
            did_you_mean(str(fact["erratum"]), errata),
        )
    return ok

"""The rules checker: every count the game's documents state, held against the content.

Reads the model and `content/<game>/facts.yaml` (its keys: `pnpgen.schema.facts`, docs/content-format.md) through
the game's reader, so what the check read is recorded; imports nothing that draws. Findings are errors (the content
disagrees with a document), warnings (something to look at), or errata (a known conflict inside the documents,
resolved on purpose: shown in every report, never a failure).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from pnpgen.errors import ContentError, Diagnostics, Location, did_you_mean, display_path, short
from pnpgen.model import Board, Game
from pnpgen.schema import Values, default_reader, load_game
from pnpgen.schema.facts import read_facts
from pnpgen.source import LMap
from pnpgen.templating import Compiler, TemplateProblem

MAX_NAMED = 5  # pieces named in one finding


@dataclass
class Finding:
    severity: str  # error | warning | erratum
    component: str
    message: str
    expected: object = None
    actual: object = None
    location: Location = Location("")
    hint: str = ""
    of_file: bool = (
        False  # a problem of a file itself (unreadable, not YAML, a key facts.yaml does not take):
    )
    # a build reports it as it is, like any content error, not as a finding of the check

    @property
    def where(self) -> str:
        """The location as reports print it, as a build's messages do: path:line:column, a data sheet's cell (or
        the path alone)."""
        return str(self.location)

    def found(self) -> str:
        if self.expected is None and self.actual is None:
            return ""
        return f" (expected {_show(self.expected)}, found {_show(self.actual)})"

    def said(self) -> str:
        return self.message + (f" ({self.hint})" if self.hint else "")

    def text(self) -> str:
        out = f"{self.severity} {self.component}: {self.said()}{self.found()}"
        return out + (f" [{self.where}]" if self.where else "")

    def as_json(self) -> dict:
        return {
            "severity": self.severity,
            "component": self.component,
            "message": self.said(),
            "expected": self.expected,
            "actual": self.actual,
            "location": self.where,
        }


def _show(v) -> str:
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {n}" for k, n in v.items()) + "}"
    return str(v)


@dataclass
class Report:
    game: str
    findings: list = field(default_factory=list)
    facts: int = 0  # facts checked

    def ok(self, strict: bool = False) -> bool:
        bad = {"error", "warning"} if strict else {"error"}
        return not any(f.severity in bad for f in self.findings)

    def diagnostics(self, strict: bool = False) -> Diagnostics:
        """The findings as a build's diagnostics at their locations: errors as errors, warnings as warnings (which
        a build prints, and `--strict` turns into errors), or with `strict` as errors too."""
        out = Diagnostics()
        for f in self.findings:
            if f.severity not in ("error", "warning"):
                continue
            add = out.error if f.severity == "error" or strict else out.warning
            if f.of_file:
                add(f.location, f.message, f.hint)
            else:
                add(f.location, f"rules check: {f.component}: {f.said()}{f.found()}")
        return out

    def count(self, severity: str) -> int:
        return sum(1 for f in self.findings if f.severity == severity)

    def add(
        self,
        severity: str,
        component: str,
        message: str,
        location: Location,
        expected=None,
        actual=None,
        hint: str = "",
    ):
        self.findings.append(Finding(severity, component, message, expected, actual, location, hint))

    def add_file_problems(self, component: str, diags: Diagnostics) -> None:
        for d in diags.sorted():
            self.findings.append(
                Finding(d.severity, component, d.message, location=d.location, hint=d.hint, of_file=True)
            )


def _pieces(component) -> list[dict]:
    if isinstance(component, Board):
        return [{**dict(s.fields), "count": 1} for s in component.sides]
    return [{**dict(c.fields), "count": c.count} for c in component.cards]


def _matches(piece: dict, filters: dict) -> bool:
    return all(str(piece.get(k)) == str(v) for k, v in filters.items())


class _Env:
    """What fact expressions may call: counts over the content, nothing else."""

    def __init__(self, game: Game):
        self.game = game
        self.by_id = {c.id: c for c in game.components}

    def component(self, cid):
        comp = self.by_id.get(str(cid))
        if comp is None:
            raise ValueError(f"no component '{cid}'; " + did_you_mean(str(cid), self.by_id))
        return comp

    def count(self, cid, **filters) -> int:
        return sum(p["count"] for p in _pieces(self.component(cid)) if _matches(p, filters))

    def pieces(self, cid) -> list[dict]:
        return _pieces(self.component(cid))

    def names(self, players) -> dict:
        return {
            "players": players,
            "count": self.count,
            "pieces": self.pieces,
            "components": sorted(self.by_id),
        }


def check_game(
    root: Path,
    players: int | None = None,
    require_facts: bool = True,
    game: Game | None = None,
    reader=None,
    icons=None,
) -> Report:
    """Hold the game at `root` against its facts.yaml and its rulebook; everything is read through `reader`
    (a default one when None), so a recording around the call holds what the check depends on. `icons`, the
    game's icon names when a build has loaded them: an icon a card uses that is not one of them is the drawing's
    to tell (with the names it might mean), not the rulebook check's."""
    reader = reader or default_reader(root)
    report = Report(root.name)
    try:
        game = game or load_game(root, reader)
    except ContentError as exc:
        report.add_file_problems("content", exc.diagnostics)
        return report
    if players is not None and not game.players_min <= players <= game.players_max:
        at = game.at("players")  # the range the command line's number falls outside
        report.add("error", "players", f"{players} players is outside the game's {game.players}", at)
    facts_path = root / "facts.yaml"
    display = display_path(facts_path)
    try:
        if not reader.probe(facts_path, "facts file"):  # recorded either way: one added later is noticed
            if require_facts:
                report.add(
                    "warning",
                    "facts",
                    "no facts.yaml: nothing to hold the content against",
                    Location(display),
                )
            _check_rulebook(game, reader, report, icons=icons)
            return report
        data = reader.load_yaml(facts_path, "facts file")
    except ContentError as exc:
        report.add_file_problems("facts", exc.diagnostics)
        return report
    diags = Diagnostics()
    facts = read_facts(data, diags, display)
    for e in facts.errata.values():
        report.add("erratum", e["section"] or "document", f"{e['says']}; resolved: {e['resolution']}", e.loc)
    env, compiler = _Env(game), Compiler()
    for fact in facts.facts:
        _check_fact(fact, env, compiler, players, set(facts.errata), report)
    _check_uses(facts.uses, game, env, report, reader, display)
    _check_rulebook(game, reader, report, facts.keywords, icons)
    if facts.rules:
        from pnpgen.rules import check_diagrams

        check_diagrams(game, reader, facts.rules, report, facts.measures)
    report.add_file_problems("facts", diags)
    return report


def _check_fact(
    fact: Values, env: _Env, compiler: Compiler, only_players, errata: set, report: Report
) -> None:
    fid = fact["id"]
    says = fact["says"] or fid
    named = re.findall(r"count\(\s*['\"]([a-z0-9_-]+)['\"]", str(fact["have"] or ""))
    comp = fact["component"] or (named[0] if named else fid)  # the component a finding is about
    report.facts += 1

    def fail(message, expected=None, actual=None, at=None):
        """`at`: the number the document states (`total`, a `counts` entry ...), where the designer looks."""
        if fact["erratum"] in errata:
            return  # a known conflict of the documents: the erratum itself is reported
        report.add("error", comp, f"{says}: {message}", at or fact.loc, expected, actual)

    if fact["component"] is not None:
        try:
            component = env.component(fact["component"])
        except ValueError as exc:
            report.add("error", comp, str(exc), fact.loc)
            return
        filters = fact["filter"] or {}
        pieces = [p for p in _pieces(component) if _matches(p, filters)]
        total = sum(p["count"] for p in pieces)
        if fact["total"] is not None and total != fact["total"]:
            where = f" where {_show(dict(filters))}" if filters else ""
            fail("total pieces" + where, fact["total"], total, fact.loc_of("total"))
        if fact["by"] is not None and _has_field(fact, pieces, comp, says, report):
            _check_breakdown(fact, pieces, fail)
    if fact["need"] is not None or fact["value"] is not None:
        _check_expressions(fact, env, compiler, only_players, comp, fail, report)


def _has_field(fact: Values, pieces: list[dict], comp: str, says: str, report: Report) -> bool:
    """A breakdown by a field some pieces lack would count them as 'None': an error naming them instead."""
    key = fact["by"]
    lacking = [p for p in pieces if key not in p]
    if not lacking:
        return True
    names = ", ".join(short(p.get("name", "?")) for p in lacking[:MAX_NAMED])
    if len(lacking) > MAX_NAMED:
        names += f" and {len(lacking) - MAX_NAMED} more"
    fields = {k for p in pieces for k in p} - {key}
    report.add(
        "error",
        comp,
        f"{says}: 'by' names the field '{key}', which {len(lacking)} of the {len(pieces)} pieces lack "
        f"({names}); " + did_you_mean(key, fields),
        fact.loc_of("by"),
    )
    return False


def _check_breakdown(fact: Values, pieces: list[dict], fail) -> None:
    key = fact["by"]
    breakdown: Counter = Counter()
    for p in pieces:
        breakdown[str(p[key])] += p["count"]
    if fact["counts"] is not None:
        expected = {str(k): v for k, v in fact["counts"].items()}
        raw = fact.data.get("counts")
        entry = {str(k): raw.loc_of(k) for k in raw} if isinstance(raw, LMap) else {}
        for value in sorted(set(expected) | set(breakdown)):
            if expected.get(value, 0) != breakdown.get(value, 0):
                at = entry.get(value, fact.loc_of("counts"))  # a value the counts leave out: at `counts`
                fail(f"pieces with {key} {value}", expected.get(value, 0), breakdown.get(value, 0), at)
    if fact["each"] is not None:
        for value, n in sorted(breakdown.items()):
            if n != fact["each"]:
                fail(f"pieces with {key} {value}", fact["each"], n, fact.loc_of("each"))
    if fact["values"] is not None and len(breakdown) != fact["values"]:
        fail(f"different values of {key}", fact["values"], len(breakdown), fact.loc_of("values"))


def _check_expressions(fact: Values, env, compiler, only_players, comp: str, fail, report: Report) -> None:
    fid = fact["id"]
    for n in fact["players"] or (None,):
        if only_players is not None and n is not None and n != only_players:
            continue
        names = env.names(n)
        label = f" with {n} players" if n is not None else ""
        try:
            if fact["value"] is not None:
                got = _evaluate(compiler, fact, "value", names)
                if got != fact["equals"]:
                    fail(f"value{label}", fact["equals"], got, fact.loc_of("equals"))
            else:
                need = _evaluate(compiler, fact, "need", names)
                have = _evaluate(compiler, fact, "have", names)
                if have < need:
                    fail(f"supply{label}", f"at least {need}", have, fact.loc_of("need"))
        except TemplateProblem as exc:
            report.add("error", comp, f"fact '{fid}': {exc.message}", exc.location)
            return
        except ContentError as exc:  # the expression does not even parse
            d = exc.diagnostics.items[0]
            report.add("error", comp, f"fact '{fid}': {d.message}", d.location, hint=d.hint)
            return
        except TypeError as exc:
            report.add("error", comp, f"fact '{fid}': {exc}", fact.loc)
            return


def _evaluate(compiler: Compiler, fact: Values, key: str, names: dict):
    value = compiler.expression(fact[key], fact.loc_of(key))
    result = value(names)
    if isinstance(result, bool) or not isinstance(result, (int, float)):
        raise TemplateProblem(fact.loc_of(key), f"'{key}' must give a number (got {_what(result)})")
    if isinstance(result, float) and not math.isfinite(result):  # every comparison with NaN is false
        raise TemplateProblem(fact.loc_of(key), f"'{key}' must be a finite number (got {result!r})")
    return result


def _what(value) -> str:
    """A value an expression gave, as a designer reads it: never a Python object's repr (`<bound method ...>`)."""
    if isinstance(value, (str, bool, int, float)) or value is None:
        return short(repr(value))
    if callable(value):
        return "a function; call it, such as count('cards')"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, (list, tuple, Iterator)):
        return "a list"
    return "an undefined value" if "Undefined" in type(value).__name__ else "a value that is not a number"


def _check_uses(uses: list[Values], game: Game, env: _Env, report: Report, reader, display: str) -> None:
    from pnpgen.rulebook import find_sources, read_source

    try:
        rulebook_text = "".join(read_source(src, reader) for src in find_sources(game.root, reader)).lower()
    except ContentError:
        rulebook_text = ""  # reported by the rulebook's own check
    used = set()
    for u in uses:
        piece, cid = u["piece"], u["component"]
        if cid not in env.by_id:
            report.add("error", cid, f"the rules use {piece}, but no component '{cid}' exists", u.loc)
            continue
        used.add(cid)
        if rulebook_text and not any(n in rulebook_text for n in _forms(piece)):
            report.add("warning", cid, f"the rules use {piece}, but our rulebook never names it", u.loc)
    for comp in game.components:
        if comp.id not in used:
            report.add(
                "warning", comp.id, "no rule uses this component (add it to 'uses')", Location(display)
            )


def _forms(piece: str) -> list[str]:
    p = piece.lower().strip()
    forms = {p, p.rstrip("s")}
    if p.endswith("ies"):
        forms.add(p[:-3] + "y")
    return [f for f in forms if f]


def _check_rulebook(game: Game, reader, report: Report, keywords: tuple[str, ...] = (), icons=None) -> None:
    from pnpgen.rulebook import find_sources

    diags = Diagnostics()
    try:
        sources = find_sources(game.root, reader)
        if sources:  # a game without a rulebook never loads its checks
            from pnpgen.rulebook.checks import check_component_counts, check_keywords

            check_component_counts(sources, game, diags, reader)
            check_keywords(sources, game, diags, reader, keywords, icons)
    except ContentError as exc:  # a source that cannot be read: the file's own problem, told once by a build
        report.add_file_problems("rulebook", exc.diagnostics)
    for d in diags.sorted():
        hint = d.hint if d.severity == "warning" else ""  # a count's message stands as it always has
        report.findings.append(Finding(d.severity, "rulebook", d.message, location=d.location, hint=hint))


def setup_needs(game: Game, reader, players: int) -> dict[str, dict[int, int]]:
    """What the facts ask of each component for setup: component id -> {player count: need}, for `players`
    and its neighbours in the game's range (what a virtual table sets out; the most any fact asks). A fact that
    does not evaluate is left out: `pnpgen check` reports it."""
    facts_path = game.root / "facts.yaml"
    if not reader.probe(facts_path, "facts file"):
        return {}
    facts = read_facts(reader.load_yaml(facts_path, "facts file"), Diagnostics(), display_path(facts_path))
    env, compiler, out = _Env(game), Compiler(), dict[str, dict[int, int]]()
    counts = [n for n in (players - 1, players, players + 1) if game.players_min <= n <= game.players_max]
    for fact in facts.facts:
        comp = fact["component"]
        if fact["need"] is None or comp not in env.by_id:
            continue
        for n in counts:
            if fact["players"] and n not in fact["players"]:
                continue
            try:
                need = _evaluate(compiler, fact, "need", env.names(n))
            except (TemplateProblem, ContentError, TypeError):
                break
            seen = out.setdefault(comp, {})
            seen[n] = max(seen.get(n, 0), math.ceil(need))
    return out

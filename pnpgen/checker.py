"""The rules checker: every count the game's documents state, held against the content.

Reads the model and `content/<game>/facts.yaml` (see docs/content-format.md); imports nothing that draws.
Findings are errors (the content disagrees with a document), warnings (something to look at), or errata (a
known conflict inside the documents, resolved on purpose: shown in every report, never a failure).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from pnpgen.errors import ContentError, Diagnostics, Location, did_you_mean, display_path
from pnpgen.model import Board, Game
from pnpgen.schema import MapReader, as_id, as_str, load_game
from pnpgen.source import LList, LMap, load_file
from pnpgen.templating import Compiler, TemplateProblem

FACT_KEYS = (
    "id",
    "section",
    "says",
    "component",
    "filter",
    "total",
    "by",
    "counts",
    "each",
    "values",
    "players",
    "need",
    "have",
    "value",
    "equals",
    "erratum",
    "note",
)


@dataclass
class Finding:
    severity: str  # error | warning | erratum
    component: str
    message: str
    expected: object = None
    actual: object = None
    location: str = ""

    def text(self) -> str:
        out = f"{self.severity} {self.component}: {self.message}"
        if self.expected is not None or self.actual is not None:
            out += f" (expected {_show(self.expected)}, found {_show(self.actual)})"
        if self.location:
            out += f" [{self.location}]"
        return out

    def diagnostic_line(self) -> str:
        """The same finding in the build's compiler style: file:line: severity: component: message."""
        where = self.location or "content"
        out = f"{where}: {self.severity}: {self.component}: {self.message}"
        if self.expected is not None or self.actual is not None:
            out += f" (expected {_show(self.expected)}, found {_show(self.actual)})"
        return out

    def as_json(self) -> dict:
        return {
            "severity": self.severity,
            "component": self.component,
            "message": self.message,
            "expected": self.expected,
            "actual": self.actual,
            "location": self.location,
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
        """Error findings (and with strict, warnings) as build diagnostics. Interim: the rework gives Locations."""
        out = Diagnostics()
        for f in self.findings:
            if f.severity == "error" or (strict and f.severity == "warning"):
                path, _, line = str(f.location).rpartition(":")
                loc = (
                    Location(path, int(line)) if line.isdigit() else Location(str(f.location) or "facts.yaml")
                )
                found = (
                    f" (expected {_show(f.expected)}, found {_show(f.actual)})"
                    if f.expected is not None
                    else ""
                )
                out.error(loc, f"rules check: {f.component}: {f.message}{found}")
        return out

    def count(self, severity: str) -> int:
        return sum(1 for f in self.findings if f.severity == severity)


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
    root: Path, players: int | None = None, require_facts: bool = True, game: Game | None = None, reader=None
) -> Report:
    report = Report(root.name)
    try:
        game = game or load_game(root)
    except ContentError as exc:
        for d in exc.diagnostics.sorted():
            report.findings.append(Finding("error", "content", d.message, location=str(d.location)))
        return report
    facts_path = root / "facts.yaml"
    if not facts_path.is_file():
        if require_facts:
            report.findings.append(
                Finding(
                    "warning",
                    "facts",
                    "no facts.yaml: nothing to hold the content against",
                    location=display_path(facts_path),
                )
            )
        _check_rulebook(game, report)
        return report
    display = display_path(facts_path)
    try:
        data = load_file(facts_path, display)
    except ContentError as exc:
        for d in exc.diagnostics.sorted():
            report.findings.append(Finding("error", "facts", d.message, location=str(d.location)))
        return report
    diags = Diagnostics()
    if not isinstance(data, LMap):
        report.findings.append(
            Finding("error", "facts", "facts.yaml must be a mapping with 'facts'", location=f"{display}:1")
        )
        return report
    top = MapReader(data, diags, "facts.yaml")
    top.get("document", as_str)
    facts = top.get("facts", default=LList())
    errata = top.get("errata", default=LList())
    uses = top.get("uses", default=LList())
    numbers = top.get("numbers", default=LList())
    top.finish()
    env = _Env(game)
    compiler = Compiler()
    errata_by_id = _errata(errata, report, diags, display)
    fact_ids = set()
    for i, fact in enumerate(facts if isinstance(facts, LList) else []):
        loc = facts.loc_at(i)
        if not isinstance(fact, LMap):
            diags.error(loc, "a fact is a mapping with an 'id'")
            continue
        fid = fact.get("id")
        if fid in fact_ids:
            diags.error(fact.loc_of("id"), f"fact id '{fid}' is used twice")
        fact_ids.add(fid)
        _check_fact(fact, env, compiler, players, errata_by_id, report, diags, display)
    _check_uses(uses, game, env, report, diags, display)
    _check_numbers(numbers, fact_ids, report, diags)
    _check_rulebook(game, report)
    for d in diags.sorted():
        report.findings.append(
            Finding(
                d.severity,
                "facts",
                d.message + (f" ({d.hint})" if d.hint else ""),
                location=_short(d.location),
            )
        )
    return report


def _short(loc: Location) -> str:
    return f"{loc.path}:{loc.line}" if loc.line else loc.path


def _errata(errata, report, diags, display) -> dict:
    out = {}
    for i, e in enumerate(errata if isinstance(errata, LList) else []):
        if not isinstance(e, LMap):
            diags.error(errata.loc_at(i), "an erratum is a mapping with id, says and resolution")
            continue
        r = MapReader(e, diags, "erratum")
        eid = r.get("id", as_id, required=True)
        section = r.get("section", as_str, default="")
        says = r.get("says", as_str, required=True)
        resolution = r.get("resolution", as_str, required=True)
        r.finish()
        if eid:
            out[eid] = e
            report.findings.append(
                Finding(
                    "erratum",
                    section or "document",
                    f"{says}; resolved: {resolution}",
                    location=f"{display}:{e.loc.line}",
                )
            )
    return out


def _int(value) -> int:
    from pnpgen.schema import Invalid

    if isinstance(value, bool) or not isinstance(value, int):
        raise Invalid(f"must be a whole number (got {value!r})")
    return value


def _valid(fact: LMap, diags: Diagnostics) -> bool:
    """Types of a fact's keys; every problem reported at its line."""
    before = len(diags.errors)
    r = MapReader(fact, diags, "fact")
    r.get("id", as_id, required=True)
    for key in ("section", "says", "component", "by", "erratum", "note"):
        r.get(key, as_str)
    for key in ("total", "each", "values"):
        r.get(key, _int)
    for key, kind in (("filter", dict), ("counts", dict)):
        if key in fact and not isinstance(fact[key], kind):
            diags.error(fact.loc_of(key), f"'{key}' must be a mapping")
        r.known.add(key)
    if "counts" in fact and isinstance(fact["counts"], dict):
        for k, v in fact["counts"].items():
            if isinstance(v, bool) or not isinstance(v, int):
                diags.error(fact["counts"].loc_of(k), f"count for '{k}' must be a whole number (got {v!r})")
    if "players" in fact:
        ps = fact["players"] if isinstance(fact["players"], list) else [fact["players"]]
        if not all(isinstance(n, int) and not isinstance(n, bool) for n in ps):
            diags.error(fact.loc_of("players"), "'players' must be a player count or a list of them")
        r.known.add("players")
    for key in ("need", "have", "value"):
        r.get(key)
    r.get("equals")
    if ("need" in fact) != ("have" in fact):
        diags.error(fact.loc, "a supply fact needs both 'need' and 'have'")
    if ("value" in fact) != ("equals" in fact):
        diags.error(fact.loc, "a value fact needs both 'value' and 'equals'")
    if ("counts" in fact or "each" in fact or "values" in fact) and "by" not in fact:
        diags.error(
            fact.loc, "'counts', 'each' and 'values' need 'by' (the field to break the pieces down by)"
        )
    r.finish()
    return len(diags.errors) == before


def _check_fact(
    fact: LMap,
    env: _Env,
    compiler: Compiler,
    only_players,
    errata: dict,
    report: Report,
    diags: Diagnostics,
    display: str,
) -> None:
    if not _valid(fact, diags):
        return
    where = f"{display}:{fact.loc.line}"
    fid = str(fact.get("id", "?"))
    says = str(fact.get("says", fid))
    named = re.findall(r"count\(\s*['\"]([a-z0-9_-]+)['\"]", str(fact.get("have", "")))
    comp = str(fact.get("component") or (named[0] if named else fid))  # the component a finding is about
    erratum = fact.get("erratum")
    if erratum is not None and erratum not in errata:
        diags.error(
            fact.loc_of("erratum"),
            f"fact '{fid}' names an erratum '{erratum}' that errata do not list",
            did_you_mean(str(erratum), errata),
        )
    report.facts += 1

    def fail(message, expected=None, actual=None):
        if erratum in errata:
            return  # a known conflict of the documents: the erratum itself is reported
        report.findings.append(Finding("error", comp, f"{says}: {message}", expected, actual, where))

    if "component" in fact:
        try:
            component = env.component(fact["component"])
        except ValueError as exc:
            report.findings.append(Finding("error", comp, str(exc), location=where))
            return
        filters = fact.get("filter") or {}
        if not isinstance(filters, dict):
            diags.error(fact.loc_of("filter"), "'filter' must map fields to values")
            return
        pieces = [p for p in _pieces(component) if _matches(p, filters)]
        total = sum(p["count"] for p in pieces)
        if "total" in fact and total != fact["total"]:
            fail("total pieces" + (f" where {_show(dict(filters))}" if filters else ""), fact["total"], total)
        if "by" in fact:
            key = str(fact["by"])
            breakdown = Counter()
            for p in pieces:
                breakdown[str(p.get(key))] += p["count"]
            if "counts" in fact:
                expected = {str(k): v for k, v in fact["counts"].items()}
                for value in sorted(set(expected) | set(breakdown)):
                    if expected.get(value, 0) != breakdown.get(value, 0):
                        fail(f"pieces with {key} {value}", expected.get(value, 0), breakdown.get(value, 0))
            if "each" in fact:
                for value, n in sorted(breakdown.items()):
                    if n != fact["each"]:
                        fail(f"pieces with {key} {value}", fact["each"], n)
            if "values" in fact and len(breakdown) != fact["values"]:
                fail(f"different values of {key}", fact["values"], len(breakdown))
    if "need" in fact or "have" in fact or "value" in fact:
        player_counts = fact.get("players") or [None]
        if not isinstance(player_counts, list):
            player_counts = [player_counts]
        for n in player_counts:
            if only_players is not None and n is not None and n != only_players:
                continue
            names = env.names(n)
            label = f" with {n} players" if n is not None else ""
            try:
                if "value" in fact:
                    got = _evaluate(compiler, fact, "value", names)
                    if got != fact.get("equals"):
                        fail(f"value{label}", fact.get("equals"), got)
                else:
                    need = _evaluate(compiler, fact, "need", names)
                    have = _evaluate(compiler, fact, "have", names)
                    if have < need:
                        fail(f"supply{label}", f"at least {need}", have)
            except TemplateProblem as exc:
                report.findings.append(
                    Finding("error", comp, f"fact '{fid}': {exc.message}", location=_short(exc.location))
                )
                return
            except ContentError as exc:  # the expression does not even parse
                d = exc.diagnostics.items[0]
                report.findings.append(
                    Finding("error", comp, f"fact '{fid}': {d.message}", location=_short(d.location))
                )
                return
            except TypeError as exc:
                report.findings.append(Finding("error", comp, f"fact '{fid}': {exc}", location=where))
                return


def _evaluate(compiler: Compiler, fact: LMap, key: str, names: dict):
    value = compiler.expression(fact[key], fact.loc_of(key))
    result = value(names)
    if isinstance(result, bool) or not isinstance(result, (int, float)):
        raise TemplateProblem(fact.loc_of(key), f"'{key}' must give a number (got {result!r})")
    return result


def _check_uses(uses, game: Game, env: _Env, report: Report, diags: Diagnostics, display: str) -> None:
    used = set()
    rulebook_text = ""
    from pnpgen.rulebook import find_sources

    for src in find_sources(game.root):
        rulebook_text += src.read_text(encoding="utf-8").lower()
    for i, u in enumerate(uses if isinstance(uses, LList) else []):
        if not isinstance(u, LMap):
            diags.error(uses.loc_at(i), "a use is {piece: name, component: id, in: [...]}")
            continue
        r = MapReader(u, diags, "use")
        piece = r.get("piece", as_str, required=True) or "?"
        cid = r.get("component", as_str, required=True)
        r.get("in")
        r.get("note")
        r.finish()
        where = f"{display}:{u.loc.line}"
        if cid and cid not in env.by_id:
            report.findings.append(
                Finding(
                    "error", cid, f"the rules use {piece}, but no component '{cid}' exists", location=where
                )
            )
            continue
        used.add(cid)
        if rulebook_text and not any(n in rulebook_text for n in _forms(piece)):
            report.findings.append(
                Finding(
                    "warning", cid, f"the rules use {piece}, but our rulebook never names it", location=where
                )
            )
    for comp in game.components:
        if comp.id not in used:
            report.findings.append(
                Finding(
                    "warning", comp.id, "no rule uses this component (add it to 'uses')", location=display
                )
            )


def _forms(piece: str) -> list[str]:
    p = piece.lower().strip()
    forms = {p, p.rstrip("s")}
    if p.endswith("ies"):
        forms.add(p[:-3] + "y")
    return [f for f in forms if f]


def _check_numbers(numbers, fact_ids: set, report: Report, diags: Diagnostics) -> None:
    for i, n in enumerate(numbers if isinstance(numbers, LList) else []):
        if not isinstance(n, LMap):
            diags.error(numbers.loc_at(i), "a number is {section:, number:, fact: id} or {..., why: reason}")
            continue
        r = MapReader(n, diags, "number")
        r.get("section", as_str)
        r.get("number")
        fact = r.get("fact")
        why = r.get("why", as_str)
        r.finish()
        if fact is None and not why:
            diags.error(
                n.loc, f"number {n.get('number')} needs the fact that checks it, or 'why' it is not one"
            )
        elif fact is not None and fact not in fact_ids:
            diags.error(
                n.loc_of("fact"),
                f"number {n.get('number')} names no fact '{fact}'",
                did_you_mean(str(fact), fact_ids),
            )


def _check_rulebook(game: Game, report: Report) -> None:
    from pnpgen.rulebook import check_component_counts, find_sources

    diags = Diagnostics()
    check_component_counts(find_sources(game.root), game, diags)
    for d in diags.sorted():
        report.findings.append(Finding("error", "rulebook", d.message, location=_short(d.location)))

"""Mutation tests on the shipped content: for every game, single changes to counts make `pnpgen check` fail
with a message naming the component, the expected and the found number. The mutations are derived from each
game's own facts.yaml, so every documented total and breakdown is exercised."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml
from conftest import ROOT

from pnpgen.checker import check_game

CONTENT = ROOT / "content"
GAMES = sorted(p.parent.name for p in CONTENT.glob("*/facts.yaml"))


def load(text: str):
    """YAML as yaml.safe_load reads it, with libyaml where PyYAML has it: a case reads every component file of
    its game to find the one it changes, and pure Python took two thirds of the file's time doing so."""
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def facts_of(game: str) -> dict:
    return load((CONTENT / game / "facts.yaml").read_text())


def component_file(root: Path, cid: str) -> Path:
    game = load((root / "game.yaml").read_text())
    for rel in game["components"]:
        data = load((root / rel).read_text())
        if data.get("id") == cid:
            return root / rel
    raise KeyError(cid)


def items_key(data: dict) -> str:
    return {"cards": "cards", "tiles": "tiles", "tokens": "tokens"}.get(data["kind"], "sides")


def copy_game(tmp_path: Path, game: str) -> Path:
    shutil.copytree(CONTENT / game, tmp_path / "content" / game)
    return tmp_path / "content" / game


def errors(root: Path) -> list:
    return [f for f in check_game(root).findings if f.severity == "error"]


def mutate(root: Path, cid: str, change) -> None:
    path = component_file(root, cid)
    data = load(path.read_text())
    if items_key(data) not in data and isinstance(
        data.get("cards_from"), str
    ):  # the cards are in a CSV sheet
        mutate_sheet(root / data["cards_from"], data, change)
        return
    change(data, data[items_key(data)])
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))


def mutate_sheet(sheet: Path, data: dict, change) -> None:
    import csv

    with open(sheet, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    for row in rows:
        if row.get("count"):
            row["count"] = int(row["count"])
    change(data, rows)
    columns = list(dict.fromkeys(k for row in rows for k in row))
    with open(sheet, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, columns)
        writer.writeheader()
        writer.writerows(rows)


def total_facts():
    for game in GAMES:
        for f in facts_of(game)["facts"]:
            if "component" in f and "total" in f and not f.get("filter") and not f.get("erratum"):
                yield game, f


def by_facts():
    for game in GAMES:
        for f in facts_of(game)["facts"]:
            if "component" in f and "by" in f and ("counts" in f or "each" in f) and not f.get("erratum"):
                yield game, f


@pytest.mark.slow
@pytest.mark.parametrize(
    "game, fact", list(total_facts()), ids=lambda v: v["id"] if isinstance(v, dict) else v
)
def test_taking_away_a_piece_or_adding_a_copy_fails(tmp_path, game, fact):
    cid, total = fact["component"], fact["total"]
    for delta in (-1, +1):
        if total + delta < 1:
            continue  # a component of one piece cannot lose it and stay a component (see the drop test)
        root = copy_game(tmp_path / f"d{delta}", game)

        def change(data, items, delta=delta):
            if data["kind"] == "board":  # a board's pieces are its sides
                if delta < 0:
                    items.pop()
                else:
                    items.append(dict(items[-1], id=items[-1]["id"] + "-copy"))
                return
            first = items[0]
            n = first.get("count", 1) + delta
            if n == 0:
                items.pop(0)
            else:
                first["count"] = n

        mutate(root, cid, change)
        found = [e for e in errors(root) if e.component == cid and e.expected == total]
        assert found and found[0].actual == total + delta, [e.text() for e in errors(root)]


@pytest.mark.slow
@pytest.mark.parametrize("game, fact", list(by_facts()), ids=lambda v: v["id"] if isinstance(v, dict) else v)
def test_recolouring_a_piece_fails(tmp_path, game, fact):
    cid, key = fact["component"], fact["by"]
    root = copy_game(tmp_path, game)
    defaults = {}

    def change(data, items):
        if data["kind"] == "board":  # a side's own data is under `fields`
            values = [i.get("fields", {}).get(key) for i in items]
            other = next((v for v in values if v != values[0]), "__nothing__")
            items[0].setdefault("fields", {})[key] = other
            return
        defaults.update(data.get("defaults") or {})
        values = [i.get(key, defaults.get(key)) for i in items]
        other = next((v for v in values if v != values[0]), "__nothing__")
        items[0][key] = other
        if items[0].get("count", 1) > 1:  # move one copy only
            moved = dict(items[0], count=1)
            items[0][key] = values[0]
            items[0]["count"] -= 1
            items.append(moved)

    mutate(root, cid, change)
    found = [
        e for e in errors(root) if e.component == cid and e.expected is not None and e.actual is not None
    ]
    assert found, f"{game}/{fact['id']}: no error after recolouring one {cid}"


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_dropping_a_component_fails(tmp_path, game):
    root = copy_game(tmp_path, game)
    data = load((root / "game.yaml").read_text())
    facts = facts_of(game)
    cid = next(f["component"] for f in facts["facts"] if "component" in f and "total" in f)
    rel = next(r for r in data["components"] if load((root / r).read_text())["id"] == cid)
    data["components"].remove(rel)
    (root / "game.yaml").write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    assert any(e.component == cid and f"no component '{cid}'" in e.message for e in errors(root))


def supply_facts():
    from pnpgen.schema import load_game

    for game in GAMES:
        totals = {c.id: c.faces for c in load_game(CONTENT / game).components}
        for f in facts_of(game)["facts"]:
            names = re.findall(r"count\('([a-z0-9_-]+)'", str(f.get("have", "")))
            if "need" in f and names and not f.get("erratum") and totals.get(names[0], 0) > 1:
                yield game, f, names[0]  # (a one-piece supply is covered by the drop test)


@pytest.mark.slow
@pytest.mark.parametrize(
    "game, fact, cid", list(supply_facts()), ids=lambda v: v["id"] if isinstance(v, dict) else v
)
def test_lowering_a_supply_below_what_the_rules_take_fails(tmp_path, game, fact, cid):
    root = copy_game(tmp_path, game)

    def change(data, items):
        del items[1:]
        if data["kind"] != "board":
            items[0]["count"] = 1

    mutate(root, cid, change)
    found = [e for e in errors(root) if e.expected is not None and e.actual is not None]
    assert found, f"{game}/{fact['id']}: leaving one {cid} raised no error"
    assert any(e.component == cid for e in found)

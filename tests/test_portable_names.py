"""Names a file cannot have on every system (issue 26): Windows device names, a trailing dot or space,
characters Windows forbids, names that differ only by case. Each is refused with a located error before anything
is written, the same on every OS (the tests run on Linux, where every one of these names is allowed)."""

from __future__ import annotations

import re
import shutil
import unicodedata
from pathlib import Path

import pytest
from conftest import run_cli

from pnpgen.errors import Diagnostics, Location
from pnpgen.names import file_name_problem, is_name, same_file_key
from pnpgen.pipeline.outputs import Target, claim


def _files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")) if folder.exists() else []


def _rename_game(root: Path, folder: str, game_id: str | None = None) -> Path:
    """content/sample moved to content/<folder>, its game.yaml's id set to `game_id` (default: the folder)."""
    game = root / "content" / folder
    (root / "content" / "sample").rename(game)
    text = (game / "game.yaml").read_text(encoding="utf-8")
    (game / "game.yaml").write_text(
        text.replace("id: sample", f"id: '{game_id or folder}'", 1), encoding="utf-8"
    )
    return game


def _refused(root: Path, *expect: str, args=()):
    out = root / "out"
    result = run_cli("build", *args, "--content", root / "content", "--out", out)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    for line in expect:
        assert line in result.output, result.output
    return result, out


@pytest.mark.parametrize("device", ["con", "prn", "aux", "nul", "com1", "com9", "lpt1", "lpt9"])
def test_a_component_named_as_a_windows_device_is_refused_at_its_id(project, device):
    root = project("basic")
    deck = root / "content/sample/decks/minis.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("id: minis", f"id: {device}"), encoding="utf-8")
    _, out = _refused(
        root,
        f"content/sample/decks/minis.yaml:1:5: error: 'id' must be an id that is not a name Windows keeps for a "
        f"device (con, prn, aux, nul, com1-9, lpt1-9): Windows can make no file '{device}.pdf'",
    )
    assert _files(out) == []


def test_a_game_folder_named_as_a_windows_device_is_refused(project):
    root = project("basic")
    _rename_game(root, "con")
    _, out = _refused(
        root, "content/con/game.yaml:1:5: error: 'id' must be an id that is not a name Windows keeps"
    )
    assert _files(out) == []


@pytest.mark.parametrize(
    "folder, shown",
    [("sample ", "'sample '"), ("sample.", "'sample.'"), ("sam?ple", "'sam?ple'"), ("a<b>c", "'a<b>c'")],
)
def test_a_game_folder_with_a_trailing_dot_space_or_forbidden_character_is_refused(project, folder, shown):
    root = project("basic")
    _rename_game(root, folder)
    _, out = _refused(
        root,
        f"content/{folder}/game.yaml:1:5: error: 'id' must be an id of lower-case letters",
        f"(got {shown}; use '",
    )
    assert _files(out) == []


def test_game_folders_that_differ_only_by_case_are_refused(project):
    """`Heroes` beside `heroes`: one folder on Windows and macOS. The one not named as its id is refused."""
    root = project("basic")
    shutil.copytree(root / "content/sample", root / "content/Sample")
    result, out = _refused(
        root, "content/Sample/game.yaml:1:5: error: id 'sample' must equal the folder name 'Sample'"
    )
    assert not (out / "Sample").exists()
    assert (out / "sample" / "minis.pdf").is_file()  # the other game builds as it did


def test_a_layout_named_as_a_device_is_refused_where_it_is_named(project):
    root = project("basic")
    deck = root / "content/sample/decks/minis.yaml"
    deck.write_text(
        deck.read_text(encoding="utf-8").replace("{layout: hero}", "{layout: aux}"), encoding="utf-8"
    )
    _, out = _refused(
        root, "content/sample/decks/minis.yaml:5:17: error: layout name 'aux' must be not a name"
    )
    assert _files(out) == []


def test_new_refuses_a_device_name(tmp_path):
    result = run_cli("new", "nul", "--content", tmp_path / "content")
    assert result.exit_code == 2, result.output
    assert "a game's name is not a name Windows keeps for a device" in result.output
    assert not (tmp_path / "content" / "nul").exists()


class _Named(Target):
    kind = "cards"

    def __init__(self, component: str, files: list[str], line: int):
        super().__init__(component, Location("game.yaml", line, 5))
        self.files = files

    def names(self) -> list[str]:
        return self.files

    def prepare(self, run, diags) -> bool:
        return True


def test_claims_of_names_that_differ_only_by_case_are_one_claim():
    diags = Diagnostics()
    assert not claim([_Named("a", ["a.pdf"], 3), _Named("b", ["A.pdf"], 7)], diags)
    (message,) = [d.format() for d in diags.errors]
    assert message.startswith(
        "game.yaml:7:5: error: deck 'b' (game.yaml:7:5) would write 'A.pdf', which deck 'a' (game.yaml:3:5) "
        "writes as 'a.pdf' (one file where case is ignored: Windows, macOS)"
    )
    assert claim([_Named("a", ["a.pdf"], 3), _Named("b", ["b.pdf"], 7)], Diagnostics())


@pytest.mark.parametrize(
    "name", ["con.pdf", "CON.pdf", "Aux.tiles.pdf", "nul", "com1.png", "lpt9 .pdf", "a.", "a "]
)
def test_claims_of_names_no_system_can_hold_are_refused(name):
    diags = Diagnostics()
    assert not claim([_Named("x", [name], 2)], diags)
    assert f"would write '{name}': " in diags.errors[0].message


@pytest.mark.parametrize(
    "name, why",
    [
        ("con.pdf", "'con' is a name Windows keeps for a device"),
        ("aux.tiles.pdf", "'aux' is a name Windows keeps for a device"),
        ("COM3.png", "'COM3' is a name Windows keeps for a device"),
        ("deck.", "ends in a dot or a space"),
        ("deck ", "ends in a dot or a space"),
        ('a"b.pdf', "holds '\"', which Windows forbids"),
        ("a\\b.pdf", "holds '\\\\', which Windows forbids"),
        ("a\x07b.pdf", "holds '\\x07', which Windows forbids"),
        ("", "not a file name"),
    ],
)
def test_the_one_rule_for_file_names(name, why):
    assert why in file_name_problem(name)


@pytest.mark.parametrize(
    "name", ["aux-tiles.pdf", "console.pdf", "com10.pdf", "lpt0.png", "a.b.c", "Émile.pdf"]
)
def test_names_that_every_system_holds(name):
    assert file_name_problem(name) is None


def test_ids_are_names_every_system_holds():
    for device in ("con", "nul", "com1", "lpt3", "aux", "prn"):
        assert not is_name(device)
    for fine in ("console", "com10", "aux-tiles", "null"):
        assert is_name(fine)
    assert same_file_key("Heroes.PDF") == same_file_key("heroes.pdf")


def test_every_file_a_build_writes_is_named_by_the_rule(shipped_build):
    names = [p.name for p in shipped_build.rglob("*")]
    assert names and all(file_name_problem(n) is None for n in names)
    by_key: dict[str, list[str]] = {}
    for p in shipped_build.rglob("*"):
        by_key.setdefault(str(p.parent) + "/" + same_file_key(p.name), []).append(p.name)
    assert all(len(v) == 1 for v in by_key.values())
    assert not any(re.search(r"[A-Z]", n) for n in names if n.endswith(".pdf"))


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Épée Longue", "epee-longue"),
        ("Château Fort", "chateau-fort"),
        ("Straße", "strasse"),
        ("Die Mühle am Fluss", "die-muehle-am-fluss"),  # umlauts written out as German does, not dropped
        (unicodedata.normalize("NFD", "Größe Ärger"), "groesse-aerger"),  # as macOS stores names
        ("  _Cartes Action!_ ", "cartes-action"),
        ("CON", "con-1"),  # a device name is never offered
        ("Lpt1", "lpt1-1"),
        ("ééé" + "x" * 80, "eee" + "x" * 61),
        ("!!!", "name"),
        ("龍", "name"),
    ],
)
def test_the_name_offered_for_one_that_is_not_is_one(text, name):
    from pnpgen.names import is_name, suggested

    assert suggested(text) == name and is_name(name)


def test_every_refused_name_offers_a_name_that_is_one(project):
    """The class: a component's id, a fact's, a font family's, a game named to `pnpgen new` (an SVG icon's file
    name: test_svg)."""
    root = project("basic")
    minis = root / "content/sample/decks/minis.yaml"
    minis.write_text(minis.read_text().replace("id: minis", "id: Cartes Été", 1))
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1 and "(got 'Cartes Été'; use 'cartes-ete')" in result.output, result.output
    minis.write_text(minis.read_text().replace("id: Cartes Été", "id: minis", 1))
    facts = root / "content/sample/facts.yaml"
    facts.write_text(facts.read_text().replace("id: hero-cards", "id: Cartes Héros", 1))
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1 and "(got 'Cartes Héros'; use 'cartes-heros')" in result.output, (
        result.output
    )
    facts.write_text(facts.read_text().replace("id: Cartes Héros", "id: hero-cards", 1))
    game = root / "content/sample/game.yaml"
    for family, better in (("Ma Police", "ma-police"), ("serif", "my-serif")):
        game.write_text(
            game.read_text().split("fonts:")[0] + f"fonts: {{{family}: {{regular: fonts/a.ttf}}}}\n"
        )
        result = run_cli("build", "--out", "out", cwd=root)
        assert (
            result.exit_code == 1 and f"other than sans, serif and display; use '{better}'" in result.output
        )
    new = run_cli("new", "Château Fort", cwd=root)
    assert new.exit_code == 2 and "pnpgen new chateau-fort, then give its title in game.yaml" in new.output

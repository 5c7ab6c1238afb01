"""The Tabletop Simulator saved object: valid JSON of the documented shape, every component of the game in it,
every deck holding exactly the counted cards, every image it names written beside it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from conftest import FIXTURES, ROOT, run_cli

from pnpgen.exports import loaded
from pnpgen.model import Board
from pnpgen.project import Project


def export(tmp_path, fixture: str, game: str, *extra) -> tuple[dict, Path]:
    project = tmp_path / "p"
    shutil.copytree(FIXTURES / fixture, project)
    result = run_cli("export", "tts", game, "--out", "out", *extra, cwd=project)
    assert result.exit_code == 0, result.output
    folder = project / "out" / game / "tts"
    return json.loads((folder / f"{game}-saved-object.json").read_text()), folder


def urls(obj) -> list[str]:
    """Every image URL anywhere in the saved object."""
    found = []
    if isinstance(obj, dict):
        for key, value in obj.items():
            if key in ("FaceURL", "BackURL", "ImageURL", "ImageSecondaryURL") and value:
                found.append(value)
            else:
                found += urls(value)
    elif isinstance(obj, list):
        for value in obj:
            found += urls(value)
    return found


def check_game(saved: dict, folder: Path, project: Path, game: str) -> None:
    run, _ = loaded(Project(project / "content", project / "out"), game, check=False)
    assert saved["SaveName"] == run.game.title and isinstance(saved["ObjectStates"], list)
    (bag,) = saved["ObjectStates"]
    assert bag["Name"] == "Bag" and bag["Nickname"] == run.game.title
    contents = bag["ContainedObjects"]
    by_name: dict[str, list] = {}
    for obj in contents:
        by_name.setdefault(obj["Nickname"].split(":")[0], []).append(obj)
    for comp in run.game.components:
        if isinstance(comp, Board):
            sides = by_name[comp.name]
            assert [o["Name"] for o in sides] == ["Custom_Board"] * len(comp.sides)
            continue
        (obj,) = by_name[comp.name]
        if comp.kind == "cards":
            assert obj["Name"] == "DeckCustom"
            assert len(obj["DeckIDs"]) == comp.faces  # every printed copy, as counted
            assert len(obj["ContainedObjects"]) == comp.faces
            keys = {int(k) for k in obj["CustomDeck"]}
            assert {i // 100 for i in obj["DeckIDs"]} <= keys
            names = [c["Nickname"] for c in obj["ContainedObjects"]]
            assert sorted(set(names)) == sorted({c.name for c in comp.cards})
            for card in comp.cards:
                assert names.count(card.name) >= card.count
        else:
            kind = "Custom_Token" if comp.kind == "tokens" else "Custom_Tile"
            assert obj["Name"] == "Bag" and len(obj["ContainedObjects"]) == comp.faces
            assert {o["Name"] for o in obj["ContainedObjects"]} == {kind}
    for url in urls(saved):
        path = Path(unquote(urlparse(url).path))
        assert url.startswith("file:///") and path.parent == folder.resolve() and path.is_file(), url


def test_saved_object_holds_every_deck_with_its_counts(tmp_path):
    saved, folder = export(tmp_path, "basic", "sample")
    check_game(saved, folder, tmp_path / "p", "sample")
    (bag,) = saved["ObjectStates"]
    assert [len(o["DeckIDs"]) for o in bag["ContainedObjects"]] == [11, 20]


def test_saved_object_holds_tiles_tokens_and_boards(tmp_path):
    saved, folder = export(tmp_path, "pieces", "pieces")
    check_game(saved, folder, tmp_path / "p", "pieces")
    kinds = {o["Name"] for o in saved["ObjectStates"][0]["ContainedObjects"]}
    assert kinds == {"Bag", "Custom_Board"}


def test_url_base_names_the_uploaded_images(tmp_path):
    saved, folder = export(tmp_path, "basic", "sample", "--url-base", "https://example.org/my game/")
    found = urls(saved)
    assert found and all(u.startswith("https://example.org/my game/") for u in found)
    assert all((folder / unquote(u.rsplit("/", 1)[1])).is_file() for u in found)


@pytest.mark.slow
def test_a_shipped_game_exports_whole(tmp_path):
    project = tmp_path / "p"
    shutil.copytree(ROOT / "content", project / "content")
    shutil.copytree(ROOT / "layouts", project / "layouts")
    result = run_cli("export", "tts", "seven-gods", "--out", "out", cwd=project)
    assert result.exit_code == 0, result.output
    folder = project / "out/seven-gods/tts"
    saved = json.loads((folder / "seven-gods-saved-object.json").read_text())
    check_game(saved, folder, project, "seven-gods")

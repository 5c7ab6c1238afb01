"""docs/tutorial.md is true: its steps are replayed here and every line it shows pnpgen printing is printed."""

from __future__ import annotations

from pathlib import Path

from conftest import ROOT, run_cli

TUTORIAL = (ROOT / "docs" / "tutorial.md").read_text()


def shown(result) -> list[str]:
    lines = [line for line in result.output.splitlines() if line.strip()]
    for line in lines:
        assert line in TUTORIAL, f"the tutorial does not show what pnpgen printed: {line!r}"
    return lines


def test_the_tutorial_shows_what_pnpgen_prints(tmp_path):
    def pnpgen(*args):
        return run_cli(*args, cwd=tmp_path)

    assert pnpgen("new", "my-game").exit_code == 0
    shown(pnpgen("build", "my-game"))
    sheet = tmp_path / "content" / "my-game" / "data" / "cards.csv"
    sheet.write_text(sheet.read_text() + "Tempest,three,3,ink,Every player discards a card.\n")
    assert shown(pnpgen("build", "my-game"))[0].startswith("content/my-game/data/cards.csv:5:2: error:")
    sheet.write_text(sheet.read_text().replace("Tempest,three", "Tempest,2"))
    assert "rules check" in shown(pnpgen("build", "my-game"))[0]
    facts = tmp_path / "content" / "my-game" / "facts.yaml"
    facts.write_text(facts.read_text().replace("total: 9", "total: 11").replace("says: 9", "says: 11"))
    shown(pnpgen("build", "my-game"))
    shown(pnpgen("check", "my-game"))
    sheet.write_text(sheet.read_text().replace("colour", "colur", 1))
    assert "did you mean 'colour'?" in "\n".join(shown(pnpgen("build", "my-game")))
    sheet.write_text(sheet.read_text().replace("colur", "colour", 1))
    pnpgen("build", "my-game")
    assert shown(pnpgen("build", "my-game")) == ["up to date my-game"]
    assert Path(tmp_path / "output" / "my-game" / "cards.pdf").is_file()

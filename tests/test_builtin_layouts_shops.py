"""pnpgen's own layouts (`basic-card`, `basic-back`) pass every shop's preflight at every card size the shops
sell: a warning there would point into pnpgen's installed files, which the designer cannot edit."""

from __future__ import annotations

import pytest
from conftest import fast_once, run_cli

SIZES = ["poker", "bridge", "tarot", "mini", "square-2.5in", "square-3.5in"]
TARGETS = ["dtc", "tgc", "pdfx", "factory"]


@pytest.mark.parametrize("target", fast_once(TARGETS))
def test_the_built_in_layouts_pass_every_shops_preflight(tmp_path, target):
    game = tmp_path / "content" / "g"
    game.mkdir(parents=True)
    decks = [f"d{i}.yaml" for i in range(len(SIZES))]
    (game / "game.yaml").write_text(f"id: g\ntitle: Built in\nplayers: 2\ncomponents: [{', '.join(decks)}]\n")
    for deck, size in zip(decks, SIZES, strict=True):
        (game / deck).write_text(
            f"id: {deck[:-5]}\nname: A deck with a long name\nkind: cards\nsize: {size}\nfront: basic-card\n"
            "back: basic-back\ncards:\n  - {name: Alpha, type: spell, text: Draw twice.}\n  - {name: Beta}\n"
        )
    result = run_cli("preflight", target, "g", "--content", "content", cwd=tmp_path)
    assert result.exit_code == 0, result.output
    assert f"preflight g for {target}: 0 errors, 0 warnings" in result.output, result.output

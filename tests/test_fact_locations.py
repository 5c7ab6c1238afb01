"""A fact that fails is told at the number the document states, the one to change if the rules are wrong: its
`total`, its `counts` entry (or `counts` itself for a value the counts leave out), `each`, `values`, `equals`
or `need`. Every such finding used to point at the fact's `id`, however far above the number it was."""

from __future__ import annotations

import pytest
from conftest import fast_once, run_cli

FACTS = "content/sample/facts.yaml"

NEW_FACTS = {
    "each": "  - id: x\n    component: heroes\n    by: colour\n    each: 5\n",
    "values": "  - id: x\n    component: heroes\n    by: colour\n    values: 3\n",
    "equals": "  - id: x\n    value: \"count('heroes')\"\n    equals: 12\n",
    "need": '  - id: x\n    players: [2]\n    need: "50"\n    have: "count(\'heroes\')"\n',
}

# (what is wrong: the edit (old, new) of facts.yaml, the text whose first character the error must point at)
CASES = [
    pytest.param(("    total: 11\n", "    total: 12\n"), "12\n", id="total"),
    pytest.param(("{ember: 5, sea: 6}", "{ember: 4, sea: 6}"), "4, sea", id="counts-entry"),
    pytest.param(("{ember: 5, sea: 6}", "{ember: 5, sea: 6, gold: 1}"), "1}", id="counts-extra-value"),
    pytest.param(("{ember: 5, sea: 6}", "{ember: 5}"), "{ember: 5}", id="counts-leave-out-a-value"),
    *(
        pytest.param(
            ("errata:\n", text + "errata:\n"), text.splitlines()[-2 if key == "need" else -1], id=key
        )
        for key, text in NEW_FACTS.items()
    ),
]


def _where(text: str, needle: str) -> str:
    """line:column of the value `needle` begins, as the YAML reader counts them (from 1)."""
    at = text.index(needle)
    line = text.count("\n", 0, at) + 1
    line_text = text.splitlines()[line - 1]
    if needle.strip().startswith(("need:", "each:", "values:", "equals:")):
        col = line_text.index(":") + 3  # the value after "key: "
    else:
        col = at - (text.rfind("\n", 0, at) + 1) + 1
    return f"{line}:{col}"


@pytest.mark.parametrize("edit, value", fast_once(CASES))
def test_a_failed_fact_is_told_at_the_number_it_states(project, edit, value):
    root = project("basic")
    facts = root / FACTS
    text = facts.read_text().replace(*edit, 1)
    assert text != facts.read_text()
    facts.write_text(text)
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1
    where = _where(text, value)
    assert f"{FACTS}:{where}: error: rules check:" in result.output, (where, result.output)

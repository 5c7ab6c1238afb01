"""`pnpgen changes`: faces compared build to build; the reprint holds exactly the cards that changed, measured
from the PDF it writes (which card names it prints, how many times, on how many pages)."""

from __future__ import annotations

import json
import shutil

import pypdfium2 as pdfium
import pytest
from conftest import FIXTURES, ROOT, fast_once, run_cli

from pnpgen.pipeline import manifest

HEROES = "content/sample/decks/heroes.yaml"


def pdf_texts(path) -> list[str]:
    doc = pdfium.PdfDocument(str(path))
    try:
        return [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
    finally:
        doc.close()


@pytest.fixture
def project(tmp_path):
    shutil.copytree(FIXTURES / "basic", tmp_path / "p")
    p = tmp_path / "p"
    assert run_cli("build", "--out", "out", cwd=p).exit_code == 0
    shutil.copytree(p / "out", p / "v1")
    return p


def edit(project, old, new, file=HEROES):
    path = project / file
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_every_manifest_entry_records_a_digest_per_printed_face(project):
    data = json.loads((project / "out/sample/manifest.json").read_text())
    heroes = next(e for e in data["files"] if e["component"] == "heroes")
    assert [c["name"] for c in heroes["cards"]] == ["Ash Walker", "Tide Caller"]
    for card in heroes["cards"]:
        assert len(card["front"]) == 16 and len(card["back"]) == 16
        assert card["front_at"][0] == 0 and card["back_at"][0] == 1  # fronts on page 1, backs on page 2
    assert heroes["cards"][0]["front"] != heroes["cards"][1]["front"]


def test_one_edited_card_is_all_the_reprint_holds(project):
    edit(project, "to move **two** spaces", "to move **three** spaces")
    result = run_cli("changes", "v1", "--out", "out", cwd=project)
    assert result.exit_code == 0, result.output
    assert "sample: 1 changed, 0 added, 0 removed" in result.output
    assert "changed heroes: 'Ash Walker': front" in result.output
    folder = project / "out/sample/changes"
    texts = pdf_texts(folder / "reprint.pdf")
    assert len(texts) == 2  # one sheet of fronts, its backs
    assert texts[0].count("Ash Walker") == 5  # every copy of the edited card (count: 5)
    assert "three" in texts[0] and "two" not in texts[0].replace("\r\n", " ")
    assert "Tide Caller" not in texts[0] and "Spark" not in texts[0]
    assert "(reprint)" in texts[1]  # the backs page, labelled
    proof = pdf_texts(folder / "proof.pdf")
    assert len(proof) == 1 and "Ash Walker" in proof[0] and "front" in proof[0]
    assert (folder / "changes.txt").read_text().startswith("sample: 1 changed")


def test_nothing_changed_writes_no_reprint(project):
    result = run_cli("changes", "--since", "v1", "--out", "out", cwd=project)
    assert result.exit_code == 0, result.output
    assert "sample: 0 changed, 0 added, 0 removed" in result.output
    assert not (project / "out/sample/changes/reprint.pdf").exists()
    assert "no face changed" in pdf_texts(project / "out/sample/changes/proof.pdf")[0]


def test_added_removed_and_recounted_cards(project):
    edit(
        project,
        "  - name: Tide Caller\n",
        "  - name: Storm Singer\n    count: 2\n    text: New.\n  - name: Tide Caller\n",
    )
    edit(project, "count: 6", "count: 8")  # Tide Caller: two more copies
    edit(project, "name: Spark", "name: Ember", file="content/sample/decks/minis.yaml")  # removed + added
    result = run_cli("changes", "v1", "--out", "out", "--no-check", cwd=project)  # the counts break the facts
    assert result.exit_code == 0, result.output
    out = result.output
    assert "sample: 0 changed, 2 added, 1 removed, 1 with a new count" in out
    assert "added heroes: 'Storm Singer'" in out and "count heroes: 'Tide Caller': 6 -> 8" in out
    assert "removed minis: 'Spark'" in out and "added minis: 'Ember'" in out
    fronts = [t for t in pdf_texts(project / "out/sample/changes/reprint.pdf") if "fronts" in t]
    text = " ".join(fronts)
    assert text.count("Storm Singer") == 2 and text.count("Tide Caller") == 2 and "Ash Walker" not in text
    assert text.count("Ember") == 20  # the new mini card, every copy


def test_inserting_a_card_does_not_make_later_cards_changed(project):
    edit(project, "cards:\n", "cards:\n  - name: First\n    text: Inserted.\n")
    result = run_cli("changes", "v1", "--out", "out", "--no-check", cwd=project)
    assert "sample: 0 changed, 1 added, 0 removed" in result.output, result.output


def test_two_saved_builds_compared_as_they_stand(project):
    edit(project, "to move **two** spaces", "to move **three** spaces")
    assert run_cli("build", "--out", "v2", cwd=project).exit_code == 0
    edit(project, "to move **three** spaces", "to move **four** spaces")  # the content has moved on again
    result = run_cli("changes", "v1", "v2", "--out", "out", cwd=project)
    assert result.exit_code == 0, result.output
    assert "changed heroes: 'Ash Walker': front" in result.output
    assert "reprint.pdf not written: the content no longer draws 'Ash Walker'" in result.output
    assert (project / "v2/sample/changes/proof.pdf").exists()
    assert not (project / "v2/sample/changes/reprint.pdf").exists()


def test_a_manifest_of_the_wrong_shape_is_not_trusted(project):
    path = project / "v1/sample/manifest.json"
    data = json.loads(path.read_text())
    for entry in data["files"]:
        for card in entry.get("cards", []):
            card["front_at"] = [0, -1e300, "x", None, 5]  # nonsense where a face stands
    data.pop("seal")
    manifest.write(path, data)  # sealed again: its rows are still read with care
    result = run_cli("changes", "v1", "--out", "out", cwd=project)
    assert result.exit_code == 0, result.output
    assert "sample: 0 changed, 3 added, 0 removed" in result.output  # its records skipped, as if absent
    for entry in data["files"]:
        entry.pop("cards", None)
        entry.pop("sides", None)
    manifest.write(path, data)
    result = run_cli("changes", "v1", "--out", "out", cwd=project)
    assert result.exit_code == 2 and "records no faces" in result.output


def test_changes_needs_the_earlier_build_once(project):
    assert run_cli("changes", "--out", "out", cwd=project).exit_code == 2
    result = run_cli("changes", "out", "--out", "out", cwd=project)
    assert result.exit_code == 2 and "the same folder" in result.output


def test_the_docs_describe_changes():
    readme = (ROOT / "README.md").read_text()
    assert "pnpgen changes" in readme and "reprint.pdf" in readme


# What may happen to a saved build's manifest.json that breaks its seal but not its data: a build from before the
# seal was made, a copy whose line ends or encoding an editor or a checkout changed, a space added at the end.
UNSEALED = {
    "before-the-seal": lambda text: json.dumps(
        {k: v for k, v in json.loads(text).items() if k != "seal"}, indent=2
    ),
    "crlf": lambda text: text.replace("\n", "\r\n"),
    "bom": lambda text: "\ufeff" + text,
    "trailing-spaces": lambda text: text.replace("\n", "  \n"),
}


@pytest.mark.parametrize("kind", fast_once(sorted(UNSEALED)))
def test_a_saved_build_whose_seal_does_not_hold_is_still_compared(project, kind):
    """The seal keeps a hand edit out of the next build's manifest; `changes` writes no manifest, so an earlier
    build saved before the seal (or re-encoded since) is still the earlier build to compare with."""
    path = project / "v1/sample/manifest.json"
    path.write_bytes(UNSEALED[kind](path.read_text(encoding="utf-8")).encode("utf-8"))
    edit(project, "to move **two** spaces", "to move **three** spaces")
    result = run_cli("changes", "v1", "--out", "out", cwd=project)
    assert result.exit_code == 0, result.output
    assert "sample: 1 changed, 0 added, 0 removed" in result.output
    assert "changed heroes: 'Ash Walker': front" in result.output


# (the old build's printing flags, the new build's): each writes a deck in more than one form or ink
PRINTED = {
    "old-both-inks": (["--ink", "both"], []),
    "old-every-form": (["--forms", "all"], []),
    "new-both-inks": ([], ["--ink", "both"]),
    "old-short-and-fold": (["--duplex", "short", "--fold"], []),
}


@pytest.mark.parametrize("sealed", [True, False], ids=["sealed", "before-the-seal"])
@pytest.mark.parametrize("case", fast_once(sorted(PRINTED)))
def test_builds_printed_other_ways_compare_the_same_faces(project, case, sealed):
    """A build printed in several forms and inks records each card once per file: the faces compared are the
    full-colour ones on both sides (a low-ink file's faces are not a change of the card)."""
    old, new = PRINTED[case]
    shutil.rmtree(project / "v1")
    assert run_cli("build", "--out", "v1", *old, cwd=project).exit_code == 0
    edit(project, "to move **two** spaces", "to move **three** spaces")
    assert run_cli("build", "--out", "out", *new, cwd=project).exit_code == 0
    if not sealed:
        path = project / "v1/sample/manifest.json"
        path.write_text(json.dumps({k: v for k, v in json.loads(path.read_text()).items() if k != "seal"}))
    result = run_cli("changes", "v1", "out", cwd=project)
    assert result.exit_code == 0, result.output
    assert "sample: 1 changed, 0 added, 0 removed" in result.output
    assert "changed heroes: 'Ash Walker': front" in result.output

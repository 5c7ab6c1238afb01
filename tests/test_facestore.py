"""The print-all file's kept faces (`pipeline/facestore.py`): a build after an edit takes the other components'
faces from the store, and writes the same bytes as a build from scratch, for every kind of component (cards,
shaped tiles, a board), both inks, and a store that is damaged, from another build, or off."""

from __future__ import annotations

import pytest
from conftest import fast_once, run_cli

from pnpgen import codecache
from pnpgen.pipeline import outputs

# (fixture, the file edited, the text replaced, by what): one edit per kind of component
EDITS = [
    ("duplex", "decks/poker.yaml", "name: P1,", "name: P1 again,"),
    # the second deck of a game with facts: what the unused-field warning reads is recorded by no deck
    ("basic", "decks/minis.yaml", "Tiny.", "Very small."),
    ("pieces", "tiles/hex.yaml", "count: 15", "count: 16"),
    ("pieces", "tiles/board.yaml", "name: Test board", "name: The board"),  # every tile set from the store
]


def _store(monkeypatch, where) -> None:
    monkeypatch.setenv("PNPGEN_CACHE", str(where))
    codecache.folder.cache_clear()


def _edit(root, fixture: str, path: str, old: str, new: str) -> None:
    f = root / "content" / fixture / path
    text = f.read_text()
    assert old in text, (f, old)
    f.write_text(text.replace(old, new, 1))


def _drawn(monkeypatch) -> list:
    """The components drawn (prepared) from now on."""
    seen: list = []
    for cls in (outputs.DeckSheets, outputs.BoardFiles):
        real = cls.prepare

        def prepare(self, run, diags, real=real):
            seen.append(self.component)
            return real(self, run, diags)

        monkeypatch.setattr(cls, "prepare", prepare)
    return seen


def _same_files(a, b) -> None:
    """Every file the same, the manifest too (the inputs it records are those of a build from scratch)."""
    names = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    assert any(n.name == "manifest.json" for n in names)
    assert any(n.name.startswith("print-all") for n in names)  # print-all.pdf, or -lowink.pdf alone
    assert names == sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    for rel in names:
        assert (a / rel).read_bytes() == (b / rel).read_bytes(), rel


@pytest.mark.parametrize("ink", ["full", "low", "both"])
@pytest.mark.parametrize("fixture,path,old,new", fast_once(EDITS))
def test_a_build_after_an_edit_takes_kept_faces_and_writes_a_clean_builds_bytes(
    project, tmp_path, monkeypatch, fixture, path, old, new, ink
):
    root = project(fixture)
    fixture = "sample" if fixture == "basic" else fixture  # its game folder
    _store(monkeypatch, tmp_path / "store")
    args = ("build", "-j", "1", "--ink", ink, "--out")
    assert run_cli(*args, "out", cwd=root).exit_code == 0
    _edit(root, fixture, path, old, new)
    drawn = _drawn(monkeypatch)
    result = run_cli(*args, "out", cwd=root)
    assert result.exit_code == 0, result.output
    edited = path.split("/")[-1].removesuffix(".yaml")
    assert set(drawn) == {edited}  # the print-all file drew nothing else: the rest came from the store
    _store(monkeypatch, "off")
    assert run_cli(*args, "clean", cwd=root).exit_code == 0
    _same_files(root / "out", root / "clean")


@pytest.mark.parametrize("damage", fast_once(["garbage", "empty", "other-key", "other-digest"]))
def test_a_damaged_or_foreign_store_is_drawn_again_with_the_same_bytes(
    project, tmp_path, monkeypatch, damage
):
    import marshal

    root = project("duplex")
    store = tmp_path / "store"
    _store(monkeypatch, store)
    assert run_cli("build", "-j", "1", "--out", "out", cwd=root).exit_code == 0
    entries = sorted((store / "faces").iterdir())
    assert len(entries) == 3  # one per deck
    for entry in entries:
        if damage == "garbage":
            entry.write_bytes(b"\x00not marshal data")
        elif damage == "empty":
            entry.write_bytes(b"")
        else:
            fmt, key, data = marshal.loads(entry.read_bytes())
            if damage == "other-key":
                key = "0" * 64
            else:  # a face that is not the one the manifest recorded: its first text moved
                w, h, b, shape, ops = data["table"][0]
                ops = tuple((op[0], op[1] + 1, *op[2:]) if op[0] == "Text" else op for op in ops)
                data = {**data, "table": ((w, h, b, shape, ops), *data["table"][1:])}
            entry.write_bytes(marshal.dumps((fmt, key, data)))
    _edit(root, "duplex", "decks/poker.yaml", "name: P1,", "name: P1 again,")
    drawn = _drawn(monkeypatch)
    assert run_cli("build", "-j", "1", "--out", "out", cwd=root).exit_code == 0
    assert sorted(drawn) == ["mini", "poker", "tarot"]  # nothing taken: every deck drawn again
    _store(monkeypatch, "off")
    assert run_cli("build", "-j", "1", "--out", "clean", cwd=root).exit_code == 0
    _same_files(root / "out", root / "clean")


def test_a_store_that_cannot_be_written_changes_nothing(project, tmp_path, monkeypatch):
    root = project("duplex")
    blocked = tmp_path / "store"
    blocked.mkdir()
    (blocked / "faces").write_text("a file where the folder would be")
    _store(monkeypatch, blocked)
    assert run_cli("build", "-j", "1", "--out", "out", cwd=root).exit_code == 0
    _edit(root, "duplex", "decks/poker.yaml", "name: P1,", "name: P1 again,")
    result = run_cli("build", "-j", "1", "--out", "out", cwd=root)
    assert result.exit_code == 0, result.output
    _store(monkeypatch, "off")
    assert run_cli("build", "-j", "1", "--out", "clean", cwd=root).exit_code == 0
    _same_files(root / "out", root / "clean")


def test_two_copies_of_a_game_never_take_each_others_faces(project, tmp_path, monkeypatch):
    import shutil

    root = project("duplex")
    other = tmp_path / "copy"
    shutil.copytree(root, other)
    _store(monkeypatch, tmp_path / "store")
    for folder in (root, other):  # the copy's build overwrites the entries the first one stored
        assert run_cli("build", "-j", "1", "--out", "out", cwd=folder).exit_code == 0
    _edit(root, "duplex", "decks/poker.yaml", "name: P1,", "name: P1 again,")
    drawn = _drawn(monkeypatch)
    assert run_cli("build", "-j", "1", "--out", "out", cwd=root).exit_code == 0
    assert sorted(drawn) == ["mini", "poker", "tarot"]  # the copy's entries: another project's key
    _store(monkeypatch, "off")
    assert run_cli("build", "-j", "1", "--out", "clean", cwd=root).exit_code == 0
    _same_files(root / "out", root / "clean")


@pytest.mark.slow  # three builds with a rulebook
def test_a_rulebook_redrawn_for_one_deck_pictures_the_kept_decks_from_the_store(
    project, tmp_path, monkeypatch
):
    """A rulebook picturing two decks, drawn again because one of them changed: the other deck's picture is the
    face the store kept (its card is not drawn anew), and every file, the rulebook and the inputs the manifest
    records for it included, is what a build from scratch writes."""
    from pnpgen.pipeline.faces import Painter

    root = project("basic")
    game = root / "content" / "sample"
    (game / "rulebook.md").write_text(
        "# Sample\n\n## Heroes\n\n{{ picture('heroes') }}\n\n## Minis\n\n{{ picture('minis') }}\n",
        encoding="utf-8",
    )
    _store(monkeypatch, tmp_path / "store")
    args = ("build", "-j", "1", "--out")
    assert run_cli(*args, "out", cwd=root).exit_code == 0
    _edit(root, "sample", "decks/heroes.yaml", "Ash Walker", "Ash Runner")  # the card its picture shows
    cards: list = []
    real = Painter.card

    def card(self, deck, one, *a, **k):
        cards.append((deck.id, one.name))
        return real(self, deck, one, *a, **k)

    monkeypatch.setattr(Painter, "card", card)
    result = run_cli(*args, "out", cwd=root)
    assert result.exit_code == 0, result.output
    assert "3 rendered" in result.output, result.output  # the deck, the rulebook and print-all
    assert cards and all(deck == "heroes" for deck, _ in cards), cards  # minis' picture came from the store
    monkeypatch.setattr(Painter, "card", real)
    _store(monkeypatch, "off")
    assert run_cli(*args, "clean", cwd=root).exit_code == 0
    _same_files(root / "out", root / "clean")

"""Which faces become PDF forms: only those a file places more than once (copies, a shared back); a face printed
once is drawn on its page. Either way every card prints."""

from __future__ import annotations

import re
from pathlib import Path

import pdfplumber
from conftest import face_uses, form_uses, run_cli

FRONT = """
elements:
  - type: rect
    area: bleed
    fill: "#f0e0c0"
  - type: text
    x: 5
    y: 10
    w: 50
    h: 10
    text: "{{ card.name }}"
"""
BACK = """
elements:
  - type: rect
    area: bleed
    fill: "#203040"
"""


def build(root: Path) -> Path:
    g = root / "content" / "forms"
    (g / "layouts").mkdir(parents=True)
    (g / "game.yaml").write_text("id: forms\ntitle: Forms\nplayers: 2\ncomponents: [deck.yaml]\n")
    (g / "layouts" / "front.yaml").write_text(FRONT)
    (g / "layouts" / "back.yaml").write_text(BACK)
    cards = "  - {name: Alpha}\n  - {name: Beta}\n  - {name: Gamma}\n  - {name: Delta, count: 3}\n"
    (g / "deck.yaml").write_text(
        f"id: deck\nkind: cards\nsize: poker\nfront: front\nback: back\ncards:\n{cards}"
    )
    result = run_cli("build", "--content", root / "content", "--out", root / "out", "--no-check")
    assert result.exit_code == 0, result.output
    return root / "out" / "forms" / "deck.pdf"


def test_only_faces_placed_more_than_once_are_forms(tmp_path):
    with pdfplumber.open(build(tmp_path)) as pdf:
        fronts, backs = pdf.pages[0], pdf.pages[1]
        faces = re.compile(rb"^(FormXob\.)?F\d+$")
        front_forms = [n for n in form_uses(fronts) if faces.match(n)]
        back_forms = [n for n in form_uses(backs) if faces.match(n)]
        assert len(front_forms) == 3 and len(set(front_forms)) == 1  # Delta's three copies share one form
        assert len(back_forms) == 6 and len(set(back_forms)) == 1  # one back for all six cards
        words = [w["text"] for w in fronts.extract_words()]
        for name in ("Alpha", "Beta", "Gamma"):  # drawn on the page, once each
            assert words.count(name) == 1, words
        assert words.count("Delta") == 3
        assert face_uses(fronts) == 6 and face_uses(backs) == 6  # by form or marked on the page, every card


def test_the_print_all_file_makes_forms_of_repeated_faces_only(tmp_path):
    deck = build(tmp_path)
    with pdfplumber.open(deck.parent / "print-all.pdf") as pdf:
        (fronts,) = [p for p in pdf.pages if "Alpha" in (p.extract_text() or "")]
        backs = pdf.pages[fronts.page_number]  # the page after it
        faces = re.compile(rb"^(FormXob\.)?F\d+$")
        front_forms = [n for n in form_uses(fronts) if faces.match(n)]
        assert len(front_forms) == 3 and len(set(front_forms)) == 1  # Delta's copies; the others on the page
        assert len([n for n in form_uses(backs) if faces.match(n)]) == 6
        assert face_uses(fronts) == 6 and face_uses(backs) == 6

"""`pnpgen new GAME`: a starter game that builds as it is and shows each feature once (as `mkdocs new` does):
a deck whose cards come from a spreadsheet, a layout with art, an icon and shrink-to-fit text, a card back,
the game's own vector icon, a rulebook with a generated component table, and the facts the checker holds the
cards to."""

from __future__ import annotations

import io
from pathlib import Path

from pnpgen.errors import UsageProblem
from pnpgen.names import is_name, rule_of, suggested

GAME_YAML = """\
# The game: its id (the folder's name), title, players and colours. Every file the game uses is listed here
# or found by convention (layouts/, art/, rulebook.md, facts.yaml). See docs/content-format.md.
id: {id}
title: {title}
players: 2-4
palette:
  ink: "#2a2520"
  paper: "#f7f0df"
  accent: "#1f6fb2"
icons: icons.yaml
# print: {{paper: letter}}   # every command then prints on US Letter (A4 without it); --paper overrides it
# language: de              # the words pnpgen prints itself (cover, sheet labels, print guide): en, fr or de
components:
  - decks/cards.yaml
"""

DECK_YAML = """\
# A deck of poker-size cards. Its cards come from a spreadsheet (data/cards.csv: one row per card, the
# header names the fields); `count` is how many copies print. Keep the sheet in a spreadsheet program and
# save it as CSV, or point `cards_from` at an .xlsx or .ods file.
id: cards
kind: cards
name: Action cards
size: poker
front: card-front
back: card-back
defaults:
  colour: accent
cards_from: data/cards.csv
"""

CARDS_CSV = """\
name,count,cost,colour,text
Spark,4,1,accent,Gain :spark: when you play this card.
Ember,3,2,ink,Draw a card. **Then** gain :spark::spark:.
Beacon,2,3,accent,"All players gain :spark:. *You* gain two more."
"""

FRONT_YAML = """\
# How a card's front is drawn: elements in order, each value may be a Jinja template over the card's fields
# (`card.name`, `card.cost`...). Lengths are in mm unless they say otherwise ('9pt').
elements:
  - type: rect                # the background, into the bleed
    area: bleed
    fill: paper
  - type: rect                # a frame inside the safe zone
    area: safe
    radius: 2
    stroke: "{{{{ palette[card.colour] }}}}"
    stroke_width: 1.2
  - type: image               # art from the game's art/ folder
    src: emblem.png
    x: 17.75
    y: 14
    w: 28
    h: 28
  - type: text                # the card's name, shrunk to fit its box when it is long
    x: 5
    y: 5
    w: "{{{{ w - 10 }}}}"
    h: 8
    text: "{{{{ card.name }}}}"
    font: display-bold
    size: 14
    color: ink
    align: center
  - type: icon                # the cost: the game's own icon, repeated
    for_each: "range(card.cost)"
    name: spark
    x: "{{{{ 6 + loop.index0 * 6 }}}}"
    y: 46
    size: 5
    color: accent
  - type: text                # rules text with **bold**, *italic* and inline icons
    x: 6
    y: 56
    w: "{{{{ w - 12 }}}}"
    h: 26
    text: "{{{{ card.text }}}}"
    size: 10
    min_size: 8
    color: ink
    align: center
    valign: middle
"""

BACK_YAML = """\
# The back every card shares (a card may name its own back with `back:`).
elements:
  - type: rect
    area: bleed
    fill: accent
  - type: icon
    name: spark
    x: "{{{{ w / 2 - 15 }}}}"
    y: "{{{{ h / 2 - 15 }}}}"
    size: 30
    color: paper
"""

ICONS_YAML = """\
# The game's own vector icons, in a 100 x 100 box (SVG path commands). Use them as `icon` elements or inline
# in text as :spark:. `pnpgen icons {id}` lists every icon a layout may use.
spark:
  tint: "#1f6fb2"
  shapes:
    - path: "M50 4 L61 38 L96 38 L68 59 L79 94 L50 73 L21 94 L32 59 L4 38 L39 38 Z"
      fill: tint
"""

RULEBOOK_MD = """\
# {title}

## Components

{{{{ component_table() }}}}

The deck holds {{{{ components['cards'].faces }}}} Action cards.

## Playing

Cards give **sparks**, shown as :spark:. Every keyword and icon a card uses is introduced in this book (a
heading, **bold**, a glossary, or the icon itself), or `pnpgen check` says so.

Write the rules here, in your own words. A count written as
`{{% raw %}}{{{{ components['cards'].faces }}}}{{% endraw %}}` always agrees with the cards.

> **Example:** a call-out box for an example of play.
"""

FACTS_YAML = """\
# What the game's documents state, for `pnpgen check` (and every build) to hold the content to.
document: {title} rules
facts:
  - id: action-cards
    section: Components
    says: 9 Action cards
    component: cards
    total: 9
uses:
  - piece: Action cards
    component: cards
"""


def new_game(content: Path, game_id: str) -> list[Path]:
    """Write the starter game `content/<game_id>/`; returns the files written. Refuses to touch a folder that
    exists."""
    if not is_name(game_id):
        raise UsageProblem(
            f"a game's name is {rule_of(game_id)} (got {game_id!r}): "
            f"pnpgen new {suggested(game_id)}, then give its title in game.yaml"
        )
    root = content / game_id
    if root.exists() or root.is_symlink():
        raise UsageProblem(f"'{root}' exists already; pnpgen new never writes over a folder")
    title = game_id.replace("-", " ").replace("_", " ").title()
    files = {
        "game.yaml": GAME_YAML.format(id=game_id, title=title),
        "decks/cards.yaml": DECK_YAML,
        "data/cards.csv": CARDS_CSV,
        "layouts/card-front.yaml": FRONT_YAML.format(),
        "layouts/card-back.yaml": BACK_YAML.format(),
        "icons.yaml": ICONS_YAML.format(id=game_id),
        "rulebook.md": RULEBOOK_MD.format(title=title),
        "facts.yaml": FACTS_YAML.format(title=title),
    }
    return _write_all(
        content, root, {**{n: t.encode("utf-8") for n, t in files.items()}, "art/emblem.png": emblem_png()}
    )


def _write_all(content: Path, root: Path, files: dict[str, bytes]) -> list[Path]:
    """All the files or none: written into a staging folder beside `root`, then renamed into place in one step.
    A failure (a full disk) names the file and leaves no folder, so `new` of that name works again."""
    from pnpgen.pipeline.staging import staging_folder, swap_folder, writing_into

    made_content = not content.exists()
    folder = staging_folder(root)
    try:
        with writing_into(folder, root):
            for name, data in files.items():
                (folder / name).parent.mkdir(parents=True, exist_ok=True)
                try:
                    (folder / name).write_bytes(data)
                except OSError as exc:
                    exc.filename = exc.filename or str(folder / name)  # named where it was going
                    raise
            swap_folder(folder, root)
    except BaseException:
        if made_content:  # the content folder made for the game: gone again with it
            import shutil

            shutil.rmtree(folder, ignore_errors=True)
            try:
                content.rmdir()
            except OSError:
                pass
        raise
    finally:
        if folder.exists():
            import shutil

            shutil.rmtree(folder, ignore_errors=True)
    return [root / name for name in files]


def emblem_png() -> bytes:
    """A small emblem to stand for the designer's art: 400 x 400 px, so it prints at 300 dpi at 28 mm."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (400, 400), "#f7f0df")
    draw = ImageDraw.Draw(image)
    draw.ellipse((20, 20, 380, 380), fill="#1f6fb2")
    draw.ellipse((80, 80, 320, 320), fill="#f7f0df")
    draw.polygon([(200, 110), (290, 290), (110, 290)], fill="#2a2520")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()

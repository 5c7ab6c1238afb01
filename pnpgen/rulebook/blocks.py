"""The rulebook as blocks: what the Markdown parser gives and the renderer sets."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Heading:
    level: int  # 1 title, 2 chapter, 3 section, 4 unnumbered
    text: str
    number: str
    line: int
    path: str = ""  # the source file, as the user reads it


@dataclass
class Para:
    text: str  # inline markup: **bold**, *italic*, :icon:
    line: int
    path: str = ""  # the source file, as the user reads it


@dataclass
class ListBlock:
    ordered: bool
    start: int
    items: list  # each a list of blocks


@dataclass
class TableBlock:
    header: list
    rows: list
    line: int
    path: str = ""  # the source file, as the user reads it


@dataclass
class Quote:
    blocks: list
    kind: str  # "example" | "note" | "quote"


@dataclass
class Picture:
    component: str
    line: int
    path: str = ""  # the source file, as the user reads it
    card: str | None = None  # the card pictured, by id or name; None: the component's first


@dataclass
class Diagram:
    diagram: str  # its id: content/<game>/diagrams/<id>.yaml
    line: int
    path: str = ""  # the source file, as the user reads it


@dataclass
class ComponentTable:
    line: int
    path: str = ""  # the source file, as the user reads it


@dataclass
class Rule:
    pass


@dataclass
class Rulebook:
    path: Path
    title: str
    blocks: list = field(default_factory=list)
    counters: list = field(default_factory=lambda: [0, 0, 0])  # chapter and section numbers, across sources
    marks: int = 0  # Markdown marks read so far, across sources (see markdown.MAX_MARKS)
    diagrams: dict = field(default_factory=dict)  # id -> DiagramPlan (see rulebook.diagrams)
    cover: object = None  # the game's own cover (rulebook.diagrams.Cover), or None: pnpgen's
    cards: dict = field(default_factory=dict)  # (component, card) -> its faces, for picture(id, card)
    card_names: dict = field(default_factory=dict)  # (component, card) -> that card's name, for its caption

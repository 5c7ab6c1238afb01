"""The only `import yaml`: safe loading that keeps each value's file:line:column.

Mappings load as `LMap` and sequences as `LList`; both remember where each of their values stands, so later
stages can point at the user's own line. Only plain YAML types load (no arbitrary tags), duplicate keys are
errors, and a document whose aliases expand past a bound ("billion laughs") is refused.
"""

from __future__ import annotations

import math
from pathlib import Path

import yaml

from pnpgen.errors import ContentError, Location
from pnpgen.textfiles import decoded, plain_text, read_bounded

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

MAX_VALUES = 500_000  # values one file may expand to, aliases counted each time they are used
MAX_FILE_BYTES = 5_000_000

_STR = "tag:yaml.org,2002:str"
_PLAIN_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
}


class LMap(dict):
    """A mapping that knows where it and each of its keys and values are."""

    loc: Location
    key_locs: dict
    val_locs: dict

    def loc_of(self, key) -> Location:
        return self.val_locs.get(key, self.loc)

    def key_loc(self, key) -> Location:
        return self.key_locs.get(key, self.loc)


class LList(list):
    """A sequence that knows where it and each of its items are."""

    loc: Location
    item_locs: list

    def loc_at(self, i: int) -> Location:
        return self.item_locs[i] if 0 <= i < len(self.item_locs) else self.loc


def loc_of(value, default: Location) -> Location:
    return getattr(value, "loc", default)


def _mark_loc(display: str, mark) -> Location:
    if mark is None:
        return Location(display)
    return Location(display, mark.line + 1, mark.column + 1)


def _bool_key(loc: Location, text: str, value: bool) -> ContentError:
    return ContentError.at(
        loc,
        f"the key '{text}' reads as {str(value).lower()} in YAML; put it in quotes "
        f"('\"{text}\": ...') or choose another name",
    )


MERGE = object()  # the `<<` key
MAX_DEPTH = 64  # mappings and lists inside each other; checked before any parser could recurse
PLAIN_KEPT = 10_000  # plain scalars' resolved tags one file keeps


class _Composer:
    """Builds located values from libyaml's event stream with an explicit stack: nothing recurses, so no
    nesting can overflow a stack, and nesting past MAX_DEPTH stops the parser where it stands.

    An alias stands for its anchor's whole value each time it is used: its size counts towards MAX_VALUES."""

    def __init__(self, display: str):
        self.display = display
        self.count = 0
        self.aliased = False  # whether an alias has been expanded yet (the likely cause of a huge count)
        self.scalars = yaml.constructor.SafeConstructor()
        self.resolver = yaml.resolver.Resolver()
        self.anchors: dict[str, tuple[object, int]] = {}
        self.plain: dict[str, str] = {}  # a plain scalar's text -> the tag it resolves to (`compose`)

    def loc(self, event) -> Location:
        return _mark_loc(self.display, event.start_mark)

    def tally(self, n: int, event) -> None:
        self.count += n
        if type(event) is yaml.AliasEvent:
            self.aliased = True
        if self.count > MAX_VALUES:
            raise ContentError.at(
                self.loc(event),
                f"this file expands to more than {MAX_VALUES:,} values; YAML aliases nested too deep?"
                if self.aliased
                else f"this file holds more than {MAX_VALUES:,} values",
            )

    def compose(self, events):
        stack: list[_Frame] = []
        result, documents = None, 0
        display, plain, scalar_event = self.display, self.plain, yaml.ScalarEvent
        for event in events:
            kind = type(event)
            if kind is scalar_event and not event.anchor and event.tag is None:  # most values: quickly
                value = event.value
                if event.implicit[0]:  # plain: what it reads as depends on its text alone
                    tag = plain.get(value)
                    if tag is None:
                        tag = self.resolver.resolve(yaml.ScalarNode, value, event.implicit)
                        if len(plain) < PLAIN_KEPT:
                            plain[value] = tag
                    if tag != _STR:
                        value = self.scalar(event, tag)
                # else quoted or a block: a string, its text
                self.count += 1
                if self.count > MAX_VALUES:
                    self.tally(0, event)
                mark = event.start_mark
                loc = (
                    Location(display, mark.line + 1, mark.column + 1)
                    if mark is not None
                    else Location(display)
                )
                if not stack:
                    result = value
                    continue
                top = stack[-1]
                if type(value) is bool and top.is_map and not top.has_key:
                    raise _bool_key(loc, event.value, value)
                top.add(value, loc, False)
            elif kind is yaml.ScalarEvent or kind is yaml.AliasEvent:
                if kind is yaml.AliasEvent:
                    if event.anchor not in self.anchors:
                        raise ContentError.at(
                            self.loc(event), f"alias '*{event.anchor}' names no anchor before it"
                        )
                    value, size = self.anchors[event.anchor]
                    self.tally(size, event)
                else:
                    value, size = self.scalar(event), 1
                    self.tally(1, event)
                    if isinstance(value, bool) and stack and stack[-1].is_map and not stack[-1].has_key:
                        raise _bool_key(self.loc(event), event.value, value)
                    if event.anchor:
                        self.anchors[event.anchor] = (value, 1)
                if not stack:
                    result = value
                else:
                    stack[-1].add(value, self.loc(event), kind is yaml.AliasEvent)
            elif kind is yaml.SequenceStartEvent or kind is yaml.MappingStartEvent:
                if len(stack) >= MAX_DEPTH:
                    raise ContentError.at(
                        self.loc(event), f"lists and mappings nest deeper than {MAX_DEPTH} levels"
                    )
                expected = (
                    "tag:yaml.org,2002:seq" if kind is yaml.SequenceStartEvent else "tag:yaml.org,2002:map"
                )
                if event.tag not in (None, "!", expected):
                    raise ContentError.at(
                        self.loc(event), f"YAML tag '{event.tag}' is not allowed in content files"
                    )
                self.tally(1, event)
                stack.append(
                    _Frame(kind is yaml.MappingStartEvent, self.loc(event), event.anchor, self.count)
                )
            elif kind is yaml.SequenceEndEvent or kind is yaml.MappingEndEvent:
                frame = stack.pop()
                value = frame.finish()
                if frame.anchor:
                    self.anchors[frame.anchor] = (value, self.count - frame.start + 1)
                if not stack:
                    result = value
                else:
                    stack[-1].add(value, frame.loc, False)
            elif kind is yaml.DocumentStartEvent:
                documents += 1
                if documents > 1:
                    raise ContentError.at(
                        self.loc(event), "a content file holds one YAML document (found a second '---')"
                    )
        return result

    def scalar(self, event, tag: str | None = None):
        """A scalar's value; `tag`: its plain tag, when the caller has resolved it already."""
        tag = tag or event.tag
        if tag is None or tag == "!":
            tag = self.resolver.resolve(yaml.ScalarNode, event.value, event.implicit)
        if tag == "tag:yaml.org,2002:timestamp":
            return event.value  # keep dates as the text the user wrote
        if tag == "tag:yaml.org,2002:merge":
            return MERGE
        if tag == _STR:  # what the constructor would make of it: the scalar's text itself
            return event.value
        if tag not in _PLAIN_TAGS:
            raise ContentError.at(self.loc(event), f"YAML tag '{tag}' is not allowed in content files")
        node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, event.style)
        value = self.scalars.construct_object(node, deep=True)
        if isinstance(value, float) and not math.isfinite(value):  # .nan, .inf: no key can use them
            raise ContentError.at(self.loc(event), f"must be a finite number (got {value})")
        return value


class _Frame:
    """A list or mapping being built; a mapping alternates between a key and its value."""

    def __init__(self, is_map: bool, loc: Location, anchor: str | None, start: int):
        self.is_map, self.loc, self.anchor, self.start = is_map, loc, anchor, start
        self.value: LMap | LList
        if is_map:
            self.value = LMap()
            self.value.key_locs, self.value.val_locs = {}, {}
        else:
            self.value = LList()
            self.value.item_locs = []
        self.value.loc = loc
        self.key, self.key_loc, self.has_key = None, loc, False
        self.merges: list = []

    def add(self, value, loc: Location, alias: bool) -> None:
        if isinstance(self.value, LList):  # a list: is_map is False
            self.value.append(value)
            self.value.item_locs.append(loc)
            return
        if not self.has_key:
            if isinstance(value, (LMap, LList)) or (value is MERGE and alias):
                raise ContentError.at(loc, "a mapping key must be a plain value")
            self.key, self.key_loc, self.has_key = value, loc, True
            return
        self.has_key = False
        if self.key is MERGE:  # `<<: *anchor` merges a mapping
            self.merges.append((value, loc))
            return
        if self.key in self.value:
            raise ContentError.at(
                self.key_loc,
                f"duplicate key '{self.key}' (first at line {self.value.key_locs[self.key].line})",
            )
        self.value[self.key] = value
        self.value.key_locs[self.key] = self.key_loc
        self.value.val_locs[self.key] = loc

    def finish(self) -> LMap | LList:
        out = self.value
        if isinstance(out, LList):  # only a mapping has merges
            return out
        for value, loc in self.merges:  # fill keys the mapping does not set itself
            for src in value if isinstance(value, LList) else [value]:
                if not isinstance(src, LMap):
                    raise ContentError.at(loc, "'<<' merges a mapping only")
                for k, v in src.items():
                    if k not in out:
                        out[k] = v
                        out.key_locs[k] = src.key_loc(k)
                        out.val_locs[k] = src.loc_of(k)
        return out


def load_text(text: str, display: str):
    """Parse YAML text; `display` names the file in messages."""
    try:
        return _Composer(display).compose(yaml.parse(text, Loader=_Loader))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        if "maximum nesting depth" in problem:  # a recent PyYAML scanner stops deep flow nesting first
            raise ContentError.at(
                _mark_loc(display, mark), f"lists and mappings nest deeper than {MAX_DEPTH} levels"
            ) from None
        raise ContentError.at(_mark_loc(display, mark), f"invalid YAML: {problem}") from None
    except yaml.reader.ReaderError as exc:  # a character YAML does not take: located from its position
        before = text[: exc.position]
        line, column = before.count("\n") + 1, exc.position - (before.rfind("\n") + 1) + 1
        char = exc.character if isinstance(exc.character, str) else chr(exc.character)
        raise ContentError.at(
            Location(display, line, column),
            f"invalid YAML: the control character U+{ord(char):04X} is not allowed",
        ) from None
    except yaml.YAMLError as exc:
        raise ContentError.at(Location(display), f"invalid YAML: {exc}") from None


def load_file(path: Path, display: str):
    """Load one YAML file with locations; errors carry `display` as the file name. Read as a `Reader` reads
    (`textfiles.read_bounded`), unconfined: for pnpgen's own files and the user's printers.yaml."""
    text = decoded(read_bounded(path, display, limit=MAX_FILE_BYTES), display)
    return load_text(plain_text(text), display)


class Node:
    """Where one value of a YAML text stands (`outline`): `start`/`end` index the text pnpgen reads (BOM dropped,
    line ends made LF); `line`/`col` are 1-based. `kind` is map, seq, scalar or alias; `style` a scalar's
    (None plain, ' " | >) or a collection's ("flow" or "block"); `items` a list's Nodes or a map's (key, value)."""

    __slots__ = ("kind", "start", "end", "line", "col", "style", "text", "items")

    def __init__(self, kind: str, start_mark, style: str | None, text: str = ""):
        self.kind, self.style, self.text = kind, style, text
        self.start, self.line, self.col = start_mark.index, start_mark.line + 1, start_mark.column + 1
        self.end = self.start
        self.items: list = []


def outline(text: str, display: str) -> Node | None:
    """Where every value of `text` (plain text: see `textfiles.plain_text`) stands, for an editor that changes a
    file's bytes in place (`pnpgen.edit`). libyaml's marks count characters, as Python's parser's do (tested
    with text beyond the BMP before the values, tests/test_edit.py)."""
    stack: list[Node] = []
    root: Node | None = None
    try:
        for event in yaml.parse(text, Loader=_Loader):
            kind = type(event)
            node: Node | None = None
            if kind is yaml.ScalarEvent:
                node = Node(
                    "scalar", event.start_mark, event.style or None, event.value
                )  # libyaml: plain is ""
            elif kind is yaml.AliasEvent:
                node = Node("alias", event.start_mark, None, event.anchor)
            elif kind is yaml.SequenceStartEvent or kind is yaml.MappingStartEvent:
                flow = "flow" if event.flow_style else "block"
                stack.append(
                    Node("seq" if kind is yaml.SequenceStartEvent else "map", event.start_mark, flow)
                )
                continue
            elif kind is yaml.SequenceEndEvent or kind is yaml.MappingEndEvent:
                node = stack.pop()
            else:
                continue
            node.end = event.end_mark.index
            if not stack:
                root = node
            elif stack[-1].kind == "seq":
                stack[-1].items.append(node)
            elif stack[-1].items and stack[-1].items[-1][1] is None:
                stack[-1].items[-1] = (stack[-1].items[-1][0], node)
            else:
                stack[-1].items.append((node, None))
    except yaml.YAMLError:
        load_text(text, display)  # the located message the build gives
        raise
    return root

"""The only `import yaml`: safe loading that keeps each value's file:line:column.

Mappings load as `LMap` and sequences as `LList`; both remember where each of their values stands, so later
stages can point at the user's own line. Only plain YAML types load (no arbitrary tags), duplicate keys are
errors, and a document whose aliases expand past a bound ("billion laughs") is refused.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from pnpgen.errors import ContentError, Location

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

MAX_VALUES = 500_000  # values one file may expand to, aliases counted each time they are used
MAX_FILE_BYTES = 5_000_000

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


class _Converter:
    def __init__(self, display: str):
        self.display = display
        self.count = 0
        self.scalars = yaml.constructor.SafeConstructor()

    def loc(self, node) -> Location:
        return _mark_loc(self.display, node.start_mark)

    def convert(self, node):
        self.count += 1
        if self.count > MAX_VALUES:
            raise ContentError.at(
                self.loc(node),
                f"this file expands to more than {MAX_VALUES:,} values; YAML aliases nested too deep?",
            )
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node)
        if isinstance(node, yaml.SequenceNode):
            self.check_tag(node, "tag:yaml.org,2002:seq")
            out = LList()
            out.loc, out.item_locs = self.loc(node), []
            for item in node.value:
                out.append(self.convert(item))
                out.item_locs.append(self.loc(item))
            return out
        if isinstance(node, yaml.MappingNode):
            self.check_tag(node, "tag:yaml.org,2002:map")
            return self.mapping(node)
        raise ContentError.at(self.loc(node), "unsupported YAML node")  # pragma: no cover

    def check_tag(self, node, expected: str) -> None:
        if node.tag != expected:
            raise ContentError.at(self.loc(node), f"YAML tag '{node.tag}' is not allowed in content files")

    def scalar(self, node):
        if node.tag == "tag:yaml.org,2002:timestamp":
            return node.value  # keep dates as the text the user wrote
        if node.tag not in _PLAIN_TAGS:
            raise ContentError.at(self.loc(node), f"YAML tag '{node.tag}' is not allowed in content files")
        return self.scalars.construct_object(node, deep=True)

    def mapping(self, node) -> LMap:
        out = LMap()
        out.loc, out.key_locs, out.val_locs = self.loc(node), {}, {}
        merges = []
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                merges.append(value_node)
                continue
            if not isinstance(key_node, yaml.ScalarNode):
                raise ContentError.at(self.loc(key_node), "a mapping key must be a plain value")
            key = self.scalar(key_node)
            if key in out:
                raise ContentError.at(
                    self.loc(key_node), f"duplicate key '{key}' (first at line {out.key_locs[key].line})"
                )
            out[key] = self.convert(value_node)
            out.key_locs[key] = self.loc(key_node)
            out.val_locs[key] = self.loc(value_node)
        for merge in merges:  # `<<: *anchor` fills keys the mapping does not set itself
            sources = merge.value if isinstance(merge, yaml.SequenceNode) else [merge]
            for src in sources:
                value = self.convert(src)
                if not isinstance(value, LMap):
                    raise ContentError.at(self.loc(src), "'<<' merges a mapping only")
                for k, v in value.items():
                    if k not in out:
                        out[k] = v
                        out.key_locs[k] = value.key_loc(k)
                        out.val_locs[k] = value.loc_of(k)
        return out


def load_text(text: str, display: str):
    """Parse YAML text; `display` names the file in messages."""
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        raise ContentError.at(_mark_loc(display, mark), f"invalid YAML: {problem}") from None
    except yaml.YAMLError as exc:
        raise ContentError.at(Location(display), f"invalid YAML: {exc}") from None
    if node is None:
        return None
    return _Converter(display).convert(node)


def load_file(path: Path, display: str):
    """Load one YAML file with locations; errors carry `display` as the file name."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ContentError.at(
                Location(display), f"file is {size:,} bytes; the limit is {MAX_FILE_BYTES:,}"
            )
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ContentError.at(Location(display), "file not found") from None
    except OSError as exc:
        raise ContentError.at(Location(display), f"cannot read file: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ContentError.at(Location(display, line, 1), "file is not UTF-8 text") from None
    return load_text(text, display)

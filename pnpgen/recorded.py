"""Content data handed to a template that records every value the template reads.

A rulebook shows some of the content (names, counts, a card's fields); what it read is recorded as values
(`=<scope>:<path>` -> digest of the value), so it is redrawn when exactly those change and not when a card it
never shows is edited. `value_at` finds a recorded path again in fresh data.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence

Note = Callable[[str, object], None]
ALL = "*"  # a path ending so records the keys of a mapping (or the length of a list)


def value_digest(value: object) -> str:
    return hashlib.sha256(repr(_plain(value)).encode()).hexdigest()[:16]


def _plain(value: object) -> object:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def wrap(value: object, path: str, note: Note) -> object:
    if isinstance(value, View | ListView):
        return value
    if isinstance(value, Mapping):
        return View(value, path, note)
    if isinstance(value, (list, tuple)):
        return ListView(value, path, note)
    note(path, value)
    return value


class View(Mapping):
    """A read-only mapping whose reads are recorded."""

    def __init__(self, data: Mapping, path: str, note: Note):
        self._data, self._path, self._note = data, path, note

    def __getitem__(self, key):
        value = self._data[key]
        return wrap(value, f"{self._path}/{key}" if self._path else str(key), self._note)

    def __iter__(self):
        self._note(f"{self._path}/{ALL}", tuple(str(k) for k in self._data))
        return iter(self._data)

    def __len__(self) -> int:
        self._note(f"{self._path}/{ALL}", tuple(str(k) for k in self._data))
        return len(self._data)

    def __repr__(self) -> str:  # the whole mapping printed: every value read
        self._note(self._path, self._data)
        return repr(_plain(self._data))

    __str__ = __repr__


class ListView(Sequence):
    """A read-only list whose reads are recorded."""

    def __init__(self, data: Sequence, path: str, note: Note):
        self._data, self._path, self._note = data, path, note

    def __getitem__(self, index):
        if isinstance(index, slice):
            self._note(f"{self._path}/{ALL}", len(self._data))
            return [self[i] for i in range(*index.indices(len(self._data)))]
        value = self._data[index]
        return wrap(value, f"{self._path}/{index % len(self._data)}", self._note)

    def __len__(self) -> int:
        self._note(f"{self._path}/{ALL}", len(self._data))
        return len(self._data)

    def __repr__(self) -> str:
        self._note(self._path, self._data)
        return repr(_plain(self._data))

    __str__ = __repr__


_ABSENT = object()


def value_at(data: object, path: str) -> object:
    """The value a recorded path names in `data` (None-like `_ABSENT` when it is gone)."""
    node = data
    for part in path.split("/") if path else []:
        if part == ALL:
            if isinstance(node, Mapping):
                return tuple(str(k) for k in node)
            return len(node) if isinstance(node, (list, tuple)) else _ABSENT
        if isinstance(node, Mapping):
            match = next((k for k in node if str(k) == part), _ABSENT)
            if match is _ABSENT:
                return _ABSENT
            node = node[match]
        elif isinstance(node, (list, tuple)) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return _ABSENT
    return node

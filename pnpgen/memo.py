"""What a resident process (`watch`, `serve`) keeps between its builds, as one object with one owner.

A `Project` made with `resident=True` owns a `Memo` and hands it to every build (`Project.memo`); any other build
gets `FORGETS`, a memo that keeps nothing, so no build asks whether it is resident. Each thing kept is a named
field or method, never a key in a shared dict:

- `parses`: each YAML file's parse with the text it came from (`inputs.Reader` parses again when the text changed);
- `picture` / `keep_picture`: each deck's pictured first card, front and back, with what drawing it read
  (`GameRun.first_faces` gives it again for a kept deck while the game's own inputs hold);
- `shown` / `keep_shown`: per rulebook diagram (and the cover), the components it drew on and the digest of what
  it showed (`rulebook._still`: taken as it was while its pieces are all kept);
- `sources`: per game, each rulebook source's last text and Markdown tokens (`rulebook.markdown.parse`).

What a memo keeps never changes what a build writes: it only spares work whose result would be the same.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Picture:
    """A deck's first card as a build drew it for the rulebook, and what that drawing stood on."""

    game_inputs: dict[str, str]  # the game's own inputs then (game.yaml and what it names)
    deck_inputs: dict[str, str]  # the deck's
    read: dict[str, str]  # what drawing it read (replayed into the recordings open when it is given again)
    faces: tuple | None  # (front, back); None: it could not be drawn


@dataclass(frozen=True)
class Shown:
    """A rulebook diagram (or the cover) as a build planned it: what it drew on and what it came to."""

    game_inputs: dict[str, str]
    used: frozenset[str]  # the ids of the components whose faces it drew
    digest: str  # the digest of its snapshot (the value the rulebook recorded)


class Memo:
    """What a resident process keeps between builds (see the module's docstring)."""

    keeps = True

    def __init__(self) -> None:
        # file (as displayed) -> (its text, what it parsed to); never changed by a build
        self.parses: dict[str, tuple[str, object]] | None = {}
        self._pictures: dict[tuple[str, str, str], Picture] = {}
        self._shown: dict[tuple[str, str], Shown] = {}
        self._sources: dict[str, dict[str, tuple[str, list]]] = {}

    def picture(self, game: str, deck: str, ink: str) -> Picture | None:
        """The first card of `deck` pictured in the `ink` form ("full" or "low") by a build before, if any."""
        return self._pictures.get((game, deck, ink))

    def keep_picture(self, game: str, deck: str, ink: str, picture: Picture) -> None:
        self._pictures[(game, deck, ink)] = picture

    def shown(self, game: str, path: str) -> Shown | None:
        """A diagram (`diagram/<id>`) or the cover (`cover`) as a build before planned it, if any."""
        return self._shown.get((game, path))

    def keep_shown(self, game: str, path: str, shown: Shown) -> None:
        self._shown[(game, path)] = shown

    def sources(self, game: str) -> dict[str, tuple[str, list]] | None:
        """Each rulebook source of `game` (by path) -> its last text and tokens; filled by the parser."""
        return self._sources.setdefault(game, {})


class _Forgets(Memo):
    """The memo of a build that is not resident: it keeps nothing, and every question finds nothing."""

    keeps = False

    def __init__(self) -> None:
        self.parses = None  # nothing else: it holds no state at all

    def picture(self, game: str, deck: str, ink: str) -> Picture | None:
        return None

    def keep_picture(self, game: str, deck: str, ink: str, picture: Picture) -> None:
        pass

    def shown(self, game: str, path: str) -> Shown | None:
        return None

    def keep_shown(self, game: str, path: str, shown: Shown) -> None:
        pass

    def sources(self, game: str) -> dict[str, tuple[str, list]] | None:
        return None


FORGETS: Memo = _Forgets()  # holds nothing, ever: shared by every build that is not resident

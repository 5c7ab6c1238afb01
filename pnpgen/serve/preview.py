"""`pnpgen serve`: a live page of every face the build prints, updated on every save.

The engine is the build itself (`pnpgen watch`): each save rebuilds what changed, exactly as `build` would, and
the page is drawn from the PDFs it wrote. Every manifest entry records each printed face's digest and where it
stands (`pipeline.records.card_records`), so a face is cut from its PDF page once per digest and kept in memory
as PNG: a one-card edit re-crops one face, and the page reloads only the images whose digest changed (their
URLs are their digests, cached by the browser for good). A component is shown as soon as its own file is
written (`Preview.early`, from the staging folder), before the rest of its game; rulebook pages are drawn when
first asked for. PNG rather than SVG: it is exactly what the PDF shows, fonts and art included, with no second
renderer to disagree with the first.

The server that answers the page (`serve/server.py`, guarded by `serve/guard.py`) reads from this state only; no
part of a request's path reaches the file system. A broken save shows its errors over the last good faces.
"""

from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from pathlib import Path

from pnpgen.errors import printable
from pnpgen.pipeline import manifest

DPI = 110  # faces on the page: a poker card about 275 px wide
PAGE_DPI = 50  # rulebook pages
FULL_DPI = 120  # a rulebook page opened to be read (`/img/rz...`): A4 about 990 px wide
MAX_IMAGES = 4_000  # PNGs kept in memory (the least recently used go first)
_KEY = re.compile(r"^[0-9a-z-]{1,64}$")


class Preview:
    """What the page shows, per game; updated from each batch of build results, read by the request threads."""

    def __init__(self, project, games: list[str]):
        self.project = project
        self.order = games
        self.games: dict[str, dict] = {}
        # the state of each game's last good build (what `games` holds between a file shown early and its
        # build's end: a build that fails shows its errors over these)
        self.built: dict[str, dict] = {}
        self.version = 0
        self.changed = threading.Condition()
        self.images: OrderedDict[str, bytes] = OrderedDict()
        self._pages: dict = {}  # (pdf sha256, page) -> rendered page, for the faces still to be cut from it
        self._later: dict[
            str, tuple
        ] = {}  # rulebook page key -> (pdf, its sha256, page, dpi), drawn when asked
        self._lock = threading.Lock()  # the images: the watch thread and the request threads both add to them
        self.took: float | None = None  # seconds of the last update, build included

    # -- updates (the watch thread) ----------------------------------------------------------------------------
    def update(self, results: list, started: float | None = None) -> None:
        """Show a batch of build results (`started`: when their build began, for the page's latency figure)."""
        for r in results:
            old = self.built.get(r.game, {"game": r.game, "components": [], "rulebook": []})
            if r.ok:
                state = self._game_state(r.game, r.out_dir, getattr(r, "model", None))
            else:
                state = {**old}  # the last good faces stay; the errors show over them
            told = r.diagnostics.sorted()  # as every command prints them: each once, a consequence alone
            state["errors"] = [_diag(d) for d in told if d.severity == "error"]
            state["warnings"] = [_diag(d) for d in told if d.severity == "warning"]
            self.games[r.game] = self.built[r.game] = state
        self._pages.clear()
        self._publish(started)

    def early(self, run, entry: dict, staged: Path, started: float | None = None) -> None:
        """Show a component's file as soon as it is written, before the rest of its game (a rulebook drawn again
        because it pictures the edited card takes longer than the card). Its faces are cut from the staged file;
        the build's end (`update`) replaces this state with its own, or with the last good one if it failed."""
        rows = entry.get("cards") if "cards" in entry else entry.get("sides")
        game = run.game.id
        if entry.get("kind") == "rulebook" or not isinstance(rows, list) or game not in self.built:
            return
        info = _fields(self.project, game, run.game).get(entry["component"], {})
        items = [self._item(staged.parent, entry, row, info.get(n)) for n, row in enumerate(rows)]
        comp = {**_component(entry), "items": [item for item in items if item is not None]}
        state = {**self.games[game]}
        state["components"] = [comp if c["id"] == comp["id"] else c for c in state["components"]]
        if all(c["id"] != comp["id"] for c in state["components"]):
            state["components"].append(comp)
        self.games[game] = state
        self._publish(started)

    def sketch(self, game: str, cards: list, icons: dict, started: float | None = None) -> None:
        """Show the cards a save changed before its build writes them (`commands.serve.Sketcher` drew them): each
        new face drawn alone on a page by the sheets' own renderer and rasterised, under a key of its own (`q`
        and its digest: it is not cut from a file the build wrote, and differs from that by a pixel's fraction).
        The build's files then replace it (`early`, `update`): the page always ends on faces cut from them."""
        from pnpgen.faces import face_digest

        state = self.games.get(game)
        if state is None or game not in self.built:
            return
        fresh: dict[str, object] = {}  # image key -> a face to rasterise
        shown = []  # (card, its front URL, its back URL)
        for c in cards:
            urls = []
            for face in (c.front, c.back):
                digest = None if face is None else face_digest(face)
                key = digest if digest is None or digest in self.images else "q" + digest
                if key is not None and key not in self.images:
                    fresh[key] = face
                urls.append(None if key is None else f"/img/{key}.png")
            shown.append((c, *urls))
        images = draw_alone(list(fresh.values()), icons)
        if images is None:
            return  # the build says what failed
        for key, data in zip(fresh, images):
            self._keep(key, data)
        comps = [
            {**c, "items": [_sketched(c["id"], i, shown) for i in c["items"]]} for c in state["components"]
        ]
        self.games[game] = {**state, "components": comps}
        self._publish(started)

    def _publish(self, started: float | None) -> None:
        with self.changed:
            self.version += 1
            if started is not None:
                self.took = time.perf_counter() - started
            self.changed.notify_all()

    def _game_state(self, game: str, out_dir: Path, model=None) -> dict:
        data = manifest.read(out_dir) or {"files": []}
        fields = _fields(self.project, game, model)
        components: dict[str, dict] = {}
        rulebook: list = []
        for entry in data["files"]:
            rows = entry.get("cards") if "cards" in entry else entry.get("sides")
            if entry.get("kind") == "rulebook":
                rulebook = self._rulebook(out_dir, entry)
                continue
            if not isinstance(rows, list):
                continue
            comp = components.setdefault(entry["component"], {**_component(entry), "items": []})
            info = fields.get(entry["component"], {})
            for n, row in enumerate(rows):
                item = self._item(out_dir, entry, row, info.get(n))
                if item is not None:
                    comp["items"].append(item)
        title = fields.get("", {}).get("title", game)
        return {"game": game, "title": title, "components": list(components.values()), "rulebook": rulebook}

    def _item(self, out_dir: Path, entry: dict, row: object, info: dict | None) -> dict | None:
        if not isinstance(row, dict) or not isinstance(row.get("name"), str):
            return None
        item = {"name": row["name"], "count": row.get("count", 1), "line": row.get("line", 0)}
        for side in ("front", "back"):
            digest, at = row.get(side), row.get(f"{side}_at")
            if not (isinstance(digest, str) and _KEY.match(digest) and isinstance(at, list) and len(at) == 5):
                item[side] = None
                continue
            if digest not in self.images:
                image = self._cut(out_dir / entry["path"], entry["sha256"], at)
                if image is None:
                    item[side] = None
                    continue
                self._keep(digest, image)
            item[side] = f"/img/{digest}.png"
        if info:
            item["fields"], item["source"] = info["fields"], info["source"]
        return item if item.get("front") else None

    def _cut(self, pdf: Path, sha: str, at: list):
        page_no, x, y, w, h = at
        key = (sha, page_no)
        if key not in self._pages:
            self._pages[key] = _render_page(pdf, page_no, DPI)
        page = self._pages[key]
        if page is None:
            return None
        image, height = page
        s = DPI / 72
        box = (round(x * s), round((height - y - h) * s), round((x + w) * s), round((height - y) * s))
        return _png(image.crop(box))

    def _rulebook(self, out_dir: Path, entry: dict) -> list:
        """The rulebook's page URLs. A page is drawn when it is first asked for (`image`), not here: a one-card
        edit that changes a rulebook picture shows its new face without waiting for every page of the book."""
        sha, pages = entry["sha256"][:16], entry.get("pages", 0)
        urls = []
        for n in range(min(pages, 200)):
            for key, dpi in ((f"rb{sha}-{n}", PAGE_DPI), (f"rz{sha}-{n}", FULL_DPI)):  # rz: read at full size
                if key not in self.images:
                    with self._lock:
                        self._later[key] = (out_dir / entry["path"], entry["sha256"], n, dpi)
            urls.append(f"/img/rb{sha}-{n}.png")
        return urls

    def _keep(self, key: str, data: bytes) -> None:
        with self._lock:
            self.images[key] = data
            self.images.move_to_end(key)
            while len(self.images) > MAX_IMAGES:
                self.images.popitem(last=False)
            while len(self._later) > MAX_IMAGES:
                self._later.pop(next(iter(self._later)))

    def _draw_later(self, key: str) -> bytes | None:
        """A rulebook page asked for: drawn from its PDF while that file is still the one the state named (a later
        build may have replaced it; the page then asks for the new one)."""
        with self._lock:
            later = self._later.get(key)
        if later is None:
            return None
        pdf, sha, n, dpi = later
        from pnpgen.pipeline.staging import sha256_of

        try:
            if sha256_of(pdf) != sha:
                return None
        except OSError:
            return None
        page = _render_page(pdf, n, dpi)
        if page is None:
            return None
        data = _png(page[0])
        self._keep(key, data)
        return data

    # -- reads (the request threads) -----------------------------------------------------------------------------
    def state(self, since: int, wait: float) -> dict:
        with self.changed:
            if self.version <= since:
                self.changed.wait(timeout=wait)
            games = [self.games[g] for g in self.order if g in self.games]
            return {"version": self.version, "took": self.took, "games": games}

    def keep(self, key: str, data: bytes) -> None:
        """An image the editor drew (`serve/editor.py`), answered at `/img/<key>.png` like the others."""
        self._keep(key, data)

    def image(self, key: str) -> bytes | None:
        if not _KEY.match(key):
            return None
        with self._lock:
            data = self.images.get(key)
        return data if data is not None else self._draw_later(key)


def _component(entry: dict) -> dict:
    return {"id": entry["component"], "kind": entry["kind"], "faces": entry.get("faces", 0)}


def _diag(d) -> dict:
    return {
        "at": printable(str(d.location)),
        "message": printable(d.message + (f" ({d.hint})" if d.hint else "")),
    }


def _fields(project, game: str, model=None) -> dict:
    """Each card's fields and source line by component and position, and the game's title (key ''); nothing
    when the content does not load (its errors are on the page already). `model`: the one the build just loaded
    (`GameResult.model`), when it was built in this process."""
    from pnpgen.errors import ContentError
    from pnpgen.schema import load_game

    if model is None:
        try:
            model = load_game(project.content / game, project.reader(project.content / game))
        except (ContentError, OSError):
            return {}
    out: dict = {"": {"title": model.title}}
    for comp in model.components:
        cards = getattr(comp, "cards", None)
        if cards is not None:
            out[comp.id] = {
                n: {"fields": _plain(dict(c.fields)), "source": c.loc.place()} for n, c in enumerate(cards)
            }
        else:
            out[comp.id] = {
                n: {"fields": _plain(dict(s.fields)), "source": s.loc.place()}
                for n, s in enumerate(comp.sides)
            }
    return out


def _plain(value):
    """Content as JSON can hold it (located mappings and lists become plain ones)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


def _sketched(component: str, item: dict, shown: list) -> dict:
    """A page item with a changed card's new name, fields and faces, if it shows that card as it was."""
    for c, front, back in shown:
        if c.deck.id == component and (item["name"], item["line"]) == c.was:
            card = c.card
            source = card.loc.place()
            new = {
                "name": card.name,
                "count": card.count,
                "line": card.loc.line,
                "fields": _plain(dict(card.fields)),
            }
            return {**item, **new, "source": source, "front": front, "back": back}
    return item


def draw_alone(faces: list, icons: dict, dpi: float = DPI, bleed: bool = False) -> list | None:
    """Each face drawn on a page of its own (`render.pdf.write_face_pages`; with its bleed when `bleed`) and
    rasterised at `dpi`, as PNG; None when drawing fails."""
    import tempfile

    import pypdfium2 as pdfium

    from pnpgen.bounds import pdfs
    from pnpgen.render.pdf import write_face_pages

    out = []
    with tempfile.TemporaryDirectory(prefix="pnpgen-serve-") as scratch:
        for n, face in enumerate(faces):
            path = Path(scratch) / f"{n}.pdf"
            try:
                write_face_pages(path, [face], face.bleed_pt if bleed else 0.0, icons, "pnpgen preview")
                doc = pdfium.PdfDocument(str(path))
            except Exception:  # noqa: BLE001 - damaged art and the like: the build that follows reports it
                return None
            try:
                if not pdfs.renderable(
                    page := doc[0], dpi / 72
                ):  # too large: the build that follows says why
                    return None
                out.append(_png(page.render(scale=dpi / 72).to_pil().convert("RGB")))
                page.close()
            finally:
                doc.close()
    return out


def _render_page(pdf: Path, page_no: int, dpi: float):
    import pypdfium2 as pdfium

    from pnpgen.bounds import Refused, pdfs

    if not manifest.ours(pdf.parent, pdf.name):
        return None
    try:  # bounded before pdfium allocates a page: a preview shows nothing rather than take the server down
        pdfs.check_file(pdf)
        doc = pdfium.PdfDocument(str(pdf))
    except (OSError, pdfium.PdfiumError, Refused):
        return None
    try:
        if page_no >= len(doc) or not pdfs.renderable(page := doc[page_no], dpi / 72, page_no, len(doc)):
            return None
        image = page.render(scale=dpi / 72).to_pil().convert("RGB")
        height = page.get_height()
        page.close()
        return image, height
    finally:
        doc.close()


def _png(image) -> bytes:
    import io

    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()

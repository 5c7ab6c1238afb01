"""What a deck's manifest entry records of each card: where it was written (`sources_of`), the digests of its faces
and where its first copy stands in the deck's PDF (`card_records`), for `changes`, `serve` and the face store."""

from __future__ import annotations

from pathlib import Path

from pnpgen.errors import Location
from pnpgen.faces import face_digest
from pnpgen.imposition.duplex import LONG as DEFAULT_DUPLEX


def sources_of(reader, locs: list[Location]) -> list[str]:
    """Where each card was written, as the manifest keeps it: its file as an input key (relative to the project,
    the same from any working folder) and its line, or a data sheet's cell (`content/g/data/x.xlsx:Market!A10`);
    a sheet fetched from a URL by its URL. Each file's key is worked out once (1,000 cards: 0.6 ms, not 3.7)."""
    keys: dict[str, str] = {}
    out = []
    for loc in locs:
        # a URL is no file: made a path, it would name one in the working folder
        if loc.path.startswith(("http://", "https://")):
            out.append(loc.place())
            continue
        key = keys.get(loc.path)
        if key is None:
            key = keys[loc.path] = reader.key(Path(loc.path))
        out.append(key + loc.place()[len(loc.path) :])  # the place begins with the path, whatever its kind
    return out


def card_records(drawn, plan, duplex=DEFAULT_DUPLEX, sources: list[str] | None = None) -> list[dict]:
    """Each card of a drawn deck once: its name, count, source line (and `source`: its file and line, or its
    data sheet's cell: `sources_of`), the digest of its front (and back), and
    where its first copy stands in the deck's PDF ([page from 0, x, y, width, height] of the trim, in pt from
    the page's bottom-left), so two builds can be compared, and pictured, face by face."""
    per, backs = plan.per_sheet, drawn.has_backs
    folded = duplex is None  # a fold-over sheet: each back on its front's page
    front_boxes = [_box(slot) for slot in plan.slots]
    back_boxes = [_box(slot) for slot in plan.back_slots(duplex)] if backs else []  # the same on every sheet
    records, i = [], 0
    for n, card in enumerate(drawn.deck.cards):
        front, back = drawn.faces[i]
        sheet, k = divmod(i, per)
        page = sheet * (2 if backs and not folded else 1)
        record = {"index": card.index, "name": card.name, "count": card.count, "line": card.loc.line}
        if sources is not None:
            record["source"] = sources[n]
        record["front"], record["front_at"] = face_digest(front), [page, *front_boxes[k]]
        if back is not None:
            where = page if folded else page + 1
            record["back"], record["back_at"] = face_digest(back), [where, *back_boxes[k]]
        records.append(record)
        i += card.count
    return records


def _box(slot) -> list[float]:
    return [round(slot.x, 2), round(slot.y, 2), round(slot.w, 2), round(slot.h, 2)]

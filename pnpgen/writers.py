"""Writing output without ever leaving a torn file: temp file in the same folder, then rename."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def atomic_path(target: Path):
    """Yields a temporary path beside `target`; on success it replaces `target` in one step."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp_path, 0o666 & ~umask)  # mkstemp makes 0600; output is an ordinary file
    try:
        yield tmp_path
        with open(tmp_path, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp_path, target)
    finally:
        if tmp_path.exists():
            tmp_path.unlink()


def remove_stale_temps(folder: Path) -> None:
    """Delete temporary files left by builds that were killed (their process is gone)."""
    if not folder.is_dir():
        return
    for tmp in folder.glob(".*.tmp"):
        parts = tmp.name.split(".")
        pid = next((int(x) for x in parts if x.isdigit()), None)
        if pid is None or pid == os.getpid() or _alive(pid):
            continue
        try:
            tmp.unlink()
        except OSError:
            pass


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a killed writer nobody has reaped is a zombie: it will never finish its file
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        return state != "Z"
    except (OSError, IndexError):
        return True


def write_bytes(target: Path, data: bytes) -> None:
    with atomic_path(target) as tmp:
        tmp.write_bytes(data)


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def read_manifest(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def write_manifest(path: Path, manifest: dict) -> None:
    text = json.dumps(manifest, indent=2, sort_keys=False, ensure_ascii=False) + "\n"
    write_bytes(path, text.encode("utf-8"))

"""No POSIX-only call on any path a user takes: an AST walk over pnpgen/ for names that do not exist on Windows
(or act differently there), outside an explicit allow-list that says why each one is safe. A new use fails here
until it is made to work alike on every OS, or allowed with its reason."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "pnpgen"

# modules that exist only on POSIX (or, like ctypes, are used for libc calls); importing one at all is refused
MODULES = {"fcntl", "pwd", "grp", "resource", "termios", "tty", "pty", "posix", "select", "ctypes", "syslog"}
# os attributes missing on Windows, or there with another meaning (os.kill(pid, 0) sends CTRL_C_EVENT or ends it)
OS_NAMES = {
    "fork",
    "forkpty",
    "kill",
    "killpg",
    "getpgid",
    "setpgid",
    "setsid",
    "setpgrp",
    "getuid",
    "geteuid",
    "getgid",
    "getegid",
    "getgroups",
    "O_NONBLOCK",
    "O_NOFOLLOW",
    "O_CLOEXEC",
    "O_DIRECTORY",
    "O_SYNC",
    "fchmod",
    "fchown",
    "chown",
    "lchown",
    "lchmod",
    "chmod",
    "sync",
    "mkfifo",
    "mknod",
    "sched_getaffinity",
    "getloadavg",
    "uname",
    "statvfs",
    "fstatvfs",
    "nice",
    "wait3",
    "wait4",
    "WNOHANG",
    "pipe2",
    "posix_spawn",
    "symlink",
    "openpty",
    "ttyname",
    "getpriority",
    "setpriority",
    "sysconf",
    "confstr",
    "pathconf",
}
# Path methods that do not work alike (file modes are a read-only bit on Windows; links need privileges there)
# (`owner` and `group` are left out: `.group` is every regex match's)
PATH_NAMES = {"chmod", "lchmod", "symlink_to", "hardlink_to"}
# signal: only SIGINT and SIGTERM (and handlers) exist on every OS
SIGNAL_OK = {
    "signal",
    "getsignal",
    "default_int_handler",
    "SIGINT",
    "SIGTERM",
    "SIG_DFL",
    "SIG_IGN",
    "Signals",
}
STRINGS = ("/proc", "/dev/", "/tmp", "renameat2")

# file (from pnpgen/) -> {name: why it is safe there}; "*" allows every name in that file
ALLOWED: dict[str, dict[str, str]] = {
    # the ownership check of compiled entries, which are run: Windows has no uids; its profile folder (where the
    # cache lives) is private to the user by its ACL, the same promise by other means
    "codecache.py": {"os.geteuid": "guarded by hasattr; Windows' cache folder is private by ACL"},
    # the time backstop's watchdog raises its stop through CPython's own C API (ctypes.pythonapi), which is the
    # same on every OS; no C library of the platform is loaded
    "budget.py": {
        "import ctypes": "ctypes.pythonapi.PyThreadState_SetAsyncExc only: CPython's API on every OS"
    },
}


def findings(path: Path) -> list[tuple[int, str]]:
    """(line, name) of every POSIX-only use in one file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    modules: dict[str, str] = {}  # local name -> module, for os and signal however imported
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                if top in MODULES:
                    found.append((node.lineno, f"import {alias.name}"))
                if top in ("os", "signal"):
                    modules[alias.asname or top] = top
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            top = node.module.split(".")[0]
            if top in MODULES:
                found.append((node.lineno, f"from {node.module} import"))
            for alias in node.names:
                if (top == "os" and node.module == "os" and alias.name in OS_NAMES) or (
                    top == "signal" and alias.name not in SIGNAL_OK
                ):
                    found.append((node.lineno, f"{top}.{alias.name}"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            base = node.value.id if isinstance(node.value, ast.Name) else None
            module = modules.get(base or "")
            if module == "os" and node.attr in OS_NAMES:
                found.append((node.lineno, f"os.{node.attr}"))
            elif module == "signal" and node.attr not in SIGNAL_OK:
                found.append((node.lineno, f"signal.{node.attr}"))
            elif module is None and node.attr in PATH_NAMES:
                found.append((node.lineno, f".{node.attr}"))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            for bad in STRINGS:
                if node.value.startswith(bad) or (bad == "renameat2" and bad in node.value):
                    found.append((node.lineno, repr(bad)))
    return sorted(set(found))


def scan(package: Path = PACKAGE) -> list[str]:
    problems = []
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package).as_posix()
        allowed = ALLOWED.get(rel, {})
        for line, name in findings(path):
            if "*" not in allowed and name not in allowed:
                problems.append(f"pnpgen/{rel}:{line}: {name}")
    return problems


def test_no_posix_only_call_outside_the_allow_list():
    assert scan() == []


def test_the_allow_list_names_only_what_is_still_there():
    for rel, names in ALLOWED.items():
        path = PACKAGE / rel
        if not path.exists():
            continue
        there = {name for _, name in findings(path)}
        stale = {n for n in names if n != "*" and n not in there}
        assert not stale, f"{rel}: allowed but no longer used: {stale}"
        if "*" in names:  # a whole file allowed: only while it still holds something to allow
            assert findings(path), f"{rel} is clean now: drop it from ALLOWED"


def test_the_scan_finds_what_it_is_there_to_find(tmp_path):
    (tmp_path / "bad.py").write_text(
        "import os, signal, fcntl\nfrom os import kill\nfrom signal import SIGALRM\nfrom pathlib import Path\n"
        "os.kill(1, 0)\nfd = os.open('x', os.O_RDONLY | os.O_NONBLOCK)\nsignal.setitimer(signal.ITIMER_PROF, 1)\n"
        "Path('x').symlink_to('y')\nopen('/proc/1/stat')\nos.sched_getaffinity(0)\n"
        "signal.signal(signal.SIGTERM, signal.SIG_DFL)\nflags = getattr(os, 'O_NONBLOCK', 0)\n"
    )
    assert [name for _, name in findings(tmp_path / "bad.py")] == [
        "import fcntl",
        "os.kill",
        "signal.SIGALRM",
        "os.kill",
        "os.O_NONBLOCK",
        "signal.ITIMER_PROF",
        "signal.setitimer",
        ".symlink_to",
        "'/proc'",
        "os.sched_getaffinity",
    ]


READS = """
import os, sys
del os.O_NONBLOCK  # as on Windows
from pathlib import Path
from pnpgen.inputs import Reader
from pnpgen.textfiles import READ_FLAGS
from pnpgen import svg
root = Path(sys.argv[1])
data = Reader([root], root).read_bytes(root / "a.bin")
assert data == b"a\\r\\nb\\x1ac\\n", data
assert svg._read(str(root / "a.bin")) == data
print("ok", READ_FLAGS == os.O_RDONLY | getattr(os, "O_BINARY", 0))
"""


def test_files_are_read_byte_for_byte_where_os_has_no_o_nonblock(tmp_path):
    (tmp_path / "a.bin").write_bytes(b"a\r\nb\x1ac\n")  # CRLF and Ctrl-Z: what Windows' text mode changes
    env = {**os.environ, "PYTHONPATH": str(PACKAGE.parent)}
    done = subprocess.run(
        [sys.executable, "-c", READS, str(tmp_path)], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["ok", "True"]


MODE_CHARS = set("rwxabt+U")
TEMPORARY = {"NamedTemporaryFile", "TemporaryFile", "SpooledTemporaryFile"}


def _mode_of(node: ast.Call, place: int):
    """The mode a call names: the `mode=` keyword, else its positional argument at `place`."""
    mode = next((k.value for k in node.keywords if k.arg == "mode"), None)
    if mode is None and len(node.args) > place:
        mode = node.args[place]
    return mode.value if isinstance(mode, ast.Constant) and isinstance(mode.value, str) else None


def _text_writes(tree: ast.AST):
    """Each call that opens a file for writing text or writes text to a path, with whether it names its line ends
    (`newline=`): `open`, `io.open`, `codecs.open`, `os.fdopen` and a path's `.open` with "w", "a" or "x" and no
    "b" in the mode; the tempfile module's files opened in text mode; `io.TextIOWrapper`; `.write_text(...)`."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        names_newline = any(k.arg == "newline" for k in node.keywords)
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        mode = None
        if name == "write_text" or name == "TextIOWrapper":
            yield node.lineno, names_newline
            continue
        if name == "open" and isinstance(func, ast.Attribute):  # io.open(path, mode) or a Path's .open(mode)
            first = _mode_of(node, 0)
            mode = first if first is not None and set(first) <= MODE_CHARS else _mode_of(node, 1)
        elif name in ("open", "fdopen"):
            mode = _mode_of(node, 1)
        elif name in TEMPORARY:
            mode = _mode_of(node, 0)  # binary ("w+b") unless it says otherwise
        if mode is not None and any(c in mode for c in "wax") and "b" not in mode:
            yield node.lineno, names_newline


def test_the_line_end_finder_sees_every_way_of_writing_text():
    """The finder below is the test of every text write: each way of opening text for writing is seen, with or
    without `newline=`; binary writes and reads are not writes of text."""
    code = """
open(p, "w")
open(p, mode="a", newline="\\n")
io.open(p, "x")
codecs.open(p, "w", "utf-8")
os.fdopen(fd, "w")
Path(p).open("w")
Path(p).open(mode="a")
tempfile.NamedTemporaryFile(mode="w+")
tempfile.TemporaryFile("w")
io.TextIOWrapper(buffer)
p.write_text(t)
p.write_text(t, newline="\\n")
open(p, "wb"); open(p); Path(p).open(); Path(p).open("rb"); zf.open(part); os.fdopen(fd, "rb")
tempfile.NamedTemporaryFile(delete=False); io.open(p, "r")
"""
    found = list(_text_writes(ast.parse(code)))
    assert [line for line, _ in found] == list(range(2, 14))
    assert [named for _, named in found] == [False, True] + [False] * 9 + [True]


def test_every_text_file_pnpgen_writes_names_its_line_ends():
    """Text mode writes os.linesep for each \\n: a manifest, a saved object or a CSV written on Windows would be
    other bytes than on Linux. Every text write in pnpgen says which line ends it writes (`newline=`)."""
    unnamed = [
        f"{path.relative_to(PACKAGE.parent)}:{line}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for line, named in _text_writes(ast.parse(path.read_text(encoding="utf-8")))
        if not named
    ]
    assert not unnamed, "text written in the system's line ends:\n" + "\n".join(unnamed)

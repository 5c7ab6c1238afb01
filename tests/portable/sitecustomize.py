"""Loaded by every Python process of the portable job (through PYTHONPATH), before pnpgen is imported: with
PNPGEN_PORTABLE=1 it takes out of Python what Windows lacks, so a build here that reaches for any of it fails as
it would there. Spawned workers load it too, so they lack the same."""

import os

if os.environ.get("PNPGEN_PORTABLE") == "1":
    import signal

    for name in ("fork", "forkpty", "register_at_fork", "wait3", "wait4", "getuid", "geteuid"):
        if hasattr(os, name):
            delattr(os, name)
    for name in (
        "setitimer",
        "getitimer",
        "alarm",
        "SIGALRM",
        "SIGPROF",
        "ITIMER_PROF",
        "ITIMER_REAL",
        "pause",
    ):
        if hasattr(signal, name):
            delattr(signal, name)

    # a spawned worker (multiprocessing runs it as `python -c ... --multiprocessing-fork`) says it started, so
    # the job can tell that builds ran in workers and did not fall back to one process
    import sys

    _log = os.environ.get("PNPGEN_PORTABLE_WORKERS")
    if _log and "--multiprocessing-fork" in sys.argv:
        with open(_log, "a", encoding="utf-8") as _fh:
            _fh.write(f"{os.getpid()}\n")

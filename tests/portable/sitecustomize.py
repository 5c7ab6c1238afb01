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

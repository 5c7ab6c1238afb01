"""`pnpgen serve`: `watch`, with a page on 127.0.0.1 that shows every face it builds (see `pnpgen.serve`)."""

from __future__ import annotations

import threading
from collections.abc import Callable


def run(
    project,
    names: list[str] | None,
    echo: Callable[[str, bool], None],
    report: Callable,
    host: str = "127.0.0.1",
    port: int = 8765,
    poll: bool = False,
    check: bool = True,
    stop_event=None,
) -> None:
    from pnpgen.commands import watch
    from pnpgen.serve import Preview, make_server

    roots = project.select(names)  # usage errors before anything starts
    preview = Preview(project, [r.name for r in roots])
    try:
        server = make_server(preview, host, port)
    except OSError as exc:
        from pnpgen.errors import UsageProblem

        raise UsageProblem(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    threading.Thread(target=server.serve_forever, name="pnpgen-serve", daemon=True).start()
    echo(f"serving http://{host}:{server.server_address[1]}/ (Ctrl-C to stop)", False)
    try:
        watch.run(
            project, names, echo, report, stop_event, poll, check, after=preview.update, early=preview.early
        )
    finally:
        server.shutdown()
        server.server_close()

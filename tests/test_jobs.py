"""The process pool that writes a game's files, or builds several games, in parallel (`pipeline.jobs.Pool`),
with forked workers (Linux) and spawned ones (Windows, macOS: `PNPGEN_START_METHOD=spawn` here)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from pnpgen.errors import ContentError, Location
from pnpgen.pipeline.jobs import RemoteTraceback, WorkerDied, run_parallel


def _no_children_left() -> bool:
    """No worker left running or unreaped (spawning also starts multiprocessing's resource tracker, which
    outlives pools by design and is not a worker)."""
    import multiprocessing

    return not multiprocessing.active_children()


def _pid_and_double(n: int) -> tuple[int, int]:
    return n * 2, os.getpid()


@pytest.fixture(params=["fork", "spawn"])
def method(request, monkeypatch) -> str:
    """Each pool test with forked workers, and with spawned ones as Windows and macOS start them."""
    monkeypatch.setenv("PNPGEN_START_METHOD", request.param)
    return request.param


def test_results_come_back_in_order_from_workers(method):
    seen_done: list[int] = []
    steps: list[int] = []
    out = run_parallel(
        list(range(7)),
        _pid_and_double,
        2,
        steps.append,
        lambda i, r: seen_done.append(i),
        first=[6, 5, 0, 1, 2, 3, 4],
    )
    assert [r[0] for r in out] == [0, 2, 4, 6, 8, 10, 12]
    pids = {r[1] for r in out}
    assert os.getpid() not in pids and 1 <= len(pids) <= 2  # two workers at most, never the parent itself
    assert sorted(seen_done) == list(range(7)) and sorted(steps) == list(range(7))
    assert _no_children_left()


def test_the_first_items_start_first():
    """With one item per worker at a time, the first two of `first` are the first two answered or started."""
    out = run_parallel(list(range(4)), _pid_and_double, 2, lambda i: None, first=[3, 2, 1, 0])
    started_by = {out[3][1], out[2][1]}
    assert len(started_by) == 2  # items 3 and 2 went to the two workers, one each


def test_one_worker_or_one_item_runs_in_this_process():
    out = run_parallel([5], _pid_and_double, 2, lambda i: None)
    assert out == [(10, os.getpid())]
    out = run_parallel([1, 2], _pid_and_double, 1, lambda i: None)
    assert [pid for _n, pid in out] == [os.getpid()] * 2


def _fail_on_two(n: int) -> int:
    if n == 2:
        raise ContentError.at(Location("decks/a.yaml", 3, 5), "the art could not be read")
    return n


def test_a_content_error_in_a_worker_keeps_its_location_and_the_workers_are_gone(method):
    with pytest.raises(ContentError) as caught:
        run_parallel(list(range(5)), _fail_on_two, 2, lambda i: None)
    (diag,) = caught.value.diagnostics.sorted()
    assert diag.location.line == 3 and diag.location.col == 5 and "could not be read" in diag.message
    assert isinstance(caught.value.__cause__, RemoteTraceback)
    assert "_fail_on_two" in str(caught.value.__cause__)  # the worker's traceback, for --debug
    assert _no_children_left()


class _Unpicklable(Exception):
    def __init__(self, what):
        super().__init__(f"bad {what}")
        self.handle = lambda: None  # a lambda cannot be pickled

    def __reduce__(self):
        return (type(self), (self.handle,))


def _raise_unpicklable(n: int) -> int:
    raise _Unpicklable(n)


def test_an_error_that_cannot_cross_comes_back_as_its_text(method):
    with pytest.raises(RuntimeError, match="_Unpicklable: bad 0|_Unpicklable: bad 1"):
        run_parallel([0, 1], _raise_unpicklable, 2, lambda i: None)
    assert _no_children_left()


def _die(n: int) -> int:
    if n == 1:
        os.kill(os.getpid(), signal.SIGKILL)
    return n


def test_a_worker_that_dies_is_reported_not_waited_for(method):
    with pytest.raises(WorkerDied, match="killed by SIGKILL"):
        run_parallel(list(range(4)), _die, 2, lambda i: None)
    assert _no_children_left()


def test_an_error_in_the_parents_callback_stops_the_workers():
    def done(i, result):
        raise KeyError("stop")

    with pytest.raises(KeyError):
        run_parallel(list(range(6)), _pid_and_double, 2, lambda i: None, done)
    assert _no_children_left()


def test_what_the_parent_and_workers_print_appears_once_each(tmp_path):
    """The parent's buffered output is flushed before the fork (not written again by each worker), and what a
    worker prints is flushed before it exits."""
    script = (
        "import sys\n"
        "from pnpgen.pipeline.jobs import run_parallel\n"
        "print('parent-before', end=' ')\n"
        "def work(n):\n"
        "    sys.stdout.write(f' worker-{n} ')\n"
        "    return n\n"
        "run_parallel(list(range(4)), work, 2, lambda i: None)\n"
        "print('parent-after')\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # buffered, as a pipe's stdout is
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, env=env
    ).stdout
    words = out.split()
    assert words.count("parent-before") == 1 and words.count("parent-after") == 1
    assert sorted(w for w in words if w.startswith("worker-")) == [f"worker-{n}" for n in range(4)]


def _cores_free_now(job: tuple) -> int:
    import time

    what, free = job
    if what == "slow":
        seen = free()
        time.sleep(0.5)
        return seen
    if what == "fast":
        return free()
    deadline = time.monotonic() + 10  # "probe": runs on once the slow job's worker has nothing left to do
    while free() < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    return free()


def test_a_job_sees_the_cores_the_other_workers_leave_free(method):
    """`FreeCores`: while both workers are busy each job may use one; once the other worker has nothing left,
    the job still running may use both (a game's files written two at a time)."""
    from pnpgen.pipeline.jobs import FreeCores

    free = FreeCores(2)
    jobs = [("slow", free), ("fast", free), ("probe", free)]
    assert run_parallel(jobs, _cores_free_now, 2, lambda i: None, free=free) == [1, 1, 2]
    assert FreeCores(4)() == 4  # nothing running yet: all of them


def _fail_on_even(n: int) -> int:
    if n % 2 == 0:
        raise ContentError.at(
            Location(f"decks/d{n}.yaml", n + 1, 1), f"could not write d{n}.pdf: File too large"
        )
    return n


@pytest.mark.parametrize("workers", [1, 2])
def test_every_item_is_worked_and_every_error_reported_whatever_finished_first(workers):
    """Which errors a build reports must not depend on which worker was quicker: every item is worked, then
    their ContentErrors are raised as one, in the same way with one worker or two."""
    steps: list[int] = []
    with pytest.raises(ContentError) as caught:
        run_parallel(list(range(5)), _fail_on_even, workers, steps.append, first=[4, 3, 2, 1, 0])
    lines = [d.location.line for d in caught.value.diagnostics.sorted()]
    assert sorted(lines) == [1, 3, 5]  # items 0, 2 and 4
    assert sorted(steps) == [1, 3]  # the others were written all the same
    assert _no_children_left()


def test_an_internal_error_wins_over_content_errors_and_is_the_first_in_order():
    from pnpgen.pipeline.jobs import failed

    a = ContentError.at(Location("a.yaml", 1, 1), "a")
    assert failed([(3, KeyError("late")), (1, ValueError("early")), (0, a)]).args == ("early",)
    assert failed([(0, a)]) is a


def _open_descriptors() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts descriptors through Linux's /proc")
def test_no_pipe_is_left_open_however_the_workers_end(method):
    """serve builds again and again beside its server's sockets: a pool leaves no pipe or handle open, whether
    its workers answered, failed or died."""
    # the first spawned pool of a process starts multiprocessing's resource tracker, which stays (one per process,
    # by design): not a pipe a pool leaves behind, so it is started before counting
    run_parallel(list(range(2)), _pid_and_double, 2, lambda i: None)
    for work, items in (
        (_pid_and_double, list(range(5))),
        (_fail_on_two, list(range(4))),
        (_die, list(range(4))),
    ):
        before = _open_descriptors()
        try:
            run_parallel(items, work, 2, lambda i: None)
        except (ContentError, WorkerDied):
            pass
        assert _open_descriptors() <= before, (work, _open_descriptors() - before)
    assert _no_children_left()


def test_a_pool_that_cannot_start_leaves_the_work_to_this_process(monkeypatch):
    """Where no worker process can be started (a sandbox without processes or semaphores), every item is still
    worked, here."""
    import pnpgen.pipeline.jobs as jobs

    def cannot(*a, **k):
        raise OSError(38, "Function not implemented")

    monkeypatch.setattr(jobs, "Pool", cannot)
    out = run_parallel(list(range(3)), _pid_and_double, 2, lambda i: None)
    assert out == [(0, os.getpid()), (2, os.getpid()), (4, os.getpid())]


def test_items_that_do_not_pickle_are_worked_here_where_workers_are_spawned(monkeypatch):
    """A game's drawn faces are inherited by forked workers; spawned workers would need them pickled, so with
    `pickled=False` they are written in this process where workers are spawned, and in workers where forked."""
    items = [lambda: 1, lambda: 2]  # a lambda never pickles
    for method, here in (("spawn", True), ("fork", False)):
        monkeypatch.setenv("PNPGEN_START_METHOD", method)
        out = run_parallel(items, _call_and_pid, 2, lambda i: None, pickled=False)
        assert [n for n, _pid in out] == [1, 2]
        assert all((pid == os.getpid()) == here for _n, pid in out), (method, out)


def _call_and_pid(item) -> tuple:
    return item(), os.getpid()


def test_the_start_method_is_the_platforms_unless_asked(monkeypatch):
    from pnpgen.pipeline.pool import start_method

    monkeypatch.delenv("PNPGEN_START_METHOD", raising=False)
    assert start_method() == ("fork" if sys.platform.startswith("linux") else "spawn")
    monkeypatch.setenv("PNPGEN_START_METHOD", "spawn")
    assert start_method() == "spawn"
    monkeypatch.setenv("PNPGEN_START_METHOD", "nonsense")
    assert start_method() == ("fork" if sys.platform.startswith("linux") else "spawn")
    monkeypatch.delenv("PNPGEN_START_METHOD")
    monkeypatch.delattr(os, "fork")  # as on Windows
    assert start_method() == "spawn"


class _NoWayBack(Exception):
    def __init__(self, what, extra):  # pickles as (what,) only: cannot be made again from that
        super().__init__(what)
        self.extra = extra


def _raise_no_way_back(n: int) -> int:
    raise _NoWayBack(f"bad {n}", extra=n)


def test_an_error_that_pickles_but_cannot_be_read_back_comes_back_as_its_text(method):
    with pytest.raises(RuntimeError, match="_NoWayBack: bad 0"):
        run_parallel([0, 1], _raise_no_way_back, 2, lambda i: None)
    assert _no_children_left()


def test_the_pool_works_from_a_thread_that_is_not_the_main_one():
    """serve and watch build from their own threads: workers are started from there all the same."""
    import threading

    got: list = []
    thread = threading.Thread(
        target=lambda: got.append(run_parallel(list(range(4)), _pid_and_double, 2, print))
    )
    thread.start()
    thread.join(60)
    assert [r[0] for r in got[0]] == [0, 2, 4, 6]
    assert _no_children_left()


def _unpicklable_result(n: int) -> object:
    import threading

    return threading.Lock() if n == 1 else n


def test_a_result_that_cannot_cross_is_that_items_error_not_a_dead_worker(method, capfd):
    """A result that does not pickle fails its item, named, like an error that cannot cross: the worker goes on
    and prints no traceback of its own (it used to die sending it: 'a writer process stopped ... exit status 1')."""
    with pytest.raises(RuntimeError, match="result of an item could not be sent back: .*pickle"):
        run_parallel(list(range(4)), _unpicklable_result, 2, lambda i: None)
    assert _no_children_left()
    assert "Traceback" not in capfd.readouterr().err


def test_a_worker_whose_parent_is_gone_ends_quietly():
    """An answer to a parent that is gone (the build was killed while this worker wrote) is dropped, not a
    BrokenPipeError traceback on the terminal the user was typing in."""
    import multiprocessing

    from pnpgen.pipeline.pool import _answer

    reader, writer = multiprocessing.Pipe(duplex=False)
    reader.close()
    _answer(writer, (0, True, {"pages": 1}, ""))
    writer.close()


def test_a_program_read_from_standard_input_works_alone_where_workers_are_spawned():
    """A spawned worker runs its parent's program again, which a program piped in on standard input cannot be:
    the work is then done in the one process, not lost to a worker that dies at its start."""
    script = (
        "import os\n"
        "from pnpgen.pipeline.jobs import run_parallel\n"
        "def work(n):\n"
        "    return os.getpid()\n"
        "if __name__ == '__main__':\n"
        "    print(set(run_parallel([1, 2, 3], work, 2, lambda i: None)) == {os.getpid()})\n"
    )
    env = {**os.environ, "PNPGEN_START_METHOD": "spawn"}
    done = subprocess.run(
        [sys.executable, "-"], input=script, capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0 and done.stdout.strip() == "True", done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("after", [0.2, 0.6])
def test_ctrl_c_during_a_several_game_build_leaves_no_staging_folder(tmp_path, after):
    """Ctrl-C reaches the whole process group; the game workers ignore it and are stopped by their parent with
    SIGTERM, which unwinds each game's build: its staging folder is removed, not left for the lease sweep."""
    import time

    from conftest import ROOT

    out = tmp_path / "out"
    proc = subprocess.Popen(
        [sys.executable, "-m", "pnpgen", "build", "--content", str(ROOT / "content"), "--out", str(out)],
        start_new_session=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PNPGEN_CACHE": "off"},
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (
        out.exists() and any(".staging-" in p.name for p in out.iterdir())
    ):
        time.sleep(0.01)
    time.sleep(after)
    os.killpg(proc.pid, signal.SIGINT)
    _out, err = proc.communicate(timeout=60)
    assert b"Traceback" not in err, err  # stopped (exit 1), or done already on a fast machine
    assert not [p.name for p in out.rglob("*") if ".staging-" in p.name]

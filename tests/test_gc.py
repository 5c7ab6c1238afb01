"""A build keeps the cyclic collector off what it made (`pipeline.jobs.few_collections`) and leaves the process's
collector as it found it."""

from __future__ import annotations

import gc

from pnpgen.pipeline.jobs import few_collections


def test_a_build_freezes_and_restores_the_collector():
    before = gc.get_threshold()
    assert gc.get_freeze_count() == 0
    with few_collections():
        kept = [[i] for i in range(1000)]  # made during the build: young until frozen again
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold()[0] >= 7000
        gc.freeze()
        assert gc.get_freeze_count() >= 1000
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
    assert len(kept) == 1000

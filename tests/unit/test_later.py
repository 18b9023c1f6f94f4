"""kb preview's idle job (kb.site.preview.later.Later): run after the delay unless settled first; settled
without running, one not started is dropped and one started is asked to stop; the job comes back
unless it ran to its end."""

from __future__ import annotations

import threading
from collections.abc import Callable

from kb.site.preview.later import Later


def test_settled_to_run_it_runs_now_and_is_done():
    ran: list[bool] = []
    later = Later(60, lambda stop: ran.append(stop()) or True)
    assert later.settle(run=True) is None
    assert ran == [False]


def test_settled_before_it_starts_it_is_dropped_and_comes_back():
    ran: list[int] = []

    def job(stop: Callable[[], bool]) -> bool:
        ran.append(1)
        return True

    later = Later(60, job)
    assert later.settle(run=False) is job
    assert ran == []


def test_settled_once_started_it_is_asked_to_stop_and_comes_back_if_it_did():
    started = threading.Event()

    def job(stop: Callable[[], bool]) -> bool:
        started.set()
        while not stop():
            threading.Event().wait(0.01)
        return False  # stopped before its end

    later = Later(0, job)
    assert started.wait(10)
    assert later.settle(run=False) is job


def test_a_job_that_ends_though_asked_to_stop_is_done():
    started, go_on = threading.Event(), threading.Event()

    def job(stop: Callable[[], bool]) -> bool:
        started.set()
        go_on.wait(10)
        return True  # it had nothing left to stop

    later = Later(0, job)
    assert started.wait(10)
    go_on.set()
    assert later.settle(run=False) is None


def test_ctrl_c_while_a_build_waits_for_the_update_leaves_it_for_the_last_settle(tmp_path, monkeypatch):
    from kb.site.preview import Project, serve

    started, ended = threading.Event(), threading.Event()

    def job(stop: Callable[[], bool]) -> bool:
        started.set()
        while not stop():
            threading.Event().wait(0.01)
        ended.set()
        return False

    project = Project(tmp_path / "mkdocs.yml", tmp_path / "data", tmp_path / "site", tmp_path / "docs", None)
    builder = serve.Builder(project, print, print)
    builder._search = Later(0, job)
    assert started.wait(10)
    join = threading.Thread.join

    def interrupted(self: threading.Thread, timeout: float | None = None) -> None:
        monkeypatch.setattr(threading.Thread, "join", join)
        raise KeyboardInterrupt  # Ctrl-C while the build waits

    monkeypatch.setattr(threading.Thread, "join", interrupted)
    try:
        builder.settle_search(run=False)
    except KeyboardInterrupt:
        pass
    assert builder.settle_search(run=False) is job  # as kb preview does last: it waits for the stop
    assert ended.is_set()

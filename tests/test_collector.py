"""The cyclic collector is paused while big pages are extracted, and only then
(`newsspider.extraction.common.collector`)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from lxml import etree

from newsspider import extract
from newsspider.extraction import api
from newsspider.extraction.common import collector
from newsspider.extraction.common.collector import (
    PAUSE_FROM_BYTES,
    collector_paused,
    pause_in_flight,
)
from newsspider.extraction.page.page_model import PageSegments
from newsspider.extraction.page.segments import segment_page


@pytest.fixture(autouse=True)
def _collector_running() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    assert pause_in_flight() == 0
    gc.enable() if was else gc.disable()


def _page(size: int) -> bytes:
    paragraph = b"<p>The council met on Tuesday to agree the budget for the coming year.</p>"
    return b"<html><body><article>" + paragraph * (size // len(paragraph) + 1) + b"</article>"


def _collector_state_during_extraction(
    monkeypatch: pytest.MonkeyPatch, html: bytes, max_bytes: int | None = None
) -> list[bool]:
    """Whether the collector ran when the walk began, for each walk of one extraction."""
    seen: list[bool] = []

    def spy(root: etree._Element, url: str | None = None) -> PageSegments:
        seen.append(gc.isenabled())
        return segment_page(root, url)

    monkeypatch.setattr(api, "segment_page", spy)
    extract(html, url="http://example.com/a", max_bytes=max_bytes)
    return seen


@pytest.mark.spies_on_core
def test_a_big_page_is_extracted_with_the_collector_paused_and_it_runs_again_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen = _collector_state_during_extraction(monkeypatch, _page(PAUSE_FROM_BYTES))
    assert seen == [False]
    assert gc.isenabled()


@pytest.mark.spies_on_core
def test_a_small_page_leaves_the_collector_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _collector_state_during_extraction(monkeypatch, _page(20_000)) == [True]


@pytest.mark.spies_on_core
def test_the_byte_cap_decides_not_the_raw_length(monkeypatch: pytest.MonkeyPatch) -> None:
    """A page cut to a small `max_bytes` is a small page."""
    seen = _collector_state_during_extraction(monkeypatch, _page(PAUSE_FROM_BYTES), 50_000)
    assert seen == [True]


def test_a_collector_the_caller_disabled_stays_disabled() -> None:
    gc.disable()
    with collector_paused(PAUSE_FROM_BYTES):
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_overlapping_pauses_resume_the_collector_when_the_last_one_ends() -> None:
    with collector_paused(PAUSE_FROM_BYTES):
        with collector_paused(PAUSE_FROM_BYTES):
            assert pause_in_flight() == 2
        assert not gc.isenabled()  # the outer extraction still runs
    assert gc.isenabled()


def test_a_pause_that_never_ends_still_collects(monkeypatch: pytest.MonkeyPatch) -> None:
    """Extractions that overlap without end: one that ends after the longest pause runs a full
    collection, so garbage from the rest of the process does not pile up."""
    collections: list[int] = []

    def collect(generation: int = 2) -> int:
        collections.append(generation)
        return 0

    monkeypatch.setattr(collector, "MAX_PAUSE_SECONDS", 0.0)
    monkeypatch.setattr(gc, "collect", collect)
    with collector_paused(PAUSE_FROM_BYTES):
        with collector_paused(PAUSE_FROM_BYTES):
            pass
        assert collections == [2]
        assert not gc.isenabled()
    assert gc.isenabled()


def test_an_exception_inside_still_ends_the_pause() -> None:
    with pytest.raises(RuntimeError), collector_paused(PAUSE_FROM_BYTES):
        raise RuntimeError("boom")
    assert gc.isenabled()


def test_extractions_in_many_threads_leave_the_collector_running() -> None:
    """The crawl extracts in a thread pool: pauses that start and end in any interleaving
    leave no pause in flight and the collector on."""
    import threading

    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(200):
                with collector_paused(PAUSE_FROM_BYTES):
                    assert not gc.isenabled()
        except BaseException as error:  # reported by the main thread
            errors.append(error)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert pause_in_flight() == 0
    assert gc.isenabled()

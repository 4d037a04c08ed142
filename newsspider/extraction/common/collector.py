"""Big pages are extracted with CPython's cyclic garbage collector paused.

An extraction keeps one lxml element proxy per block alive until it ends: a 16 MB page of
small elements holds half a million. Each full pass of the cyclic collector visits all of
them, and such passes come more often as they pile up, so with the collector running the time
per MB grew 1.12x with each doubling of the page (1.6x from 1 to 16 MB of `<div class>`
elements, measured by ``python -m bench.robustness.pathological --growth``); paused, it stays flat.
Extraction makes next to no cyclic garbage (its objects are freed by reference counting), so
the passes find nothing to free.

The collector is process-wide, so the pause is shared: it starts with the first big page in
flight and ends with the last one, and it is resumed only if it was running when the pause
began (a caller that switches it off while a pause lasts finds it on again when the pause
ends: the pause cannot tell). Pages in threads that overlap without end (a crawl of big
pages) would keep it paused; so an extraction ending after `MAX_PAUSE_SECONDS` of pause runs
one full collection, which bounds the cyclic garbage the rest of the process (Twisted's
failures, say) can leave.
"""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

#: Inputs from this size on pause the collector; below it its passes cost under 10%.
PAUSE_FROM_BYTES: Final = 1024 * 1024
#: A pause longer than this gets a full collection when an extraction ends.
MAX_PAUSE_SECONDS = 10.0


class _PauseState:
    """How many big extractions are in flight, and whether the pause is ours to end."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.in_flight = 0
        self.resume = False  # the collector was running when the pause began
        self.since = 0.0  # when the pause began, or when it last collected


_state = _PauseState()


@contextmanager
def collector_paused(input_size: int) -> Iterator[None]:
    """Run the block with the cyclic collector paused when `input_size` (bytes or characters
    of the page) reaches `PAUSE_FROM_BYTES`; smaller pages run as they are."""
    if input_size < PAUSE_FROM_BYTES:
        yield
        return
    with _state.lock:
        if _state.in_flight == 0:
            _state.resume = gc.isenabled()
            _state.since = time.monotonic()
            gc.disable()
        _state.in_flight += 1
    try:
        yield
    finally:
        collect = False
        with _state.lock:
            _state.in_flight -= 1
            if _state.in_flight == 0:
                if _state.resume:
                    gc.enable()
            elif _state.resume and time.monotonic() - _state.since > MAX_PAUSE_SECONDS:
                _state.since = time.monotonic()
                collect = True
        if collect:
            gc.collect()


def pause_in_flight() -> int:
    """Big extractions now running with the collector paused (for tests)."""
    return _state.in_flight

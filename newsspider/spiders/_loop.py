"""Handing the event loop back from a long callback, on the asyncio and the plain reactor."""

from __future__ import annotations

from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.task import deferLater


async def yield_to_loop() -> None:
    """Return after the event loop has had a turn (network I/O, timers, other callbacks).

    An async spider callback that works through a big document awaits this between bounded
    steps, so downloads go on meanwhile. A zero-delay reactor call rather than
    ``asyncio.sleep(0)``: it works whether or not Scrapy runs on the asyncio reactor.
    """
    from twisted.internet import reactor

    await maybe_deferred_to_future(deferLater(reactor, 0, lambda: None))

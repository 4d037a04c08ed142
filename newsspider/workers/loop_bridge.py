"""Awaiting a `concurrent.futures.Future` (a worker thread's result) on whichever loop Scrapy
runs: asyncio when the asyncio reactor is installed, a Twisted Deferred otherwise."""

from __future__ import annotations

import asyncio
from concurrent.futures import Future
from typing import TypeVar

from twisted.internet.defer import Deferred

__all__ = ["await_future", "to_deferred"]

_T = TypeVar("_T")


async def await_future(future: Future[_T]) -> _T:
    """Await a concurrent.futures future on whichever loop Scrapy runs."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:  # a non-asyncio Twisted reactor: coroutines may await Deferreds
        result: _T = await to_deferred(future)
        return result
    return await asyncio.wrap_future(future)


def to_deferred(future: Future[_T]) -> Deferred[_T]:
    from twisted.internet import reactor

    deferred: Deferred[_T] = Deferred()

    def fire(done: Future[_T]) -> None:
        error = done.exception() if not done.cancelled() else asyncio.CancelledError()
        if error is None:
            deferred.callback(done.result())
        else:
            deferred.errback(error)

    # Worker threads finish futures; Deferreds must fire on the reactor thread.
    future.add_done_callback(lambda done: reactor.callFromThread(fire, done))
    return deferred

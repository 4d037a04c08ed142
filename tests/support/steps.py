"""Reading a document in parsing steps (the spiders' feed and sitemap readers), timed."""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass
class Steps(Generic[T]):
    """Everything the steps gave, how many there were, and the longest one's CPU time: each
    step runs on the event loop in a crawl, so the longest is what the loop waits for."""

    items: list[T] = field(default_factory=list)
    count: int = 0
    longest: float = 0.0


def read_in_steps(batches: Iterator[Iterable[T]]) -> Steps[T]:
    """Drain ``batches`` one step at a time, timing each (thread CPU time: a loaded machine's
    other processes do not count)."""
    steps: Steps[T] = Steps()
    while True:
        start = time.thread_time()
        batch = next(batches, None)
        steps.longest = max(steps.longest, time.thread_time() - start)
        if batch is None:
            return steps
        steps.count += 1
        steps.items.extend(batch)

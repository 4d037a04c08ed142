"""`LoopLagMonitor`: how long the crawl's event loop went without running, measured in a crawl.

A Scrapy extension (``EXTENSIONS = {"support.loop_lag.LoopLagMonitor": 0}``): a Twisted
`LoopingCall` every 10 ms, from ``spider_opened`` to ``spider_closed``. Each tick records

- the wall-clock lag: how much later than due it ran (a stall of the loop, or of the whole
  process: on a loaded machine the OS also delays it), and
- the event-loop thread's CPU time since the previous tick: work the loop thread did without
  the timer getting a turn. Unlike wall time it does not count time the process waited for a
  CPU, so it is the better measure of a callback that runs too long on a shared machine
  (threads of the extraction pool holding the GIL show up in wall time only).

The largest values go to the stats (``loop_lag/max_ms``, ``loop_lag/max_cpu_ms``,
``loop_lag/p99_ms``, ``loop_lag/over_100ms_count``, ``loop_lag/ticks``), with the URLs of the
responses downloaded just before the five worst stalls (``loop_lag/worst``), so a stall can be
traced to the page that caused it.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any, Self

INTERVAL = 0.01
#: Target of the crawl benchmarks: no stall of the event loop above this.
TARGET_MS = 100.0
_RECENT = 3


class LoopLagMonitor:
    def __init__(self, crawler: Any) -> None:
        from scrapy import signals

        self.crawler = crawler
        self._lags: list[float] = []
        self._cpu: list[float] = []
        self._worst: list[tuple[float, float, list[str]]] = []
        self._recent: deque[str] = deque(maxlen=_RECENT)
        self._call: Any = None
        self._last = 0.0
        self._last_cpu = 0.0
        crawler.signals.connect(self.opened, signals.spider_opened)
        crawler.signals.connect(self.closed, signals.spider_closed)
        crawler.signals.connect(self.downloaded, signals.response_downloaded)

    @classmethod
    def from_crawler(cls, crawler: Any) -> Self:
        return cls(crawler)

    def opened(self, spider: Any) -> None:
        from twisted.internet.task import LoopingCall

        self._last, self._last_cpu = time.monotonic(), time.thread_time()
        self._call = LoopingCall(self._tick)
        self._call.start(INTERVAL, now=False)

    def downloaded(self, response: Any, request: Any, spider: Any) -> None:
        # Sent before the downloader middlewares see the response: a stall in one of them
        # (the content filter) comes after its URL.
        self._recent.append(response.url)

    def _tick(self) -> None:
        now, cpu = time.monotonic(), time.thread_time()
        lag = max(0.0, now - self._last - INTERVAL)
        busy = cpu - self._last_cpu
        self._last, self._last_cpu = now, cpu
        self._lags.append(lag)
        self._cpu.append(busy)
        if len(self._worst) < 5 or lag > self._worst[-1][0]:
            self._worst.append((lag, busy, list(self._recent)))
            self._worst.sort(key=lambda w: -w[0])
            del self._worst[5:]

    def closed(self, spider: Any, reason: str) -> None:
        if self._call is not None and self._call.running:
            self._call.stop()
        stats = self.crawler.stats
        lags = sorted(self._lags) or [0.0]
        stats.set_value("loop_lag/ticks", len(self._lags))
        stats.set_value("loop_lag/max_ms", round(1000 * lags[-1], 1))
        stats.set_value("loop_lag/p99_ms", round(1000 * lags[int(0.99 * (len(lags) - 1))], 1))
        stats.set_value("loop_lag/max_cpu_ms", round(1000 * max(self._cpu or [0.0]), 1))
        stats.set_value(
            "loop_lag/over_100ms_count", sum(1 for lag in lags if lag * 1000 > TARGET_MS)
        )
        stats.set_value(
            "loop_lag/worst",
            [
                {"lag_ms": round(1000 * lag, 1), "cpu_ms": round(1000 * cpu, 1), "after": urls}
                for lag, cpu, urls in self._worst
            ],
        )

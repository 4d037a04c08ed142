"""`ArticlePipeline`: `PageItem` in, `ArticleItem` out, extraction off the event-loop thread.

Extraction is CPU work. Run inline it would stall every download for its duration, so it goes
elsewhere: to a small thread pool by default (keeps the loop responsive; extraction mostly holds
the GIL, so threads buy responsiveness, not throughput), or to worker processes for throughput
on several cores. The thread pool's `concurrent.futures.Future` is bridged to asyncio when Scrapy
runs on an asyncio loop and to a Twisted Deferred otherwise.

The worker processes are fed by the event loop itself (`_ProcessPool`): each call is pickled
onto a socket to a worker and the result read back when the socket is readable. No thread in
the crawler process takes part. `concurrent.futures.ProcessPoolExecutor` moves every call
through a feeder thread and a manager thread woken through a pipe; next to a busy event-loop
thread each of those hand-offs waits for the GIL, and in a crawl that cost the crawler process
more CPU per page than the rest of the glue together (see docs/crawl-throughput.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import pickle
import signal
import socket
import struct
import traceback
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self, TypeVar

from scrapy.exceptions import DropItem, NotConfigured
from scrapy.utils.misc import load_object
from twisted.internet.defer import Deferred

from newsspider.explain_report import write_report
from newsspider.extraction.api import ALGORITHMS, DEFAULT_MAX_BYTES
from newsspider.extraction.article import PAGE_TYPES, Article
from newsspider.items import ArticleItem, PageItem
from newsspider.settings_defaults import (
    DEFAULTS,
    EXPLAIN_DIR,
    EXPLAIN_MAX,
    EXTRACT_ALGORITHM,
    EXTRACT_FUNCTION,
    EXTRACT_MAX_BYTES,
    EXTRACT_MODE,
    EXTRACT_START_METHOD,
    EXTRACT_WORKERS,
    LOW_CONFIDENCE_ACTION,
    MIN_CONFIDENCE,
    PIPELINE_ENABLED,
    RELATIVE_DATES,
    TRUNCATED_MAX_CONFIDENCE,
)

__all__ = ["ArticlePipeline"]

logger = logging.getLogger(__name__)

_T = TypeVar("_T")
_MODES = ("thread", "process")
_ACTIONS = ("drop", "flag")
_DEFAULT_THREADS = 4
_STATS = "newsspider/pipeline/"
_PAGE_COUNT = _STATS + "page_count"
_ERROR_COUNT = _STATS + "error_count"
_ARTICLE_COUNT = _STATS + "article_count"
_FLAGGED_COUNT = _STATS + "flagged_count"
_RESTART_COUNT = _STATS + "pool_restart_count"
_TRUNCATED_COUNT = _STATS + "truncated_response_count"
_EXPLAIN_COUNT = _STATS + "explain_report_count"
_EXPLAIN_ERROR_COUNT = _STATS + "explain_error_count"
_PAGE_TYPE_COUNT = {t: f"{_STATS}page_type_count/{t}" for t in PAGE_TYPES}


@dataclass(frozen=True, slots=True)
class PipelineConfig:
    """The pipeline's settings, read and checked once."""

    mode: str = "thread"
    workers: int = 0
    start_method: str = "spawn"
    algorithm: str = "default"
    max_bytes: int | None = DEFAULT_MAX_BYTES
    function: str = "newsspider.extraction.api.extract"
    relative_dates: bool = True
    min_confidence: float = 0.25
    low_confidence: str = "drop"
    truncated_max_confidence: float = 0.2
    explain_dir: Path | None = None
    explain_max: int = 100

    @classmethod
    def from_settings(cls, settings: Any) -> PipelineConfig:
        def get(name: str) -> Any:
            return settings.get(name, DEFAULTS[name])

        max_bytes = get(EXTRACT_MAX_BYTES)
        config = cls(
            mode=str(get(EXTRACT_MODE)).lower(),
            workers=int(get(EXTRACT_WORKERS) or 0),
            start_method=str(get(EXTRACT_START_METHOD)),
            algorithm=str(get(EXTRACT_ALGORITHM)),
            # Unset: the extractor's own cap; 0: no cap at all.
            max_bytes=(DEFAULT_MAX_BYTES if max_bytes in (None, "") else (int(max_bytes) or None)),
            function=str(get(EXTRACT_FUNCTION)),
            relative_dates=settings.getbool(RELATIVE_DATES, DEFAULTS[RELATIVE_DATES]),
            min_confidence=float(get(MIN_CONFIDENCE)),
            low_confidence=str(get(LOW_CONFIDENCE_ACTION)).lower(),
            truncated_max_confidence=float(get(TRUNCATED_MAX_CONFIDENCE)),
            explain_dir=Path(get(EXPLAIN_DIR)) if get(EXPLAIN_DIR) else None,
            explain_max=int(get(EXPLAIN_MAX) or 0),
        )
        # Misconfiguration fails the crawl at start-up, not silently mid-crawl.
        if config.mode not in _MODES:
            raise ValueError(f"{EXTRACT_MODE} must be one of {_MODES}, got {config.mode!r}")
        if config.low_confidence not in _ACTIONS:
            raise ValueError(
                f"{LOW_CONFIDENCE_ACTION} must be one of {_ACTIONS}, got {config.low_confidence!r}"
            )
        if config.algorithm not in ALGORITHMS:
            raise ValueError(
                f"{EXTRACT_ALGORITHM} must be one of {ALGORITHMS}, got {config.algorithm!r}"
            )
        if config.explain_max < 0:
            raise ValueError(f"{EXPLAIN_MAX} must be >= 0, got {config.explain_max}")
        if config.workers < 0:
            raise ValueError(f"{EXTRACT_WORKERS} must be >= 0, got {config.workers}")
        return config

    def worker_count(self) -> int:
        if self.workers:
            return self.workers
        if self.mode == "process":
            return max(1, (os.cpu_count() or 2) - 1)
        return _DEFAULT_THREADS


class ArticlePipeline:
    """Replaces each `PageItem` with an `ArticleItem`; passes other items through untouched.

    Low-confidence articles are dropped (``DropItem`` at INFO) or flagged, per
    ``NEWSSPIDER_LOW_CONFIDENCE``; an article from a truncated response (`PageItem.warnings`)
    has its confidence capped at ``NEWSSPIDER_TRUNCATED_MAX_CONFIDENCE`` first. Extraction
    errors are logged once with the URL, counted, and drop only that page.
    """

    def __init__(self, config: PipelineConfig, stats: Any) -> None:
        self.config = config
        self.stats = stats
        self._extract: Callable[..., Article] = load_object(config.function)
        self._executor: Executor | None = None
        self._pool: _ProcessPool | None = None
        self._explained = 0

    @classmethod
    def from_crawler(cls, crawler: Any) -> Self:
        if not crawler.settings.getbool(PIPELINE_ENABLED, DEFAULTS[PIPELINE_ENABLED]):
            raise NotConfigured  # bare: an explicit choice, not worth a warning
        return cls(PipelineConfig.from_settings(crawler.settings), crawler.stats)

    def open_spider(self) -> None:
        # Process mode: the workers start (and import) now, while the first pages download.
        if self.config.mode == "process":
            self._ensure_pool()
        else:
            self._ensure_executor()

    def close_spider(self) -> None:
        # Never block the event loop here; pending work was awaited before the spider closed.
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
        if self._pool is not None:
            self._pool.close()
            self._pool = None

    async def process_item(self, item: Any) -> Any:
        if not isinstance(item, PageItem):
            return item
        stats = self.stats
        stats.inc_value(_PAGE_COUNT)
        try:
            article = await self._run(item)
        except Exception as exc:
            stats.inc_value(_ERROR_COUNT)
            logger.error("Extraction failed for %s: %r", item.url, exc, exc_info=exc)
            # Logged above with the traceback; keep the drop itself quiet.
            raise DropItem(f"Extraction failed: {item.url}", log_level="DEBUG") from exc
        page_type = article.page_type if article.page_type in PAGE_TYPES else "other"
        stats.inc_value(_PAGE_TYPE_COUNT[page_type])
        confidence = article.confidence
        if item.warnings:  # the response was cut short: half an article is not a confident one
            stats.inc_value(_TRUNCATED_COUNT)
            confidence = min(confidence, self.config.truncated_max_confidence)
        low = confidence < self.config.min_confidence
        if low and self.config.explain_dir is not None:
            await self._explain(item)
        if low and self.config.low_confidence == "drop":
            truncated = article.confidence >= self.config.min_confidence
            reason = "truncated" if truncated else "low_confidence"
            stats.inc_value("newsspider/dropped/count")
            stats.inc_value(f"newsspider/dropped/reason_count/{reason}")
            raise DropItem(
                f"Low confidence {confidence:.2f} < {self.config.min_confidence}"
                f" ({'truncated response' if truncated else page_type}): {item.url}",
                log_level="INFO",
            )
        if low:
            stats.inc_value(_FLAGGED_COUNT)
        stats.inc_value(_ARTICLE_COUNT)
        result = ArticleItem.from_article(article, item, low_confidence=low)
        if item.warnings:
            result.confidence = confidence
            result.warnings = [*result.warnings, *item.warnings]
        return result

    async def _run(self, page: PageItem) -> Article:
        args = (page.body, page.url, page.encoding)
        kwargs = {
            "reference_time": page.reference_time if self.config.relative_dates else None,
            "hints": page.hints or None,
            "algorithm": self.config.algorithm,
            "max_bytes": self.config.max_bytes,
        }
        if self.config.mode == "process":
            result: Article = await self._ensure_pool().submit(args, kwargs)
            return result
        future = self._ensure_executor().submit(self._extract, *args, **kwargs)
        return await _await_future(future)

    async def _explain(self, page: PageItem) -> None:
        """Write the explain report of a low-confidence page (bounded count, on a worker thread:
        it extracts the page again, with the explanation). A failure is logged, never fatal."""
        folder = self.config.explain_dir
        if folder is None or self._explained >= self.config.explain_max:
            return
        self._explained += 1  # counted when scheduled, so concurrent pages keep the bound
        reference_time = page.reference_time if self.config.relative_dates else None
        future = self._ensure_executor().submit(
            write_report, folder, page.body, page.url, page.encoding,
            reference_time=reference_time, hints=page.hints or None,
        )  # fmt: skip
        try:
            path = await _await_future(future)
        except Exception as exc:
            self.stats.inc_value(_EXPLAIN_ERROR_COUNT)
            logger.warning("Explain report failed for %s: %r", page.url, exc)
            return
        self.stats.inc_value(_EXPLAIN_COUNT)
        logger.debug("Explain report for %s: %s", page.url, path)

    def _ensure_executor(self) -> Executor:
        if self._executor is None:
            workers = self.config.worker_count()
            self._executor = ThreadPoolExecutor(workers, "newsspider-extract")
        return self._executor

    def _ensure_pool(self) -> _ProcessPool:
        if self._pool is None:
            self._pool = _ProcessPool(
                self._extract,
                self.config.worker_count(),
                multiprocessing.get_context(self.config.start_method),
                on_restart=lambda: self.stats.inc_value(_RESTART_COUNT),
            )
        return self._pool


# --- the process pool ---------------------------------------------------------------------------

#: Frames on a worker's socket: an unsigned 64-bit length, then that many bytes of pickle.
_HEADER = struct.Struct("!Q")
#: Calls sent to one worker ahead of its results. The worker reads them from its socket on its
#: own, so it keeps working while the event loop is busy elsewhere (a full garbage collection of
#: a crawler's heap takes tens of milliseconds). With only a call or two queued, a busy loop
#: starved the worker; responses then piled up in Scrapy waiting for extraction, the heap grew,
#: collections got slower and the crawl slowed down further (docs/crawl-throughput.md). The price:
#: a worker that dies takes up to this many pages with it (each counted as an error).
_IN_FLIGHT = 16
_READ_SIZE = 1 << 18


class _RemoteTraceback(Exception):
    """The worker-side traceback, attached as ``__cause__`` of an exception from a worker."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text

    def __str__(self) -> str:
        return self.text


def _serve(sock: socket.socket, function: Callable[..., Any]) -> None:
    """A worker process: read a call, run it, write the result; until the crawler goes away."""
    # Ctrl-C reaches the whole process group: the crawler handles it (a graceful stop that may
    # still need this worker) and closes the socket when done, which ends this loop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(Exception):
        function(b"<html></html>")  # imports and caches, before the first real page
    with sock, sock.makefile("rb") as stream:
        while True:
            header = stream.read(_HEADER.size)
            if len(header) < _HEADER.size:
                return  # the crawler closed its end
            (size,) = _HEADER.unpack(header)
            payload = stream.read(size)
            if len(payload) < size:
                return
            reply: tuple[bool, Any, str | None]
            try:
                args, kwargs = pickle.loads(payload)
                reply = (True, function(*args, **kwargs), None)
            except Exception as exc:
                reply = (False, exc, traceback.format_exc())
            try:
                data = pickle.dumps(reply, pickle.HIGHEST_PROTOCOL)
                if not reply[0]:
                    pickle.loads(data)  # an exception whose class cannot be rebuilt from its args
            except Exception as exc:
                error = RuntimeError(f"unpicklable extraction result {reply[1]!r}: {exc!r}")
                data = pickle.dumps((False, error, reply[2]), pickle.HIGHEST_PROTOCOL)
            sock.sendall(_HEADER.pack(len(data)) + data)


def _reply(data: bytes) -> tuple[bool, Any]:
    """A worker's reply: (True, result) or (False, exception with the remote traceback)."""
    try:
        ok, value, remote = pickle.loads(data)
    except Exception as exc:
        return False, RuntimeError(f"unreadable reply from an extraction worker: {exc!r}")
    if not ok and remote:
        value.__cause__ = _RemoteTraceback(remote)
    return ok, value


class _Descriptor:
    """What a Twisted reactor needs to watch a file descriptor (non-asyncio reactors)."""

    def __init__(self, fd: int, on_read: Callable[[], None], on_write: Callable[[], None]):
        self._fd = fd
        self.doRead = on_read
        self.doWrite = on_write

    def fileno(self) -> int:
        return self._fd

    def connectionLost(self, reason: object) -> None:
        pass

    def logPrefix(self) -> str:
        return "newsspider-extract"


class _Worker:
    __slots__ = ("descriptor", "inbox", "outbox", "pending", "process", "sock", "writing")

    def __init__(self, process: Any, sock: socket.socket) -> None:
        self.process = process
        self.sock = sock
        #: Waiters of the calls sent, in order (a worker answers in order).
        self.pending: deque[Any] = deque()
        self.outbox: deque[memoryview] = deque()
        self.inbox = bytearray()
        self.writing = False
        self.descriptor: _Descriptor | None = None


class _ProcessPool:
    """Worker processes fed from the event-loop thread over socket pairs, without threads.

    `submit` returns an awaitable that the loop resolves: an asyncio future on an asyncio loop,
    else a Twisted Deferred. A worker that dies fails the calls it held with
    `BrokenProcessPool` and is replaced.
    """

    def __init__(
        self,
        function: Callable[..., Any],
        workers: int,
        context: Any,
        on_restart: Callable[[], None] = lambda: None,
    ) -> None:
        self._function = function
        self._context = context
        self._on_restart = on_restart
        self._queue: deque[tuple[memoryview, Any]] = deque()
        self._closed = False
        try:
            self._loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:  # a non-asyncio Twisted reactor
            self._loop = None
        self._size = max(1, workers)
        self._workers = [self._start_worker() for _ in range(self._size)]

    def submit(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if self._closed:
            raise BrokenProcessPool("the extraction pool is closed")
        payload = pickle.dumps((args, kwargs), pickle.HIGHEST_PROTOCOL)
        waiter = self._new_waiter()
        self._queue.append((memoryview(_HEADER.pack(len(payload)) + payload), waiter))
        self._dispatch()
        return waiter

    def close(self) -> None:
        """Close the sockets (workers exit when they see it) and cancel what is left."""
        self._closed = True
        for worker in self._workers:
            self._unwatch(worker)
            worker.sock.close()
            for waiter in worker.pending:
                waiter.cancel()
            worker.pending.clear()
        for _, waiter in self._queue:
            waiter.cancel()
        self._queue.clear()
        multiprocessing.active_children()  # reaps the workers that already exited

    # -- dispatch --

    def _dispatch(self) -> None:
        # Replace lost workers only when there is work for them: a worker that cannot even
        # start costs one attempt per page that fails, never a restart loop.
        while self._queue and len(self._workers) < self._size:
            self._workers.append(self._start_worker())
            self._on_restart()
        while self._queue:
            worker = min(self._workers, key=lambda w: len(w.pending))
            if len(worker.pending) >= _IN_FLIGHT:
                return
            frame, waiter = self._queue.popleft()
            worker.pending.append(waiter)
            worker.outbox.append(frame)
            self._flush(worker)

    def _flush(self, worker: _Worker) -> None:
        if worker not in self._workers or worker.sock.fileno() < 0:
            return
        outbox = worker.outbox
        while outbox:
            try:
                sent = worker.sock.send(outbox[0])
            except BlockingIOError:
                break
            except OSError:
                self._lost(worker)
                return
            if sent < len(outbox[0]):
                outbox[0] = outbox[0][sent:]
                break
            outbox.popleft()
        if outbox and not worker.writing:
            worker.writing = True
            self._watch_write(worker, True)
        elif not outbox and worker.writing:
            worker.writing = False
            self._watch_write(worker, False)

    def _on_readable(self, worker: _Worker) -> None:
        if worker not in self._workers:
            return
        gone = False
        while True:
            try:
                chunk = worker.sock.recv(_READ_SIZE)
            except BlockingIOError:
                break
            except OSError:
                chunk = b""
            if not chunk:
                gone = True  # after the replies it sent before it went
                break
            worker.inbox += chunk
            if len(chunk) < _READ_SIZE:
                break
        inbox = worker.inbox
        replies: list[tuple[bool, Any]] = []
        offset = 0
        while len(inbox) - offset >= _HEADER.size:
            (size,) = _HEADER.unpack_from(inbox, offset)
            end = offset + _HEADER.size + size
            if len(inbox) < end:
                break
            replies.append(_reply(bytes(inbox[offset + _HEADER.size : end])))
            offset = end
        del inbox[:offset]
        # Resolve only now: a Twisted Deferred runs its callbacks at once, and they may submit
        # more work or close the pool.
        for ok, value in replies:
            if not worker.pending:
                break  # closed meanwhile: the remaining waiters were cancelled
            self._resolve(worker.pending.popleft(), ok, value)
        if gone and worker in self._workers:
            self._lost(worker)
        elif not self._closed:
            self._dispatch()

    def _lost(self, worker: _Worker) -> None:
        """A worker's socket closed or failed: the process died (or is dying)."""
        self._unwatch(worker)
        worker.sock.close()
        worker.process.join(0)  # reaps it if it is gone; never waits
        error = BrokenProcessPool(
            f"an extraction worker process stopped (exit code {worker.process.exitcode})"
        )
        pending = list(worker.pending)
        worker.pending.clear()
        self._workers.remove(worker)
        for waiter in pending:
            self._resolve(waiter, False, error)
        if not self._closed:
            self._dispatch()

    # -- processes --

    def _start_worker(self) -> _Worker:
        ours, theirs = socket.socketpair()
        process = self._context.Process(
            target=_serve, args=(theirs, self._function), name="newsspider-extract", daemon=True
        )
        process.start()
        theirs.close()
        ours.setblocking(False)
        worker = _Worker(process, ours)
        self._watch_read(worker)
        return worker

    # -- the event loop: asyncio, or a Twisted reactor --

    def _new_waiter(self) -> Any:
        if self._loop is not None:
            return self._loop.create_future()
        return Deferred()

    def _resolve(self, waiter: Any, ok: bool, value: Any) -> None:
        if self._loop is not None:
            if not waiter.done():
                if ok:
                    waiter.set_result(value)
                else:
                    waiter.set_exception(value)
        elif not waiter.called:
            if ok:
                waiter.callback(value)
            else:
                waiter.errback(value)

    def _watch_read(self, worker: _Worker) -> None:
        if self._loop is not None:
            self._loop.add_reader(worker.sock.fileno(), self._on_readable, worker)
            return
        worker.descriptor = _Descriptor(
            worker.sock.fileno(),
            lambda: self._on_readable(worker),
            lambda: self._flush(worker),
        )
        _reactor().addReader(worker.descriptor)

    def _watch_write(self, worker: _Worker, on: bool) -> None:
        if self._loop is not None:
            if on:
                self._loop.add_writer(worker.sock.fileno(), self._flush, worker)
            else:
                self._loop.remove_writer(worker.sock.fileno())
            return
        if on:
            _reactor().addWriter(worker.descriptor)
        else:
            _reactor().removeWriter(worker.descriptor)

    def _unwatch(self, worker: _Worker) -> None:
        if worker.sock.fileno() < 0:
            return
        if self._loop is not None:
            self._loop.remove_reader(worker.sock.fileno())
            self._loop.remove_writer(worker.sock.fileno())
            return
        if worker.descriptor is not None:
            _reactor().removeReader(worker.descriptor)
            _reactor().removeWriter(worker.descriptor)


def _reactor() -> Any:
    from twisted.internet import reactor

    return reactor


async def _await_future(future: Future[_T]) -> _T:
    """Await a concurrent.futures future on whichever loop Scrapy runs."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:  # a non-asyncio Twisted reactor: coroutines may await Deferreds
        result: _T = await _to_deferred(future)
        return result
    return await asyncio.wrap_future(future)


def _to_deferred(future: Future[_T]) -> Deferred[_T]:
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

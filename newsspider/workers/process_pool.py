"""`ProcessPool`: extraction worker processes fed by the event loop itself.

Each call is pickled onto a socket to a worker and the result read back when the socket is
readable. No thread in the crawler process takes part. `concurrent.futures.ProcessPoolExecutor`
moves every call through a feeder thread and a manager thread woken through a pipe; next to a
busy event-loop thread each of those hand-offs waits for the GIL, and in a crawl that cost the
crawler process more CPU per page than the rest of the glue together (see
docs/crawl-throughput.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import pickle
import signal
import socket
import struct
import traceback
from collections import deque
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from twisted.internet.defer import Deferred

__all__ = ["ProcessPool"]

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


def _serve(sock: socket.socket, warm_up: Callable[[], object] | None) -> None:
    """A worker process: read a call, run it, write the result; until the crawler goes away."""
    # Ctrl-C reaches the whole process group: the crawler handles it (a graceful stop that may
    # still need this worker) and closes the socket when done, which ends this loop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if warm_up is not None:
        with contextlib.suppress(Exception):
            warm_up()  # imports and caches, before the first real page
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
                function, args, kwargs = pickle.loads(payload)
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


class ProcessPool:
    """Worker processes fed from the event-loop thread over socket pairs, without threads.

    A call is a module-level function (pickled by name) with its arguments. `submit` returns
    an awaitable that the loop resolves: an asyncio future on an asyncio loop, else a Twisted
    Deferred. A worker that dies fails the calls it held with
    `BrokenProcessPool` and is replaced.
    """

    def __init__(
        self,
        workers: int,
        context: Any,
        on_restart: Callable[[], None] = lambda: None,
        warm_up: Callable[[], object] | None = None,
    ) -> None:
        self._warm_up = warm_up
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

    def submit(
        self, function: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> Any:
        if self._closed:
            raise BrokenProcessPool("the extraction pool is closed")
        payload = pickle.dumps((function, args, kwargs), pickle.HIGHEST_PROTOCOL)
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
            target=_serve, args=(theirs, self._warm_up), name="newsspider-extract", daemon=True
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

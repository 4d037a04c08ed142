"""A ``redis-server`` with persistence on (``appendonly yes``, as docs/scale-out.md recommends)
that a test can stop and start again on the same port and data directory."""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from support.redis_server import require_redis_server
from support.services import free_port


class PersistentRedis:
    def __init__(self, binary: str, directory: Path) -> None:
        self.binary = binary
        self.directory = directory
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as conn:
                conn.sendall(b"PING\r\n")
                return conn.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def start(self, timeout: float = 15.0) -> None:
        command = [self.binary, "--bind", "127.0.0.1", "--port", str(self.port)]
        command += ["--dir", str(self.directory), "--appendonly", "yes", "--save", ""]
        command += ["--daemonize", "no", "--loglevel", "warning"]
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + timeout
        while not self._answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        """A clean shutdown (SIGTERM: Redis writes its append-only file and exits)."""
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None


@contextmanager
def persistent_redis(directory: Path) -> Iterator[PersistentRedis]:
    server = PersistentRedis(require_redis_server(), directory)
    server.start()
    try:
        yield server
    finally:
        server.stop()

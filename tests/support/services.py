"""Start a throwaway local service (redis-server, Scrapyd...) on 127.0.0.1 for tests.

One start-and-wait shape for every service: start the process, poll until it answers, fail with
the tail of its stderr when it dies or does not answer in time, and always stop it.
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn

import pytest


def missing_service(reason: str) -> NoReturn:
    """Skip a test whose service is not installed, with ``reason``; under ``CI=true`` fail
    instead: CI installs every service, so a skip there would hide a broken setup."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}; CI must run these tests")
    pytest.skip(reason)


def free_port() -> int:
    """A port on 127.0.0.1 nobody listens on right now (the service binds it just after)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def running_service(
    name: str,
    command: Sequence[str],
    ready: Callable[[], bool],
    *,
    timeout: float,
    poll: float,
    cwd: Path | None = None,
) -> Iterator[subprocess.Popen[bytes]]:
    """Run ``command`` until the block ends; enter the block once ``ready()`` is true.

    ``ready`` may raise `OSError` while the service is still starting (connection refused).
    A service that exits, or is not ready within ``timeout`` seconds, raises `RuntimeError`.
    """
    process = subprocess.Popen(
        list(command), cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                if ready():
                    break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                error = process.stderr.read().decode(errors="replace") if process.stderr else ""
                raise RuntimeError(f"{name} did not start: {error[-2000:]}")
            time.sleep(poll)
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

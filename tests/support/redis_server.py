"""A throwaway ``redis-server`` on 127.0.0.1 (a free port, no persistence) for tests.

Without the binary the tests that need it skip with the reason, except under ``CI=true``,
where a missing server is a failure (CI installs the Debian package ``redis-server``).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

MISSING = "redis-server is not installed (Debian: apt-get install redis-server)"


def require_redis_server() -> str:
    binary = shutil.which("redis-server")
    if binary is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{MISSING}; CI must run these tests")
        pytest.skip(MISSING)
    return binary


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def redis_server(timeout: float = 10.0) -> Iterator[str]:
    """Start ``redis-server``, yield its URL, stop it."""
    binary = require_redis_server()
    port = _free_port()
    # Persistence off: a test server keeps nothing.
    options = ["--save", "", "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning"]
    process = subprocess.Popen(
        [binary, "--bind", "127.0.0.1", "--port", str(port), *options],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as conn:
                    conn.sendall(b"PING\r\n")
                    if conn.recv(16).startswith(b"+PONG"):
                        break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                error = process.stderr.read().decode(errors="replace") if process.stderr else ""
                raise RuntimeError(f"redis-server did not start: {error[-2000:]}")
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

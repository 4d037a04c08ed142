"""A throwaway ``redis-server`` on 127.0.0.1 (a free port, no persistence) for tests.

Without the binary the tests that need it skip with the reason, except under ``CI=true``,
where a missing server is a failure (CI installs the Debian package ``redis-server``).
"""

from __future__ import annotations

import shutil
import socket
from collections.abc import Iterator
from contextlib import contextmanager

from support.services import free_port, missing_service, running_service

MISSING = "redis-server is not installed (Debian: apt-get install redis-server)"


def require_redis_server() -> str:
    binary = shutil.which("redis-server")
    if binary is None:
        missing_service(MISSING)
    return binary


@contextmanager
def redis_server(timeout: float = 10.0) -> Iterator[str]:
    """Start ``redis-server``, yield its URL, stop it."""
    binary = require_redis_server()
    port = free_port()
    # Persistence off: a test server keeps nothing.
    options = ["--save", "", "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning"]

    def answers_ping() -> bool:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")

    command = [binary, "--bind", "127.0.0.1", "--port", str(port), *options]
    with running_service("redis-server", command, answers_ping, timeout=timeout, poll=0.05):
        yield f"redis://127.0.0.1:{port}/0"

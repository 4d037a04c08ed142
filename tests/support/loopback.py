"""The crawl benchmarks' site server: a minimal keep-alive HTTP/1.1 server on 127.0.0.1.

It stands in for remote sites, so it should take as little as possible of the CPUs the crawler
shares: responses are whole byte strings (headers and body) looked up by path, served by asyncio
on a thread of the benchmark's process, which does nothing else while a crawl runs. GETs only.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

HTML = b"text/html; charset=utf-8"


def http_response(body: bytes, status: bytes = b"200 OK", content_type: bytes = HTML) -> bytes:
    """A whole HTTP/1.1 response, ready to be written as it is."""
    head = b"HTTP/1.1 " + status + b"\r\nContent-Type: " + content_type + b"\r\n"
    return head + b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body


@contextmanager
def serve_responses(answer: Callable[[bytes], bytes]) -> Iterator[str]:
    """Serve ``answer(path)`` (a whole response, see `http_response`) for every GET, from a
    thread; yield the site's URL (``http://127.0.0.1:PORT``)."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                request = await reader.readuntil(b"\r\n\r\n")  # GETs only: no request body
                writer.write(answer(request.split(b" ", 2)[1]))
                await writer.drain()
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            pass
        finally:
            writer.close()

    loop = asyncio.new_event_loop()
    server = loop.run_until_complete(asyncio.start_server(handle, "127.0.0.1", 0))
    thread = threading.Thread(target=loop.run_forever, name="bench-site", daemon=True)
    thread.start()
    try:
        host, port = server.sockets[0].getsockname()[:2]
        yield f"http://{host}:{port}"
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join()
        server.close()
        loop.run_until_complete(server.wait_closed())
        loop.close()

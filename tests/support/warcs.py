"""WARC files for tests, written with warcio's writer from pages the tests build themselves."""

from __future__ import annotations

import gzip
from collections.abc import Iterable
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter


@dataclass(frozen=True)
class Response:
    url: str
    body: bytes
    content_type: str | None = "text/html; charset=utf-8"
    status: str = "200 OK"
    gzip: bool = False


def write_warc(path: Path, responses: Iterable[Response], *, with_requests: bool = True) -> Path:
    """A gzipped WARC: a warcinfo record, then per response a request record (optional) and
    the response record, as crawlers write them."""
    with open(path, "wb") as stream:
        writer = WARCWriter(stream, gzip=True)
        writer.write_record(writer.create_warcinfo_record(path.name, {"software": "tests"}))
        for response in responses:
            if with_requests:
                request = StatusAndHeaders(
                    "GET / HTTP/1.1", [("Host", "example")], is_http_request=True
                )
                writer.write_record(
                    writer.create_warc_record(response.url, "request", http_headers=request)
                )
            headers = []
            if response.content_type:
                headers.append(("Content-Type", response.content_type))
            body = response.body
            if response.gzip:
                body = gzip.compress(body)
                headers.append(("Content-Encoding", "gzip"))
            headers.append(("Content-Length", str(len(body))))
            http = StatusAndHeaders(response.status, headers, protocol="HTTP/1.1")
            writer.write_record(
                writer.create_warc_record(
                    response.url, "response", payload=BytesIO(body), http_headers=http
                )
            )
    return path

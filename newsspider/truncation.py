"""Responses that ended early: Scrapy's ``dataloss`` flag, and compressed bodies cut short.

Scrapy marks a body shorter than its Content-Length with the ``dataloss`` flag when
``DOWNLOAD_FAIL_ON_DATALOSS`` is off (by default it fails the request instead). It does not mark
a compressed body whose stream stops early: its decompression keeps what the stream holds (as
browsers do), and a gzip page cut in half then extracts as half an article at full confidence.
`TruncationMiddleware` checks the compressed stream before Scrapy's HttpCompressionMiddleware
decodes it and adds the ``truncated`` flag. `response_warnings` turns either flag into the
``response-truncated`` warning that `ArticlePipeline` carries into the item, capping its
confidence at ``NEWSSPIDER_TRUNCATED_MAX_CONFIDENCE``.

Scrapy's ``partial`` flag (no Content-Length, the body ended when the connection closed) is not
evidence of truncation: many servers answer that way.
"""

from __future__ import annotations

import zlib
from typing import Any, Final, Self

from newsspider.settings_defaults import META_JUDGE

__all__ = ["TRUNCATED_FLAG", "TRUNCATED_WARNING", "TruncationMiddleware", "response_warnings"]

#: Added to ``response.flags`` by `TruncationMiddleware`.
TRUNCATED_FLAG: Final = "truncated"
#: The item warning of a truncated response.
TRUNCATED_WARNING: Final = "response-truncated"
_TRUNCATION_FLAGS: Final = frozenset({"dataloss", TRUNCATED_FLAG})
_CHUNK: Final = 1 << 16


def response_warnings(response: Any) -> list[str]:
    """The fetch warnings of a response (reads ``response.flags`` only)."""
    flags = getattr(response, "flags", None) or ()
    return [TRUNCATED_WARNING] if _TRUNCATION_FLAGS.intersection(flags) else []


def stream_is_complete(body: bytes, encoding: bytes, max_size: int = 0) -> bool | None:
    """Whether a gzip or deflate body holds its whole stream (up to its end marker); None when
    unknown (another encoding, or more than ``max_size`` bytes of output, which Scrapy refuses
    anyway). Corrupt data counts as incomplete. Linear time, output discarded chunk by chunk."""
    if encoding in (b"gzip", b"x-gzip"):
        decompressor = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
    elif encoding == b"deflate":
        decompressor = zlib.decompressobj()
        try:
            decompressor.decompress(body[:2])
        except zlib.error:  # raw deflate, as some servers send it (Scrapy accepts both)
            decompressor = zlib.decompressobj(wbits=-zlib.MAX_WBITS)
        else:
            decompressor = zlib.decompressobj()
    else:
        return None
    data = body
    produced = 0
    try:
        while data and not decompressor.eof:
            produced += len(decompressor.decompress(data, _CHUNK))
            if max_size and produced > max_size:
                return None
            data = decompressor.unconsumed_tail
    except zlib.error:
        return False
    return decompressor.eof


class TruncationMiddleware:
    """Downloader middleware: flags compressed responses whose stream was cut short.

    Sits just outside HttpCompressionMiddleware (595 > 590: its ``process_response`` runs
    first, on the still-compressed body). Only responses the content filter may judge (not the
    bundled spiders' feeds and sitemaps, which keep what a cut stream holds) are checked: the
    check decompresses once more, on the event-loop thread.
    """

    def __init__(self, max_size: int) -> None:
        self.max_size = max_size

    @classmethod
    def from_crawler(cls, crawler: Any) -> Self:
        return cls(crawler.settings.getint("DOWNLOAD_MAXSIZE"))

    def process_response(self, request: Any, response: Any) -> Any:
        if request.meta.get(META_JUDGE) is False or request.method == "HEAD":
            return response
        encodings = response.headers.getlist(b"Content-Encoding")
        if len(encodings) != 1 or b"," in encodings[0]:
            return response  # none, or layered encodings: not checked
        encoding = encodings[0].strip().lower()
        max_size = request.meta.get("download_maxsize", self.max_size)
        if stream_is_complete(response.body, encoding, max_size) is False:
            response.flags.append(TRUNCATED_FLAG)
        return response

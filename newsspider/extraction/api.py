"""The public entry point `extract`: one page in, one `Article` out, never an exception."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from newsspider.extraction.article import Article
from newsspider.extraction.assembly import body_text, select_body
from newsspider.extraction.cleaning import clean_tree
from newsspider.extraction.decoding import decode_html
from newsspider.extraction.parsing import parse_html
from newsspider.extraction.scoring import choose_container
from newsspider.extraction.segments import segment_page

ALGORITHMS: tuple[str, ...] = ("default",)


def extract(
    html: bytes | str,
    url: str | None = None,
    encoding: str | None = None,
    *,
    reference_time: datetime | None = None,
    hints: Mapping[str, Any] | None = None,
    algorithm: str = "default",
    max_bytes: int | None = None,
) -> Article:
    """Extract the article from one page. Never raises on any input.

    html: the page, raw bytes (decoded as a browser would) or already-decoded text.
    url: where the page came from; used to resolve links and as date evidence.
    encoding: the encoding the caller knows (HTTP header), tried after a BOM.
    reference_time: "now" for relative dates ("3 hours ago"); without it they are ignored.
    hints: metadata from elsewhere (a feed entry, a sitemap): ``title``, ``date``, ``authors``.
    algorithm: one of `ALGORITHMS`.
    max_bytes: parse at most this many bytes of the page.
    """
    if isinstance(html, bytes):
        decoded = decode_html(html, encoding)
        source: str | bytes = decoded.utf8 if decoded.utf8 is not None else decoded.text
        used_encoding: str | None = decoded.encoding
    else:
        source, used_encoding = html, None
    root = parse_html(source)
    if root is None:
        return Article(url=url, encoding=used_encoding, page_type="empty")
    clean_tree(root)
    page = segment_page(root)
    choice = choose_container(page)
    if choice is None:
        return Article(url=url, encoding=used_encoding, page_type="empty")
    selection = select_body(page, choice)
    return Article(url=url, body=body_text(page, selection), encoding=used_encoding)

"""Reading WARC archives with FastWARC: the HTML 2xx responses as `WarcPage`s, and the
article records extracted from them (`iter_articles`, the library call).

Scrapy-free. FastWARC (resiliparse) iterates records several times faster than warcio and
decodes HTTP content and transfer encodings itself, so no WARC parsing is written here.
"""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Final

from fastwarc.warc import ArchiveIterator, WarcRecord, WarcRecordType

from newsspider.extraction.api import extract
from newsspider.extraction.page_judgement import usable_encoding
from newsspider.items import ArticleItem

__all__ = ["SKIP_REASONS", "WarcArticleItem", "WarcPage", "iter_articles", "iter_pages"]

#: Content types kept; a response without one is kept when its start looks like HTML.
HTML_TYPES: Final = frozenset({"text/html", "application/xhtml+xml"})
#: Why a response record is not extracted (a bounded set: counters are keyed by it).
SKIP_REASONS: Final = ("not_2xx", "not_html", "unreadable", "low_confidence", "error")
_SNIFF_BYTES = 1024
_GZIP_MAGIC = b"\x1f\x8b"
_TAIL_CHUNK = 1 << 16


@dataclass(frozen=True, slots=True)
class WarcPage:
    """One HTML 2xx response of an archive."""

    url: str
    body: bytes
    #: The HTTP header's charset, when it names an encoding the body decodes with.
    encoding: str | None
    status: int
    record_id: str
    #: WARC-Date (when the page was fetched), ISO 8601, or None when the record has none.
    date: str | None
    file: str
    #: Byte offset of the record in the (compressed) file: seek there to read it again.
    offset: int


@dataclass(slots=True)
class WarcArticleItem(ArticleItem):
    """The record a crawl writes (`ArticleItem`), plus where in which archive it came from."""

    #: WARC-Record-ID of the response record.
    warc_record_id: str = ""
    #: WARC-Date of the response record (ISO 8601).
    warc_date: str | None = None
    #: The WARC file, as given.
    warc_file: str = ""
    #: Byte offset of the record in the WARC file (compressed stream position).
    warc_offset: int = 0


def iter_pages(
    path: str | Path,
    *,
    shard: int = 0,
    shards: int = 1,
    skipped: Counter[str] | None = None,
) -> Iterator[WarcPage]:
    """The HTML 2xx response records of one WARC file (gzip, zstd or plain), in file order.

    ``shard``/``shards`` select every ``shards``-th response record, starting at ``shard``, so
    that several processes can share one file; the others are skipped without being parsed.
    Skipped responses are counted in ``skipped`` by reason (`SKIP_REASONS`). A file that cannot
    be opened or breaks off (truncated, corrupt) raises `OSError` after the records before the
    break have been yielded.
    """
    name = str(path)
    last_offset = 0
    with open(path, "rb") as stream:
        records = ArchiveIterator(stream, record_types=WarcRecordType.response, parse_http=False)
        for index, record in enumerate(records):
            last_offset = record.stream_pos
            if index % shards != shard:
                continue
            page = _page(record, name, skipped)
            if page is not None:
                yield page
    if shard == 0:  # one check per file is enough
        _check_gzip_tail(path, last_offset)


def _check_gzip_tail(path: str | Path, offset: int) -> None:
    """Raise `OSError` when a gzipped WARC breaks off after ``offset``.

    FastWARC ends the iteration quietly at a cut or corrupt gzip member; without this check a
    truncated download would pass for a complete file. Only the members from the last record
    read to the end are decompressed (output discarded, in bounded steps).
    """
    with open(path, "rb") as stream:
        if stream.read(2) != _GZIP_MAGIC:
            return  # plain or zstd: FastWARC's own parsing is all we have
        stream.seek(offset)
        member = zlib.decompressobj(wbits=31)
        pending = b""
        while True:
            if not pending:
                # Small reads bound each call's output (no max_length: with it, a member end
                # that coincides with the output limit is misread).
                pending = stream.read(_TAIL_CHUNK)
                if not pending:
                    break
            try:
                member.decompress(pending)
            except zlib.error as exc:
                raise OSError(f"corrupt gzip data after offset {offset}: {exc}") from None
            pending = b""
            if member.eof:
                pending = member.unused_data
                member = zlib.decompressobj(wbits=31)
                if not pending:
                    pending = stream.read(_TAIL_CHUNK)
                    if not pending:
                        return  # ended exactly at a member's end
    raise OSError(f"the file ends in the middle of a record after offset {offset} (truncated?)")


def _page(record: WarcRecord, name: str, skipped: Counter[str] | None) -> WarcPage | None:
    reason = None
    try:
        record.parse_http(auto_decode="all")
        headers = record.http_headers
        status = (headers.status_code if headers is not None else None) or 0
        if not 200 <= status < 300:
            reason = "not_2xx"
        else:
            content_type = (record.http_content_type or "").lower()
            body = record.reader.read()
            if content_type not in HTML_TYPES and (content_type or not _looks_like_html(body)):
                reason = "not_html"
    except (OSError, ValueError):  # broken HTTP headers or encodings in this record only
        reason = "unreadable"
    if reason is not None:
        if skipped is not None:
            skipped[reason] += 1
        return None
    date: datetime | None = record.record_date
    return WarcPage(
        url=record.headers.get("WARC-Target-URI") or "",
        body=body,
        encoding=usable_encoding(body, record.http_charset),
        status=status,
        record_id=record.record_id or "",
        date=date.isoformat() if date is not None else None,
        file=name,
        offset=record.stream_pos,
    )


def _looks_like_html(body: bytes) -> bool:
    head = body[:_SNIFF_BYTES].lstrip().lower()
    return head.startswith((b"<!doctype html", b"<html")) or b"<body" in head


def extract_page(
    page: WarcPage, *, algorithm: str = "default", relative_dates: bool = True
) -> WarcArticleItem:
    """The article record of one page, as the crawl pipeline builds it (WARC-Date is the fetch
    time and the reference for relative dates)."""
    reference = datetime.fromisoformat(page.date) if relative_dates and page.date else None
    article = extract(
        page.body, page.url, page.encoding, reference_time=reference, algorithm=algorithm
    )
    base = ArticleItem.from_article(article)
    item = WarcArticleItem(
        **{name: getattr(base, name) for name in ArticleItem.__dataclass_fields__},
        warc_record_id=page.record_id,
        warc_date=page.date,
        warc_file=page.file,
        warc_offset=page.offset,
    )
    item.fetched_at = page.date
    if item.url is None:
        item.url = page.url
    return item


def iter_articles(
    path: str | Path,
    *,
    min_confidence: float = 0.0,
    algorithm: str = "default",
    skipped: Counter[str] | None = None,
) -> Iterator[WarcArticleItem]:
    """The article records of one WARC file, one per HTML 2xx response at or above
    ``min_confidence`` (for notebooks, Spark or Dask: ``dataclasses.asdict`` gives a dict).

    Per-record failures never stop the iteration: they are counted in ``skipped``.
    """
    for page in iter_pages(path, skipped=skipped):
        try:
            item = extract_page(page, algorithm=algorithm)
        except Exception:  # extract() promises not to raise; a bug must not end the batch
            if skipped is not None:
                skipped["error"] += 1
            continue
        if item.confidence < min_confidence:
            if skipped is not None:
                skipped["low_confidence"] += 1
            continue
        yield item

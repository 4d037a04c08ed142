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
from typing import BinaryIO, Final

from fastwarc.warc import ArchiveIterator, WarcRecord, WarcRecordType

from newsspider.extraction.api import extract
from newsspider.extraction.parse.decoding import usable_encoding
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

    ``shard``/``shards`` split the file between processes. A gzipped WARC (one gzip member per
    record, as WARC writers do) is split by byte ranges cut at member starts, so each process
    decompresses only its own part; other files are split by taking every ``shards``-th
    response record. Skipped responses are counted in ``skipped`` by reason (`SKIP_REASONS`). A
    file that cannot be opened or breaks off (truncated, corrupt) raises `OSError` after the
    records before the break have been yielded.
    """
    name = str(path)
    with open(path, "rb") as stream:
        gzipped = stream.read(2) == _GZIP_MAGIC
        size = stream.seek(0, 2)
    if shards > 1 and gzipped:
        yield from _byte_range_pages(name, shard, shards, size, skipped)
        return
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


def _byte_range_pages(
    name: str, shard: int, shards: int, size: int, skipped: Counter[str] | None
) -> Iterator[WarcPage]:
    """The records whose gzip member starts in this shard's share of the file's bytes.

    Shard ``i`` owns the members starting in ``[start(i), start(i + 1))``, where ``start``
    finds the first member at or after ``i * size // shards``: the same function draws both
    ends, so every record belongs to exactly one shard. A file written as one big gzip member
    has no inner starts: shard 0 reads all of it. Only the shard whose range reaches the end of
    the file checks it for truncation.
    """
    with open(name, "rb") as stream:
        begin = 0 if shard == 0 else _member_start(stream, shard * size // shards, size)
        end = (
            size
            if shard == shards - 1
            else _member_start(stream, (shard + 1) * size // shards, size)
        )
        if begin >= end:
            return
        stream.seek(begin)
        last_offset = begin
        records = ArchiveIterator(stream, record_types=WarcRecordType.response, parse_http=False)
        for record in records:
            # (No cut for the shard that reads to the end: inside a one-member file FastWARC's
            # positions are not member starts and may run past ``end``.)
            if end < size and record.stream_pos >= end:
                break
            last_offset = record.stream_pos
            page = _page(record, name, skipped)
            if page is not None:
                yield page
    if end >= size:
        _check_gzip_tail(name, last_offset)


#: How far a member start is searched for in one read.
_SCAN_CHUNK = 1 << 20


def _member_start(stream: BinaryIO, offset: int, size: int) -> int:
    """The first gzip member at or after ``offset`` that holds a WARC record (``size`` if none).

    A candidate is the gzip magic with the deflate method byte; it counts only when its first
    bytes decompress to a WARC header, so compressed data that happens to contain the magic is
    skipped."""
    position = offset
    while position < size:
        stream.seek(position)
        chunk = stream.read(_SCAN_CHUNK + 2)
        found = chunk.find(_GZIP_MAGIC + b"\x08")
        while found != -1:
            if _is_warc_member(stream, position + found):
                return position + found
            found = chunk.find(_GZIP_MAGIC + b"\x08", found + 1)
        position += _SCAN_CHUNK
    return size


def _is_warc_member(stream: BinaryIO, offset: int) -> bool:
    stream.seek(offset)
    try:
        head = zlib.decompressobj(wbits=31).decompress(stream.read(4096), 16)
    except zlib.error:
        return False
    return head.startswith(b"WARC/")


def _check_gzip_tail(path: str | Path, offset: int) -> None:
    """Raise `OSError` when a gzipped WARC breaks off after ``offset``.

    FastWARC ends the iteration quietly at a cut or corrupt gzip member; without this check a
    truncated download would pass for a complete file. Only the members from the last record
    read to the end are decompressed (output discarded, in bounded steps).
    """
    with open(path, "rb") as stream:
        if stream.read(2) != _GZIP_MAGIC:
            return  # plain or zstd: FastWARC's own parsing is all we have
        if offset and not _is_warc_member(stream, offset):
            # A WARC compressed as one gzip member: a record's position is no member start,
            # so the whole member is checked.
            offset = 0
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
    page: WarcPage,
    *,
    algorithm: str = "default",
    relative_dates: bool = True,
    markdown: bool = False,
) -> WarcArticleItem:
    """The article record of one page, as the crawl pipeline builds it (WARC-Date is the fetch
    time and the reference for relative dates; ``markdown``: fill `ArticleItem.markdown`)."""
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
    if markdown and article.body_html:
        item.markdown = article.markdown
    if item.url is None:
        item.url = page.url
    return item


def iter_articles(
    path: str | Path,
    *,
    min_confidence: float = 0.0,
    algorithm: str = "default",
    skipped: Counter[str] | None = None,
    markdown: bool = False,
) -> Iterator[WarcArticleItem]:
    """The article records of one WARC file, one per HTML 2xx response at or above
    ``min_confidence`` (for notebooks, Spark or Dask: ``dataclasses.asdict`` gives a dict).

    Per-record failures never stop the iteration: they are counted in ``skipped``.
    """
    for page in iter_pages(path, skipped=skipped):
        try:
            item = extract_page(page, algorithm=algorithm, markdown=markdown)
        except Exception:  # extract() promises not to raise; a bug must not end the batch
            if skipped is not None:
                skipped["error"] += 1
            continue
        if item.confidence < min_confidence:
            if skipped is not None:
                skipped["low_confidence"] += 1
            continue
        yield item

"""Parsing and checking of the ``-a name=value`` arguments shared by the bundled spiders.

Everything here raises `SpiderArgumentError` with a message meant for the person at the shell.
"""

from __future__ import annotations

import logging
import re
from datetime import date
from pathlib import Path
from urllib.parse import urlsplit


class SpiderArgumentError(ValueError):
    """A spider argument is missing or malformed; the message says which and how to fix it."""

    #: Set once the one-line error was logged: the traceback then adds nothing for the user.
    reported: bool = False


class _ReportedArgumentErrors(logging.Filter):
    """Drops the traceback of an already reported `SpiderArgumentError`.

    A spider that cannot be created fails Scrapy's crawl task: ``scrapy crawl`` then exits with
    status 1 (what schedulers need), and asyncio ("Task exception was never retrieved") or
    Twisted ("Unhandled error in Deferred") log the exception with its traceback. For a bad
    ``-a`` value that traceback is noise after the one line that says what to fix.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.ERROR:
            return True
        if record.exc_info and isinstance(record.exc_info[1], SpiderArgumentError):
            return not record.exc_info[1].reported
        # Twisted's records carry the traceback as text.
        return f"{SpiderArgumentError.__name__}: " not in record.getMessage()


_FILTER = _ReportedArgumentErrors()


def hide_reported_tracebacks() -> None:
    """Install the filter on the loggers that report a failed crawl start (idempotent)."""
    for name in ("asyncio", "twisted"):
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)


def parse_urls(url: str | None, urls_file: str | None) -> list[str]:
    """Start URLs from ``url`` (one, or comma-separated) and/or ``urls_file`` (one per line).

    Blank lines and ``#`` comments in the file are skipped; duplicates are dropped, order kept.
    """
    candidates: list[str] = []
    if url:
        candidates.extend(part.strip() for part in url.split(","))
    if urls_file:
        path = Path(urls_file)
        try:
            text = path.read_text(encoding="utf-8-sig")
        except OSError as exc:
            raise SpiderArgumentError(
                f"cannot read urls_file {urls_file!r}: {exc.strerror or exc}"
            ) from None
        except UnicodeDecodeError:
            raise SpiderArgumentError(f"urls_file {urls_file!r} is not UTF-8 text") from None
        for raw in text.splitlines():
            line = raw.strip()
            if line and not line.startswith("#"):
                candidates.append(line)
    urls: list[str] = []
    for candidate in candidates:
        if not candidate:
            continue
        checked = check_url(candidate)
        if checked not in urls:
            urls.append(checked)
    if not urls:
        raise SpiderArgumentError(
            "no start URL given: pass -a url=https://example.com/ (several: comma-separated) "
            "or -a urls_file=PATH (one URL per line)"
        )
    return urls


def check_url(url: str) -> str:
    """Return ``url`` if it is an absolute http(s) URL with a host, else raise."""
    try:
        parts = urlsplit(url)
        port_ok = parts.port is None or parts.port > 0
    except ValueError:
        port_ok = False
        parts = None
    if parts is None or not port_ok or parts.scheme not in ("http", "https") or not parts.hostname:
        raise SpiderArgumentError(
            f"not an absolute http(s) URL: {url!r} (expected e.g. https://example.com/news/)"
        )
    return url


def parse_since(value: str | None) -> date | None:
    """``since=YYYY-MM-DD`` as a date; None when not given."""
    if value is None or not value.strip():
        return None
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        raise SpiderArgumentError(
            f"since must be a date as YYYY-MM-DD, got {value!r} (e.g. -a since=2026-03-01)"
        ) from None


def parse_limit(name: str, value: str | int | None, default: int) -> int:
    """A non-negative integer limit such as ``max_depth=3``; ``default`` when not given."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return default
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise SpiderArgumentError(f"{name} must be a whole number, got {value!r}") from None
    if number < 0:
        raise SpiderArgumentError(f"{name} must not be negative, got {number}")
    return number


def parse_pattern(name: str, value: str | None) -> re.Pattern[str] | None:
    """A URL regular expression such as ``article_allow=/story/\\d+``; None when not given."""
    if value is None or not value.strip():
        return None
    try:
        return re.compile(value.strip())
    except re.error as exc:
        raise SpiderArgumentError(
            f"{name} is not a valid regular expression: {value!r} ({exc})"
        ) from None

"""Dates as feeds and sitemaps write them (RFC 822, W3C datetime), normalised to ISO 8601."""

from __future__ import annotations

import re
from datetime import date, datetime
from email.utils import parsedate_to_datetime
from urllib.parse import urlsplit

_W3C = re.compile(
    r"^\s*(\d{4})-(\d{2})(?:-(\d{2}))?"
    r"(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?\s*$",
    re.IGNORECASE,
)
_DATE_IN_PATH = re.compile(
    r"(?<!\d)((?:19|20)\d{2})[/_-]?(0[1-9]|1[0-2])[/_-]?(0[1-9]|[12]\d|3[01])(?!\d)"
)


def normalize_date(text: str | None) -> str | None:
    """``YYYY-MM-DD`` or a full ISO datetime (offset kept) from a feed/sitemap date; None if bad."""
    if not text or not text.strip():
        return None
    match = _W3C.match(text)
    if match:
        year, month, day, hour, minute, second, zone = match.groups()
        try:
            if hour is None:
                return date(int(year), int(month), int(day or 1)).isoformat()
            parsed = datetime.fromisoformat(
                f"{year}-{month}-{day or '01'}T{hour}:{minute}:{second or '00'}" + _iso_zone(zone)
            )
        except ValueError:
            return None
        return parsed.isoformat()
    try:
        # RSS 2.0 pubDate, e.g. "Thu, 05 Mar 2026 09:30:00 +0000".
        return parsedate_to_datetime(text.strip()).isoformat()
    except (TypeError, ValueError, IndexError):
        return None


def _iso_zone(zone: str | None) -> str:
    if not zone:
        return ""
    if zone.upper() == "Z":
        return "+00:00"
    return zone if ":" in zone else f"{zone[:3]}:{zone[3:]}"


def date_part(iso: str | None) -> date | None:
    """The calendar date of an ISO date/datetime string (as written, no zone conversion)."""
    if not iso or len(iso) < 10:
        return None
    try:
        return date.fromisoformat(iso[:10])
    except ValueError:
        return None


def is_older(iso: str | None, since: date | None) -> bool:
    """True only when the date is known and falls before ``since``; unknown dates are kept."""
    if since is None:
        return False
    day = date_part(iso)
    return day is not None and day < since


def date_in_url(url: str) -> date | None:
    """A publication date spelled in the URL path (``/2026/03/05/``, ``/20260305/``), if any."""
    match = _DATE_IN_PATH.search(urlsplit(url).path)
    if not match:
        return None
    try:
        return date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    except ValueError:
        return None

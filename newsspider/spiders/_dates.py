"""Dates as feeds and sitemaps write them (RFC 822, W3C datetime), normalised to ISO 8601.

Feeds written on a server with a non-English locale spell RFC 822 dates with local day and
month names ("Do, 05 Mär 2026 09:30:00 +0100", "jeu., 05 mars 2026", "5 марта 2026 09:30");
`normalize_date` reads those for the languages in `_MONTHS` too (the core's month names).
"""

from __future__ import annotations

import re
from datetime import date, datetime
from email.utils import parsedate_to_datetime
from urllib.parse import urlsplit

from newsspider.extraction.metadata.date_parsing import MONTH_BY_NAME

_W3C = re.compile(
    r"^\s*(\d{4})-(\d{2})(?:-(\d{2}))?"
    r"(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?\s*$",
    re.IGNORECASE,
)
# Month names -> month number: the core's table (every language page dates are read in), and
# the three-letter Polish and Dutch abbreviations feeds written with those locales use
# ("05 paź 2026", "5 mrt 2026"), which in page text would read ordinary words as months.
_FEED_ABBREVIATIONS = {
    "sty": 1, "lut": 2, "mrt": 3, "kwi": 4, "cze": 6, "lip": 7, "sie": 8, "wrz": 9, "paź": 10,
    "lis": 11, "gru": 12,
}  # fmt: skip
_MONTHS = {**MONTH_BY_NAME, **_FEED_ABBREVIATIONS}
_EN_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
# "[weekday,] 05[.] Mär[.] 2026[,] [09:30[:00]] [+0100|GMT|CET]": every part bounded, no
# nested repetition (linear time), and the input is cut to `_MAX_DATE_CHARS` first anyway.
_LOCALISED = re.compile(
    r"^(?:[^\W\d_]{1,15}\.?,?\s+)?(\d{1,2})\.?\s+([^\W\d_]{3,12})\.?,?\s+(\d{4}),?"
    r"(?:\s+(?:[^\W\d_]{1,3}\s+)?(\d{1,2}):(\d{2})(?::(\d{2}))?)?"
    r"(?:\s*([+-]\d{2}:?\d{2}|[A-Za-z]{1,5}))?\s*$"
)
_MAX_DATE_CHARS = 80
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
    except (TypeError, ValueError, IndexError, OverflowError):
        # OverflowError: a day or year past a C long ("Mon, 99999999999999999999 May 2024").
        return _localised_date(text)


def _localised_date(text: str) -> str | None:
    """An RFC 822-like date with day and month names in another language, else None."""
    match = _LOCALISED.match(text.strip()[:_MAX_DATE_CHARS])
    if not match:
        return None
    day, month_name, year, hour, minute, second, zone = match.groups()
    month = _MONTHS.get(month_name.lower())
    if month is None:
        return None
    if hour is None:
        try:
            return date(int(year), month, int(day)).isoformat()
        except ValueError:
            return None
    english = f"{day} {_EN_MONTHS[month - 1]} {year} {hour}:{minute}:{second or '00'}"
    if zone:
        english += " " + zone.replace(":", "")
    try:
        return parsedate_to_datetime(english).isoformat()
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

"""Date strings to dates: machine formats, text in many languages, relative dates, URLs.

Everything here is regex based and self-contained (no dateparser/htmldate at run time). Dates
come out as ISO 8601 strings: ``YYYY-MM-DD`` when only the day is known, otherwise
``YYYY-MM-DDTHH:MM:SS`` with ``+HH:MM`` when the source states an offset. Where a page's dates
are found, and which one is the publication date, is `dates`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Final
from urllib.parse import unquote

from newsspider.extraction.common.caching import short_key_cache
from newsspider.extraction.common.urls import split_url

#: Nothing on the web we care about was published before this year.
MIN_YEAR: Final = 1995

# --- month names ------------------------------------------------------------------------------

_MONTHS: Final[dict[int, tuple[str, ...]]] = {
    1: ("january", "jan", "januar", "jänner", "janvier", "janv", "enero", "ene", "janeiro",
        "gennaio", "gen", "januari", "января", "январь", "янв", "січня", "січень", "stycznia",
        "styczeń", "styczen", "ocak", "leden", "ledna", "tammikuuta", "januára"),
    2: ("february", "feb", "februar", "feber", "février", "fevrier", "févr", "fevr", "fév",
        "febrero", "fevereiro", "fev", "febbraio", "februari", "февраля", "февраль", "фев",
        "лютого", "лютий", "lutego", "luty", "şubat", "subat", "únor", "února", "februára"),
    3: ("march", "mar", "märz", "maerz", "mär", "mars", "marzo", "março", "marco", "maart",
        "марта", "март", "мар", "березня", "березень", "marca", "marzec", "mart", "březen",
        "března", "marec"),
    4: ("april", "apr", "avril", "avr", "abril", "abr", "aprile", "апреля", "апрель", "апр",
        "квітня", "квітень", "kwietnia", "kwiecień", "nisan", "duben", "dubna", "apríl"),
    5: ("may", "mai", "mayo", "maio", "maggio", "mag", "mei", "мая", "май", "травня",
        "травень", "maja", "maj", "mayıs", "mayis", "květen", "května", "máj", "mája"),
    6: ("june", "jun", "juni", "juin", "junio", "junho", "giugno", "giu", "июня", "июнь",
        "июн", "червня", "червень", "czerwca", "czerwiec", "haziran", "červen", "června",
        "jún", "júna"),
    7: ("july", "jul", "juli", "juillet", "juil", "julio", "julho", "luglio", "lug", "июля",
        "июль", "июл", "липня", "липень", "lipca", "lipiec", "temmuz", "červenec", "července",
        "júl", "júla"),
    8: ("august", "aug", "août", "aout", "agosto", "ago", "augustus", "августа", "август",
        "авг", "серпня", "серпень", "sierpnia", "sierpień", "ağustos", "agustos", "srpen",
        "srpna", "augusta"),
    9: ("september", "sep", "sept", "septembre", "septiembre", "setiembre", "setembro", "set",
        "settembre", "сентября", "сентябрь", "сен", "сент", "вересня", "вересень", "września",
        "wrzesień", "eylül", "eylul", "září", "septembra"),
    10: ("october", "oct", "oktober", "okt", "octobre", "octubre", "outubro", "out", "ottobre",
         "ott", "октября", "октябрь", "окт", "жовтня", "жовтень", "października", "październik",
         "ekim", "říjen", "října", "októbra"),
    11: ("november", "nov", "novembre", "noviembre", "novembro", "ноября", "ноябрь", "ноя",
         "листопада", "листопад", "listopada", "listopad", "kasım", "kasim", "novembra"),
    12: ("december", "dec", "dezember", "dez", "décembre", "decembre", "déc", "diciembre",
         "dic", "dezembro", "dicembre", "декабря", "декабрь", "дек", "грудня", "грудень",
         "grudnia", "grudzień", "aralık", "aralik", "prosinec", "prosince", "decembra"),
}  # fmt: skip
# Arabic (Egyptian and Levantine names).
_MONTHS_AR: Final[dict[int, tuple[str, ...]]] = {
    1: ("يناير", "كانون الثاني"),
    2: ("فبراير", "شباط"),
    3: ("مارس", "آذار"),
    4: ("أبريل", "ابريل", "نيسان"),
    5: ("مايو", "أيار"),
    6: ("يونيو", "حزيران"),
    7: ("يوليو", "تموز"),
    8: ("أغسطس", "اغسطس", "آب"),
    9: ("سبتمبر", "أيلول"),
    10: ("أكتوبر", "اكتوبر", "تشرين الأول"),
    11: ("نوفمبر", "تشرين الثاني"),
    12: ("ديسمبر", "كانون الأول"),
}
#: Month names in every language the dates are read in (lower case, no trailing dot) -> month
#: number: page dates here, feed and sitemap dates in `newsspider.spiders._dates`.
MONTH_BY_NAME: Final = {
    name: num for table in (_MONTHS, _MONTHS_AR) for num, names in table.items() for name in names
}


def _month_alternation(names: Iterable[str]) -> str:
    r"""The names as one alternation grouped by first letter, longest first within a group.

    Ignoring case, the regex engine tries each branch of a flat alternation in turn at every
    position it reaches: 276 names made `_MDY_TEXT_RE` cost about 200 us per 150 characters;
    grouped, a position tries one branch per first letter (seven times cheaper). The matches
    are the same: no name is another's prefix up to a non-word character, so at most one
    branch passes the ``(?!\w)`` that follows, whatever order they are tried in
    (`tests/test_dates.py` checks both).
    """
    groups: dict[str, list[str]] = {}
    for name in sorted(names, key=len, reverse=True):
        groups.setdefault(name[0], []).append(re.escape(name[1:]))
    return "|".join(f"{re.escape(first)}(?:{'|'.join(rests)})" for first, rests in groups.items())


_MONTH_RE: Final = _month_alternation(MONTH_BY_NAME)
# Word boundaries that also work for Cyrillic; an abbreviation may carry a dot.
_MON: Final = rf"(?<!\w)(?P<mon>{_MONTH_RE})(?!\w)\.?"

# --- date patterns ----------------------------------------------------------------------------

_TIME: Final = (
    r"(?:\s*(?:T|,|\||-|–|—|/|·|at|um|à|a\s+las|às|alle|в|kl\.?|o)?\s*"
    r"(?P<H>\d{1,2})[:h](?P<M>\d{2})(?::(?P<S>\d{2}))?(?:[.,]\d+)?"
    r"\s*(?P<ampm>[ap]\.?\s?m\.?)?(?!\w)"
    r"\s*(?P<tz>Z|[+-]\d{2}:?\d{2}|(?:UTC|GMT)(?:\s*[+-]\d{1,2}(?::?\d{2})?)?)?)?"
)
# The patterns that start with a digit start with it, and check what precedes it just after
# (a look-behind first hides the first character from the engine, which then tries the whole
# pattern at every position; a digit first lets it skip to the digits: a third the cost).
# "(?<!\d)19" is "19(?<!\d\d\d)", "(?<!\d)\d" is "\d(?<!\d\d)": the same test of the
# character before (`tests/test_dates.py` compares them with the look-behind-first forms).
_ISO_RE: Final = re.compile(
    r"(?P<y>(?:19|20)(?<!\d\d\d)\d{2})(?P<sep>[-/.])(?P<m>\d{1,2})(?P=sep)(?P<d>\d{1,2})(?!\d)"
    + _TIME
)
_CJK_RE: Final = re.compile(
    r"(?P<y>(?:19|20)\d{2})\s*[年년]\s*(?P<m>\d{1,2})\s*[月월]\s*(?P<d>\d{1,2})\s*[日일号]?"
    r"(?:\s*(?:\([^)]{1,3}\)|（[^）]{1,3}）|[^\d\s]{0,3}))?" + _TIME
)
# Korean "2019. 9. 5." with spaces after the dots.
_KO_DOT_RE: Final = re.compile(
    r"(?P<y>(?:19|20)(?<!\d\d\d)\d{2})\.\s(?P<m>\d{1,2})\.\s(?P<d>\d{1,2})\.?(?!\d)" + _TIME
)
_NUMERIC_RE: Final = re.compile(
    r"(?P<a>\d(?<![\d.]\d)\d?)(?P<sep>[./-])\s?(?P<b>\d{1,2})(?P=sep)\s?(?P<y>(?:19|20)\d{2})(?!\d)"
    + _TIME
)
_DMY_TEXT_RE: Final = re.compile(
    r"(?P<d>\d(?<!\d\d)\d?)(?:\.|st|nd|rd|th|er|º|°)?\s*(?:de\s+|of\s+)?"
    + _MON
    + r",?\s*(?:de\s+|del\s+)?(?P<y>(?:19|20)\d{2})(?!\d)(?:\s*(?:г\.|года|р\.|року|r\.))?"
    + _TIME,
    re.IGNORECASE,
)
_MDY_TEXT_RE: Final = re.compile(
    _MON + r"\s*(?P<d>\d{1,2})(?:st|nd|rd|th)?(?!\d),?\s*(?P<y>(?:19|20)\d{2})(?!\d)" + _TIME,
    re.IGNORECASE,
)
_TEXT_PATTERNS: Final = (_ISO_RE, _CJK_RE, _DMY_TEXT_RE, _MDY_TEXT_RE, _KO_DOT_RE, _NUMERIC_RE)
# What every `_MDY_TEXT_RE` match holds: its day's last digit, then a suffix, a comma or spaces
# (not nothing: a digit may not follow the day), then the year. Ignoring case, the month names
# are tried at every character (the costliest of the patterns, by far); this starts at a digit,
# and most texts (a day before its month, a lone year) have none.
_MDY_GATE: Final = re.compile(r"\d(?:(?:st|nd|rd|th),?\s*|,\s*|\s+)(?:19|20)\d\d", re.IGNORECASE)
# "31.10.23", "8.5.12": a two-digit year. Version numbers and scores look alike, so it is read
# only in a short text of its own (a byline field), see `_SHORT_TEXT`.
SHORT_YEAR_RE: Final = re.compile(
    # At the start, after a separator ("Party, 30.10.23", "Autor | 8.5.12") or "am"/"on";
    # and at the end ("release 1.2.10 now" is a version).
    r"(?:^\s*|[,|·:–—-]\s*|\s(?:am|on|le|el|il|vom)\s+)"
    r"(?P<a>[0-3]?\d)(?P<sep>[./])(?P<b>[01]?\d)(?P=sep)(?P<y>\d{2})(?!\d|[.,/:]\d)"
    + _TIME
    + r"(?=\s*(?:Uhr)?[^\w]*$)",
    re.IGNORECASE,
)
_SHORT_TEXT: Final = 40
# A "19xx"/"20xx" year, which every pattern of `_TEXT_PATTERNS` needs, or a "31.10.23", which
# `SHORT_YEAR_RE` needs: a text without one holds no date. (Written so that the search starts
# at a digit: three times faster than an alternation.)
DATEISH_TEXT_RE: Final = re.compile(r"\d(?:(?<=1)9\d\d|(?<=2)0\d\d|[./]\d\d?[./]\d\d)")

# Machine values in structured data: ISO basic/extended, possibly a bare date.
_MACHINE_RE: Final = re.compile(
    r"\s*(?P<y>\d{4})-?(?P<m>\d{2})-?(?P<d>\d{2})"
    r"(?:[T\s]+(?P<H>\d{1,2}):?(?P<M>\d{2})(?::?(?P<S>\d{2}))?(?:[.,]\d+)?"
    r"\s*(?P<tz>Z|[+-]\d{2}(?::?\d{2})?)?)?(?![\d])"
)
_EPOCH_RE: Final = re.compile(r"\s*(\d{10})(\d{3})?\s*$")

# URL dates: /2019/09/05/, /2019-09-05/, 20190905, /2019/09/ (month only).
# ("1(?<!\d1)9" is "(?<!\d)19" starting with its digit: the engine then skips to the digits
# that can start a match instead of trying the pattern at every character of the URL.)
_URL_YMD_RE: Final = re.compile(
    r"(?P<y>(?:1(?<!\d1)9|2(?<!\d2)0)\d{2})(?P<sep>[/_-]?)(?P<m>[01]\d)(?P=sep)(?P<d>[0-3]\d)(?!\d)"
)
URL_YMD_LOOSE_RE: Final = re.compile(r"/(?P<y>(?:19|20)\d{2})/(?P<m>\d{1,2})/(?P<d>\d{1,2})/")
_URL_YM_RE: Final = re.compile(r"/(?P<y>(?:19|20)\d{2})[/-](?P<m>0?[1-9]|1[0-2])(?:/|$)")
_URL_DMY_RE: Final = re.compile(
    r"(?P<d>[0-3](?<!\d[0-3])\d)-(?P<m>[01]\d)-(?P<y>(?:19|20)\d{2})(?!\d)"
)

# --- relative dates ---------------------------------------------------------------------------

_REL_DAY_WORDS: Final[dict[str, int]] = {
    "today": 0, "yesterday": 1, "сегодня": 0, "вчера": 1, "позавчера": 2, "сьогодні": 0,
    "вчора": 1, "今天": 0, "今日": 0, "昨天": 1, "昨日": 1, "前天": 2, "heute": 0,
    "gestern": 1, "aujourd'hui": 0, "hier": 1, "hoy": 0, "ayer": 1, "hoje": 0, "ontem": 1,
}  # fmt: skip
_REL_DAY_RE: Final = re.compile(
    r"(?<!\w)(?P<w>" + "|".join(sorted(map(re.escape, _REL_DAY_WORDS), key=len, reverse=True))
    + r")(?!\w)(?:[^\d]{0,6}?(?P<H>\d{1,2}):(?P<M>\d{2}))?",
    re.IGNORECASE,
)  # fmt: skip
_UNIT_SECONDS: Final = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}
_REL_AGO_RE: Final = re.compile(
    r"(?P<n>\d{1,3}|an?|one)\s*(?P<u>"
    r"seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|"
    r"секунд[уы]?|минут[уы]?|час(?:а|ов)?|дн(?:я|ей)|день|недел[юиь]|"
    r"秒钟?|分钟|分鐘|小时|小時|天|周|週|"
    r"sekunden?|minuten?|stunden?|tagen?|wochen?|secondes?|heures?|jours?|semaines?|"
    r"segundos?|minutos?|horas?|días?|dias?|semanas?)"
    r"\s*(?:ago|назад|前|$)",
    re.IGNORECASE,
)
_REL_AGO_PREFIX_RE: Final = re.compile(
    r"(?:vor|il y a|hace|há)\s+(?P<n>\d{1,3}|einer?|une?)\s+(?P<u>[^\W\d]+)", re.IGNORECASE
)


def _unit_seconds(unit: str) -> int | None:
    u = unit.lower()
    # Order matters: "minut" before "m"-anything, "мин" before "м".
    table = (
        (("sec", "sek", "сек", "秒", "seg"), "s"),
        (("min", "мин", "分"), "m"),
        (("h", "hr", "час", "小", "stund", "heur", "hora"), "h"),
        (("d", "дн", "ден", "天", "tag", "jour", "día", "dia"), "d"),
        (("w", "недел", "周", "週", "woch", "semain", "seman"), "w"),
    )
    for prefixes, key in table:
        if u.startswith(prefixes):
            return _UNIT_SECONDS[key]
    return None


# --- value type -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ParsedDate:
    """A calendar date, optionally with a time of day and a UTC offset string."""

    day: date
    time: tuple[int, int, int] | None = None
    offset: str | None = None  # "+HH:MM"
    #: The text the date was read from (whitespace-collapsed, at most `MAX_RAW_CHARS`).
    raw: str | None = field(default=None, compare=False)

    def iso(self) -> str:
        if self.time is None:
            return self.day.isoformat()
        h, m, s = self.time
        text = f"{self.day.isoformat()}T{h:02d}:{m:02d}:{s:02d}"
        return text + (self.offset or "")


_OFFSET_RE: Final = re.compile(r"([+-])(\d{1,2}):?(\d{2})?$")


def _offset(tz: str | None) -> str | None:
    if not tz:
        return None
    tz = tz.strip().upper()
    if tz in ("Z", "UTC", "GMT"):
        return "+00:00"
    m = _OFFSET_RE.search(tz)
    if not m:
        return None
    hours, minutes = int(m.group(2)), int(m.group(3) or 0)
    if hours > 14 or minutes > 59:
        return None
    return f"{m.group(1)}{hours:02d}:{minutes:02d}"


#: Characters of a date's source text kept as `ParsedDate.raw`.
MAX_RAW_CHARS: Final = 120


def with_raw(parsed: ParsedDate | None, raw: str) -> ParsedDate | None:
    """`parsed` with the text it was read from."""
    if parsed is None:
        return None
    return ParsedDate(parsed.day, parsed.time, parsed.offset, " ".join(raw.split())[:MAX_RAW_CHARS])


def build_date(
    y: int, mo: int, d: int, groups: Mapping[str, str | None] | None, latest: date
) -> ParsedDate | None:
    if not (MIN_YEAR <= y <= latest.year):
        return None
    try:
        day = date(y, mo, d)
    except ValueError:
        return None
    if day > latest:
        return None
    if groups is None or groups.get("H") is None:
        return ParsedDate(day)
    hour, minute = int(groups["H"] or 0), int(groups["M"] or 0)
    second = int(groups.get("S") or 0)
    ampm = (groups.get("ampm") or "").lower()
    if ampm.startswith("p") and hour < 12:
        hour += 12
    elif ampm.startswith("a") and hour == 12:
        hour = 0
    if hour > 23 or minute > 59 or second > 59:
        return ParsedDate(day)
    return ParsedDate(day, (hour, minute, second), _offset(groups.get("tz")))


def latest_day(reference_time: datetime | None) -> date:
    """The last acceptable day: the reference (or now) plus one day for time zones."""
    now = reference_time or datetime.now(UTC)
    return now.date() + timedelta(days=1) if now.date() < date.max else now.date()


def parse_machine_date(value: str, *, latest: date) -> ParsedDate | None:
    """Parse a value from structured data (meta content, JSON-LD, ``datetime`` attributes)."""
    return _machine_date(value, latest)


@short_key_cache(256)
def _machine_date(value: str, latest: date) -> ParsedDate | None:
    # Cached: a page repeats its dates in meta tags, JSON-LD and <time> (a third of the calls
    # on news pages read a value already read).
    value = value.strip()
    if not value:
        return None
    m = _MACHINE_RE.match(value)
    if m:
        g = m.groupdict()
        return with_raw(build_date(int(g["y"]), int(g["m"]), int(g["d"]), g, latest), value)
    m = _EPOCH_RE.match(value)
    if m:
        try:
            moment = datetime.fromtimestamp(int(m.group(1)), UTC)
        except (OverflowError, OSError, ValueError):
            return None
        groups = {"H": str(moment.hour), "M": str(moment.minute), "S": str(moment.second)}
        epoch = build_date(moment.year, moment.month, moment.day, groups | {"tz": "Z"}, latest)
        return with_raw(epoch, value)
    # Slashes in a machine value are the US/invariant culture format (.NET, JavaScript).
    return with_raw(parse_text_date(value, latest=latest, month_first=True), value)


def parse_text_date(text: str, *, latest: date, month_first: bool = False) -> ParsedDate | None:
    """Find the first absolute date written in human text ("5 сентября 2019 г.", "2019年9月5日")."""
    if len(text) > 300:
        text = text[:300]
    if not DATEISH_TEXT_RE.search(text):
        return None  # one cheap search instead of seven: most texts without a year (URLs, names)
    for pattern in _TEXT_PATTERNS:
        if pattern is _MDY_TEXT_RE and not _MDY_GATE.search(text):
            continue
        for m in pattern.finditer(text):
            g = m.groupdict()
            y = int(g["y"])
            if pattern is _NUMERIC_RE:
                a, b = int(g["a"]), int(g["b"])
                # Dots are European day-first; slashes are ambiguous and follow the page locale.
                if a > 12 or (b <= 12 and (g["sep"] == "." or not month_first)):
                    d, mo = a, b
                else:
                    mo, d = a, b
            elif "mon" in g and g["mon"] is not None:
                mo = MONTH_BY_NAME.get(g["mon"].lower().rstrip("."), 0)
                d = int(g["d"])
            else:
                mo, d = int(g["m"]), int(g["d"])
            found = build_date(y, mo, d, g, latest)
            if found is not None:
                return with_raw(found, m.group())
    if len(text) <= _SHORT_TEXT or len(text.strip()) <= _SHORT_TEXT:
        return _parse_short_year(text, latest, month_first)
    return None


def _parse_short_year(text: str, latest: date, month_first: bool) -> ParsedDate | None:
    for m in SHORT_YEAR_RE.finditer(text):
        g = m.groupdict()
        a, b, yy = int(g["a"]), int(g["b"]), int(g["y"])
        # 95-99 are the web's first years; everything else is this century.
        y = 1900 + yy if yy >= MIN_YEAR % 100 else 2000 + yy
        if a > 12 or (b <= 12 and (g["sep"] == "." or not month_first)):
            d, mo = a, b
        else:
            mo, d = a, b
        found = build_date(y, mo, d, g, latest)
        if found is not None:
            return with_raw(found, m.group())
    return None


def parse_relative_date(text: str, reference_time: datetime) -> ParsedDate | None:
    """ "вчера в 16:19", "3 hours ago", "昨天 08:00", "vor 2 Tagen" relative to `reference_time`."""
    text = text[:120]
    return with_raw(_relative_date(text, reference_time), text)


def _relative_date(text: str, reference_time: datetime) -> ParsedDate | None:
    m = _REL_DAY_RE.search(text)
    if m:
        try:
            day = reference_time.date() - timedelta(days=_REL_DAY_WORDS[m.group("w").lower()])
        except OverflowError:  # a reference time at the start of the calendar
            return None
        if m.group("H"):
            h, mi = int(m.group("H")), int(m.group("M"))
            if h < 24 and mi < 60:
                return ParsedDate(day, (h, mi, 0))
        return ParsedDate(day)
    m = _REL_AGO_RE.search(text) or _REL_AGO_PREFIX_RE.search(text)
    if m:
        n_text = m.group("n").lower()
        n = int(n_text) if n_text.isdigit() else 1
        unit = _unit_seconds(m.group("u"))
        if unit is None:
            return None
        try:
            return ParsedDate((reference_time - timedelta(seconds=n * unit)).date())
        except OverflowError:  # "99999999 years ago", or a reference time near year 1
            return None
    return None


def date_from_url(url: str | None, *, latest: date) -> ParsedDate | None:
    """A full year-month-day in the URL path (``/2019/09/05/``, ``20190905``, ``2019-09-05``)."""
    if not url:
        return None
    parts = split_url(url)
    if parts is None:
        return None
    path = unquote(parts.path + ("?" + parts.query if parts.query else ""))
    if not DATEISH_TEXT_RE.search(path):
        return None  # each pattern needs a 19xx/20xx year
    for pattern in (URL_YMD_LOOSE_RE, _URL_YMD_RE, _URL_DMY_RE):
        for m in pattern.finditer(path):
            found = build_date(int(m["y"]), int(m["m"]), int(m["d"]), None, latest)
            if found is not None:
                return with_raw(found, m.group())
    return None


def month_from_url(url: str | None) -> tuple[int, int] | None:
    """(year, month) from a URL path like ``/2018/07/slug`` (no day)."""
    if not url:
        return None
    parts = split_url(url)
    m = _URL_YM_RE.search(parts.path) if parts is not None else None
    return (int(m["y"]), int(m["m"])) if m else None

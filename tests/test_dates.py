"""Date parsing in many languages and formats, relative dates, URL dates."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, date, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from newsspider.extraction.metadata.date_parsing import (
    _DMY_TEXT_RE,
    _MDY_TEXT_RE,
    _MONTH_RE,
    MONTH_BY_NAME,
    ParsedDate,
    date_from_url,
    parse_machine_date,
    parse_relative_date,
    parse_text_date,
)

LATEST = date(2030, 1, 1)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2019年9月5日 11:10", "2019-09-05T11:10:00"),
        ("发布时间：2019-09-05 11:10", "2019-09-05T11:10:00"),
        ("2019/9/5", "2019-09-05"),
        ("5 сентября 2019 г.", "2019-09-05"),
        ("Опубликовано: 12 января 2020 года, 08:15", "2020-01-12T08:15:00"),
        ("5. September 2019", "2019-09-05"),
        ("Veröffentlicht am 05.09.2019 um 11:10 Uhr", "2019-09-05T11:10:00"),
        ("5 septembre 2019", "2019-09-05"),
        ("5 de septiembre de 2019", "2019-09-05"),
        ("5 de setembro de 2019", "2019-09-05"),
        ("September 5, 2019", "2019-09-05"),
        ("Sept. 5th, 2019 at 3:04 pm", "2019-09-05T15:04:00"),
        ("5 Sep 2019", "2019-09-05"),
        ("Thu, 05 Sep 2019 11:10:00 +0200", "2019-09-05T11:10:00+02:00"),
        ("2019년 9월 5일", "2019-09-05"),
        ("07 أكتوبر 2020", "2020-10-07"),
        ("31.02.2019", None),  # impossible day
        ("1990-01-01", None),  # before the web
        ("© 2005-2019 Example", None),
    ],
)
def test_text_dates(text: str, expected: str | None) -> None:
    parsed = parse_text_date(text, latest=LATEST)
    assert (parsed.iso() if parsed else None) == expected


def test_ambiguous_slashes_follow_locale() -> None:
    assert parse_text_date("05/09/2019", latest=LATEST).iso() == "2019-09-05"  # type: ignore[union-attr]
    us = parse_text_date("05/09/2019", latest=LATEST, month_first=True)
    assert us is not None and us.iso() == "2019-05-09"
    # A day above 12 settles it either way.
    assert parse_text_date("9/25/2019", latest=LATEST).iso() == "2019-09-25"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2019-09-05T11:10:00Z", "2019-09-05T11:10:00+00:00"),
        ("2019-09-05T11:10:00.123+0530", "2019-09-05T11:10:00+05:30"),
        ("20190905", "2019-09-05"),
        ("1567681800", "2019-09-05T11:10:00+00:00"),
        ("2019-09-05", "2019-09-05"),
        ("not a date", None),
        ("", None),
    ],
)
def test_machine_dates(value: str, expected: str | None) -> None:
    parsed = parse_machine_date(value, latest=LATEST)
    assert (parsed.iso() if parsed else None) == expected


def test_future_is_rejected() -> None:
    assert parse_machine_date("2019-09-05", latest=date(2019, 9, 4)) is None


REF = datetime(2024, 5, 10, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("вчера в 16:19", "2024-05-09T16:19:00"),
        ("3 hours ago", "2024-05-10"),
        ("昨天 08:00", "2024-05-09T08:00:00"),
        ("2 дня назад", "2024-05-08"),
        ("vor 3 Tagen", "2024-05-07"),
        ("5天前", "2024-05-05"),
        ("no date here", None),
    ],
)
def test_relative_dates(text: str, expected: str | None) -> None:
    parsed = parse_relative_date(text, REF)
    assert (parsed.iso() if parsed else None) == expected


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://example.com/2019/09/05/slug", "2019-09-05"),
        ("https://example.com/news/20190905/slug.html", "2019-09-05"),
        ("https://example.com/a/2019-09-05-slug", "2019-09-05"),
        ("https://example.com/2019/9/5/slug", "2019-09-05"),
        ("https://example.com/article/1567681800123", None),
        ("https://example.com/2019/13/45/slug", None),
        (None, None),
    ],
)
def test_url_dates(url: str | None, expected: str | None) -> None:
    parsed = date_from_url(url, latest=LATEST)
    assert (parsed.iso() if parsed else None) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("31.10.23", "2023-10-31"),
        ("Klaus Muster, 8.5.12", "2012-05-08"),
        ("Party, 30.10.23 ", "2023-10-30"),
        ("02.12.19 14:05", "2019-12-02T14:05:00"),
        ("12.05.98", "1998-05-12"),
        # Version numbers and prose: a two-digit year only counts in a short text.
        ("Update to release 1.2.10 now", None),
        ("v1.2.10", None),
        ("192.168.1.10", None),
        ("Der Spielstand war nach 90 Minuten 1.2.10 und dann kam der Regen über uns alle", None),
    ],
)
def test_two_digit_years_in_short_texts(text: str, expected: str | None) -> None:
    parsed = parse_text_date(text, latest=LATEST)
    assert (parsed.iso() if parsed else None) == expected


def test_slashes_in_machine_values_are_month_first() -> None:
    # "11/01/2023 12:43:42" is the invariant (.NET/JavaScript) format, whatever the page's language.
    parsed = parse_machine_date("11/01/2023 12:43:42", latest=LATEST)
    assert parsed is not None and parsed.iso() == "2023-11-01T12:43:42"
    # Visible text still follows the page's locale.
    assert parse_text_date("11/01/2023", latest=LATEST).iso() == "2023-01-11"  # type: ignore[union-attr]


def test_cue_words_are_not_searched_through_huge_class_values() -> None:
    """Found by fuzzing: every date candidate searched its ancestors' whole class and id
    values for cue words: 53 s for this 400 kB page."""
    import time

    from newsspider import extract

    wrapper = "x " * 100_000
    dates = "".join(f"<p>Story {i}, 12 May 2024 at noon, more words.</p>" for i in range(200))
    page = f'<html><body><div class="{wrapper}"><div class="{wrapper}">{dates}</div></div>'
    page += "</body></html>"
    extract(page.encode())  # warm-up
    start = time.process_time()
    extract(page.encode())
    assert time.process_time() - start < 1.5  # 53 s before; 0.3 s after (a 400 kB page)


@pytest.fixture
def date_parses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the date search's text parses: one element, incremented per call."""
    from newsspider.extraction.metadata import dates

    calls = [0]
    original = dates.parse_text_date

    def counting(*args: object, **kwargs: object) -> object:
        calls[0] += 1
        return original(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(dates, "parse_text_date", counting)
    return calls


@pytest.mark.spies_on_core
def test_a_body_of_dated_lines_is_read_a_bounded_number_of_times(date_parses: list[int]) -> None:
    # Fuzzing found a 29 kB page of nothing but dated lines: every one was parsed (2.2 s of CPU
    # per MB). The last-resort scan of the body stops after a fixed number of date-like texts.
    from newsspider import extract
    from newsspider.extraction.metadata import dates

    lines = "".join(f"<p>Lot {n}: 12.03.2019</p>" for n in range(1000))
    article = extract(f"<html><body>{lines}</body></html>")
    assert article.date is not None and article.date.startswith("2019-03-12")
    assert date_parses[0] <= dates._BODY_DATE_READS + 50


@pytest.mark.spies_on_core
def test_the_headlines_surroundings_are_read_a_bounded_number_of_times(
    date_parses: list[int],
) -> None:
    # Fuzzing found a 19 kB page whose three headlines each read the same dated texts after
    # them (198 parses, 2.9 s of CPU per MB). The reads around <time> elements and headlines
    # stop after a fixed number, whatever the page holds.
    from newsspider import extract
    from newsspider.extraction.metadata import dates

    lines = "".join(f"<div><p>Lot {n}: 31.02.2019</p></div>" for n in range(400))
    headlines = "".join(f"<h1>Auction results, part {n}</h1>" for n in range(3))
    extract(f"<html><body>{headlines}{lines}</body></html>")
    assert (
        date_parses[0]
        <= dates._MARKUP_DATE_READS + dates._YEAR_HITS_BUDGET + dates._BODY_DATE_READS
    )


def _flat_month_pattern(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """`pattern` with the month names as the flat, longest-first alternation they replace."""
    flat = "|".join(re.escape(n) for n in sorted(MONTH_BY_NAME, key=len, reverse=True))
    return re.compile(pattern.pattern.replace(_MONTH_RE, flat), pattern.flags)


def test_no_month_name_is_another_up_to_a_non_word_character() -> None:
    # What makes the grouped alternation match as the flat one did (`_month_alternation`).
    for short in MONTH_BY_NAME:
        for name in MONTH_BY_NAME:
            if name != short and name.startswith(short):
                assert re.match(r"\w", name[len(short)]), (short, name)


@given(
    st.lists(
        st.one_of(
            st.sampled_from(sorted(MONTH_BY_NAME)),
            st.sampled_from(["5", "05", "31", "2019", "1999", "2024", "12:30", "pm", "th", "de"]),
            st.text(alphabet=" .,:/-–\u00a0xXaéЯ年", max_size=3),
        ),
        max_size=12,
    ),
    st.sampled_from([str, str.upper, str.title]),
)
@settings(max_examples=400, deadline=None)
def test_grouped_month_names_match_as_the_flat_alternation(
    pieces: list[str], case: Callable[[str], str]
) -> None:
    text = case(" ".join(pieces))
    for pattern in (_MDY_TEXT_RE, _DMY_TEXT_RE):
        flat = _flat_month_pattern(pattern)
        assert [m.groupdict() | {"span": m.span()} for m in pattern.finditer(text)] == [
            m.groupdict() | {"span": m.span()} for m in flat.finditer(text)
        ]


def test_text_without_a_year_or_short_date_is_not_parsed_as_one() -> None:
    # The gate in parse_text_date: no pattern matches without what DATEISH_TEXT_RE finds.
    assert parse_text_date("March 5, 19", latest=LATEST) is None
    assert parse_text_date("https://example.com/a/b", latest=LATEST) is None
    assert parse_text_date("Stand: 31.10.23", latest=LATEST) == ParsedDate(date(2023, 10, 31))
    assert parse_text_date("March 5, 2019", latest=LATEST) is not None


_CUE_WORDS = (
    "updated", "Modified", "EDITED", "revised", "Stand:", "last changed", "published", "Posted",
    "date", "DateLine", "time", "Timeline", "runtime", "post-meta", "entry_meta", "articlemeta",
    "byline", "comment", "AddComment", "reply", "footer", "sidebar", "archive", "fecha", "data",
    "uploaded", "pub_date", "pubdate", "release", "geändert", "обновлено", "发布", "©",
)  # fmt: skip


@given(
    st.lists(
        st.one_of(
            st.sampled_from(_CUE_WORDS),
            st.text(alphabet="abcdeimnoprstuTMPC -_:.0", max_size=6),
            st.text(alphabet="İıſKéà ", max_size=2),
        ),
        max_size=10,
    )
)
@settings(max_examples=500, deadline=None)
def test_cues_find_what_ignoring_case_finds(pieces: list[str]) -> None:
    from newsspider.extraction.metadata import dates

    cues = (
        dates._MODIFIED_CUE,
        dates._PUBLISHED_CUE,
        dates._NOISE_CUE,
        dates._GENERIC_PUBLISHED_KEY,
        dates._DATEISH_CLASS,
    )
    for text in ("".join(pieces), " ".join(pieces)):
        for cue in cues:
            found, expected = cue.search(text), cue.any_text.search(text)
            assert (found and found.span()) == (expected and expected.span()), (text, cue)


@given(st.text(alphabet="0123456789/-_.?=a%", max_size=40))
@settings(max_examples=500, deadline=None)
def test_url_date_patterns_match_as_before(path: str) -> None:
    from newsspider.extraction.metadata.date_parsing import _URL_DMY_RE, _URL_YMD_RE

    before = (
        re.compile(
            r"(?<!\d)(?P<y>(?:19|20)\d{2})(?P<sep>[/_-]?)(?P<m>[01]\d)(?P=sep)(?P<d>[0-3]\d)(?!\d)"
        ),
        re.compile(r"(?<!\d)(?P<d>[0-3]\d)-(?P<m>[01]\d)-(?P<y>(?:19|20)\d{2})(?!\d)"),
    )
    for pattern, old in zip((_URL_YMD_RE, _URL_DMY_RE), before, strict=True):
        assert [(m.span(), m.groupdict()) for m in pattern.finditer(path)] == [
            (m.span(), m.groupdict()) for m in old.finditer(path)
        ]


# The look-behind-first forms the text patterns had (`date_parsing`, "start with a digit").
_LOOK_BEHIND_FIRST = (
    (r"(?P<y>(?:19|20)(?<!\d\d\d)\d{2})", r"(?<!\d)(?P<y>(?:19|20)\d{2})"),
    (r"(?P<a>\d(?<![\d.]\d)\d?)", r"(?<![\d.])(?P<a>\d{1,2})"),
    (r"(?P<d>\d(?<!\d\d)\d?)", r"(?<!\d)(?P<d>\d{1,2})"),
)


@given(
    st.lists(
        st.one_of(
            st.sampled_from(sorted(MONTH_BY_NAME)[::7]),
            st.sampled_from(["5", "05", "31", "2019", "1999", "20241", "12:30", "pm", "th", "de"]),
            st.text(alphabet=" .,:/-–年월년日 0123459", max_size=4),
        ),
        max_size=12,
    )
)
@settings(max_examples=400, deadline=None)
def test_text_patterns_match_as_their_look_behind_first_forms(pieces: list[str]) -> None:
    from newsspider.extraction.metadata import date_parsing

    patterns = (
        date_parsing._ISO_RE,
        date_parsing._KO_DOT_RE,
        date_parsing._NUMERIC_RE,
        date_parsing._DMY_TEXT_RE,
    )
    for text in ("".join(pieces), " ".join(pieces)):
        for pattern in patterns:
            source = pattern.pattern
            for new, old in _LOOK_BEHIND_FIRST:
                source = source.replace(new, old)
            assert source != pattern.pattern
            before = re.compile(source, pattern.flags)
            assert [m.groupdict() | {"span": m.span()} for m in pattern.finditer(text)] == [
                m.groupdict() | {"span": m.span()} for m in before.finditer(text)
            ]


@given(
    st.lists(
        st.one_of(
            st.sampled_from(sorted(MONTH_BY_NAME)),
            st.sampled_from(["5", "05", "31", "2019", "1999", "12:30", "st", "TH", "nd", ","]),
            st.text(alphabet=" .,\u00a0\t\n0129", max_size=3),
        ),
        max_size=10,
    ),
    st.sampled_from([str, str.upper, str.title]),
)
@settings(max_examples=400, deadline=None)
def test_month_first_dates_pass_their_gate(pieces: list[str], case: Callable[[str], str]) -> None:
    from newsspider.extraction.metadata.date_parsing import _MDY_GATE

    for text in (case("".join(pieces)), case(" ".join(pieces))):
        if _MDY_TEXT_RE.search(text):
            assert _MDY_GATE.search(text), text


def test_month_first_gate_skips_day_first_texts() -> None:
    from newsspider.extraction.metadata.date_parsing import _MDY_GATE

    assert _MDY_GATE.search("March 5th, 2019") and _MDY_GATE.search("Sep 12 2020")
    assert not _MDY_GATE.search("5 March 2019") and not _MDY_GATE.search("posted in 2019")
    assert parse_text_date("Updated March 5th, 2019 at 10:30", latest=LATEST) == ParsedDate(
        date(2019, 3, 5), (10, 30, 0), None, "March 5th, 2019 at 10:30"
    )


@pytest.mark.parametrize(
    "names",
    ["post-date", "Entry-TIME", "meta", "", "x" * 500 + " date", "x" * 500, "Fecha İ", "ſ data"],
)
def test_dateish_class_answers_as_its_search(names: str) -> None:
    from newsspider.extraction.metadata import dates

    for _ in range(2):  # computed, then cached (short values)
        assert dates._dateish_class(names) == bool(dates._DATEISH_CLASS.search(names))


@given(st.text(alphabet="1920 0٣x\n", max_size=40), st.integers(0, 45))
@settings(max_examples=500, deadline=None)
def test_year_positions_as_the_year_pattern_finds_them(text: str, position: int) -> None:
    from newsspider.extraction.metadata import dates

    expected = [m.start() for m in dates._HAS_YEAR.finditer(text, position)]
    found: list[int] = []
    start = dates._year_at(text, position)
    while start >= 0:
        found.append(start)
        start = dates._year_at(text, start + 4)
    assert found == expected

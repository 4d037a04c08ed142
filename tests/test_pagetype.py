"""The page's own signals: error and login wording in its title and headline."""

from __future__ import annotations

import re
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from newsspider.extraction.classify import pagetype
from newsspider.extraction.classify.pagetype import PageSignals, page_signals
from newsspider.extraction.page.page_model import PageSegments


def _signals(title: str, headline: str | None = None) -> PageSignals:
    return page_signals(title, 0, PageSegments(), headline)


@pytest.mark.parametrize(
    ("title", "error", "login"),
    [
        ("Page Not Found | Example", True, False),
        ("ERROR 404", True, False),
        ("Ошибка 404 — сайт", True, False),
        ("页面不存在", True, False),
        ("Log In to continue", False, True),
        ("SIGNIN", False, True),
        ("Sign  in", False, False),  # two spaces: not the phrase
        ("Signing the treaty", False, False),
        ("Notfound", False, False),  # no word boundary
        ("ſign in", False, True),  # a long s: case-insensitively an s, not by lowercasing
        ("A 4040-word essay", False, False),
        ("", False, False),
    ],
)
def test_error_and_login_wording(title: str, error: bool, login: bool) -> None:
    signals = _signals(title)
    assert (signals.error_text, signals.login_text) == (error, login)


def test_phrases_are_written_in_lowercase() -> None:
    """The substring pre-test reads the lowercased text: a phrase with a capital would never
    pass it."""
    for phrase in pagetype._ERROR_TEXTS + pagetype._LOGIN_TEXTS:
        assert phrase == phrase.lower()


def test_fold_unsafe_letters_are_all_that_lowercasing_misses() -> None:
    """Every character that case-insensitive matching pairs with a phrase's letter, but that
    `str.lower` maps elsewhere (or to several characters, or across the word/non-word line
    that \\b reads), is in `_FOLD_UNSAFE`: text without them holds a phrase case-insensitively
    exactly when its lowercase copy holds it verbatim."""
    letters = {char for phrase in pagetype._ERROR_TEXTS + pagetype._LOGIN_TEXTS for char in phrase}
    patterns = {letter: re.compile(re.escape(letter), re.IGNORECASE) for letter in letters}
    unsafe = set()
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        lowered = char.lower()
        if lowered == char and char.upper() == char and char not in letters:
            continue  # caseless, and no phrase's letter: matches nothing either way
        if len(lowered) != 1 or (char.isalnum() or char == "_") != (
            lowered.isalnum() or lowered == "_"
        ):
            unsafe.add(char)
            continue
        for letter, pattern in patterns.items():
            if (pattern.fullmatch(char) is not None) != (lowered == letter):
                unsafe.add(char)
    listed = {
        chr(code) for code in range(sys.maxunicode + 1) if pagetype._FOLD_UNSAFE.match(chr(code))
    }
    assert unsafe <= listed


#: Pieces of dated, numbered and priced lines, with the characters the date forms turn on:
#: separators, word boundaries (letters, underscores), digits past ASCII (Arabic-Indic,
#: superscript, circled: re's \\d takes the first only).
_LINE_PIECES = st.sampled_from(
    [*"0123456789 -/.:年_aZé\xa0\t", "19", "20", "١", "٣", "²", "①", "x2024", "2024", "12:30"]
)


@settings(max_examples=3000, deadline=None)
@given(st.lists(_LINE_PIECES, max_size=14).map("".join))
def test_date_like_finds_a_date_where_the_rule_does(line: str) -> None:
    """`date_like` (a code-point loop for the digit, a regex begun with the digit) says what the
    rule as written says: `_DATE_LIKE` finds a date, after `_DIGIT` finds a digit."""
    assert pagetype.has_digit(line) == (pagetype._DIGIT.search(line) is not None)
    assert pagetype.date_like(line) == (pagetype._DATE_LIKE.search(line) is not None)


@pytest.mark.parametrize(
    ("line", "dated"),
    [
        ("2024-05-01", True),
        ("1.5.2024", True),
        ("2024年5月", True),
        ("at 12:30", True),
        ("in 1999 and", True),
        ("x1999", False),  # no word boundary before the year
        ("19999", False),
        ("٢٠٢٤-٥", True),  # Arabic-Indic digits are re's \\d
        ("²-³", False),  # superscripts are digits, not decimal ones
        ("page 7 of", False),
        ("", False),
    ],
)
def test_date_like_examples(line: str, dated: bool) -> None:
    assert pagetype.date_like(line) is dated

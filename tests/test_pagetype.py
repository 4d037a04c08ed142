"""The page's own signals: error and login wording in its title and headline."""

from __future__ import annotations

import re
import sys

import pytest

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

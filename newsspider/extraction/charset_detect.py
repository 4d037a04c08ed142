"""Which legacy code page an undeclared page is in: every candidate decoding, judged by its text.

Used only when a page is neither UTF-8 nor declares a charset its bytes agree with (see
`decoding`). Every candidate code page decodes the same sample, the page's words that carry
non-ASCII bytes; each decoding is scored by how plausible its non-ASCII characters are as the
text of one language:

- a letter among that language's most frequent letters counts for it (charset-normalizer's
  per-language frequency tables, `charset_normalizer.constant.FREQUENCIES`: structural
  statistics of 41 languages, not word lists); a letter of the language's script outside them
  is neutral; a letter of another script counts against;
- evidence against any language: a symbol, control or undefined byte glued to a letter
  (``c½ur``, ``Ã©``), an upper-case letter right after a lower-case one (``пРХБЕР``: KOI8-R read
  as Windows-1251), letters of two scripts in one word (``cafй``), bytes the code page cannot
  decode;
- for Latin-script languages, the share of the text's ASCII letters among the language's
  frequent letters: the same in every candidate, it picks the language (French rather than
  Czech) where two code pages' letters fit two languages equally.

The best decoding wins; on a tie the earlier candidate (`CANDIDATES` lists the common ones
first, Windows-1252 first of all, the browsers' default). Hand-written: charset-normalizer ranks
candidates by its own mess measure first and reads French in Windows-1252 as Windows-1250 (the
issue 33 benchmark, `bench/charsets.py`); this re-ranks with the language as the tie-breaker.
Bounded work: the sample is at most `SAMPLE_BYTES`, each candidate one C-speed decode and two
regex scans of it.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from functools import lru_cache
from typing import Final

#: Code pages tried, most common first (a tie goes to the earlier one).
CANDIDATES: Final = (
    "cp1252",
    "iso8859_15",
    "cp1250",
    "iso8859_2",
    "cp1251",
    "koi8_r",
    "koi8_u",
    "iso8859_5",
    "cp1254",
    "cp1257",
    "cp1253",
    "iso8859_7",
    "cp1256",
    "cp1255",
    "cp874",
    "cp1258",
    "gb18030",
    "big5",
    "shift_jis",
    "euc_jp",
    "euc_kr",
)
#: The most sample the scoring reads: words with non-ASCII bytes, joined.
SAMPLE_BYTES: Final = 16 * 1024
#: Longer runs of letters are no word of an alphabetic script (CJK read as single bytes).
LONGEST_WORD: Final = 40
# Words (whitespace-delimited; markup already removed) holding a non-ASCII byte. Multibyte
# encodings never use whitespace bytes inside a character, so no character is cut.
_SPLIT: Final = re.compile(rb"[\s<>]+")
_REPLACEMENT: Final = "\ufffd"
#: What an undecodable byte (or a control character) counts against a decoding: text in a code
#: page never holds the bytes it leaves undefined.
_UNDECODABLE: Final = 10
# Non-letters that real text glues to letters: punctuation (’ « » – …), combining marks
# (Vietnamese tones in Windows-1258), spacing marks, the no-break space, digits.
_GLUE_OK: Final = frozenset({"Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "Mn", "Mc", "Zs", "Nd"})
# One script for the scripts that share words (kanji with kana).
# Full-width Latin letters exist only in CJK code pages, among CJK text.
_SCRIPT_GROUPS: Final = {
    "CJK": "HAN",
    "HIRAGANA": "HAN",
    "KATAKANA": "HAN",
    "IDEOGRAPHIC": "HAN",
    "FULLWIDTH": "HAN",
}
# Scripts written without spaces between words: long runs of their letters are normal.
_UNSPACED: Final = frozenset({"HAN", "THAI", "LAO", "KHMER", "MYANMAR", "TIBETAN"})
# Two class strings describe a decoding, one character per character (see `_classes`). The
# script string: a letter's script code, lower-case "a".."z" for an alphabetic script,
# upper-case "A".."Z" for one written without spaces; "!" a symbol or control that must not
# touch a letter; "#" a control, undefined or replacement character; " " anything else
# (spaces, punctuation, digits). The case string: "l" lower-case letter, "u" upper-case, " ".
_MIXED: Final = re.compile(r"([A-Za-z])(?=(?!\1)[A-Za-z])")
_GLUED: Final = re.compile(r"(?<=[A-Za-z])!|!(?=[A-Za-z])")
_LONG_RUN: Final = re.compile(rf"[a-z]{{{LONGEST_WORD + 1},}}")


@lru_cache(maxsize=4096)
def _script(char: str) -> str:
    """The script of a letter, from its Unicode name ("LATIN", "CYRILLIC", "HAN", ...)."""
    if char.isascii():
        return "LATIN"
    word = unicodedata.name(char, "?").split(" ", 1)[0].split("-", 1)[0]
    return _SCRIPT_GROUPS.get(word, word)


_SCRIPT_CODES: dict[str, str] = {}


def _script_code(script: str) -> str:
    """One letter per script (lower-case if alphabetic, upper-case if unspaced), stable."""
    code = _SCRIPT_CODES.get(script)
    if code is None:
        index = len(_SCRIPT_CODES) % 26
        code = chr((ord("A") if script in _UNSPACED else ord("a")) + index)
        _SCRIPT_CODES[script] = code
    return code


@lru_cache(maxsize=8192)
def _char_class(char: str) -> tuple[str, str]:
    """(script string class, case string class) of a character, see above."""
    if char == _REPLACEMENT:
        return "#", " "
    if char.isalpha():
        case = "u" if char.isupper() else "l" if char.islower() else " "
        return _script_code(_script(char)), case
    category = unicodedata.category(char)
    if category[0] == "C" and not char.isascii():
        return "#", " "
    if char.isascii() or category in _GLUE_OK:
        return " ", " "
    return "!", " "


class _Language:
    __slots__ = ("ascii", "letters", "scripts", "tables")

    def __init__(self, tables: list[str]) -> None:
        #: Its frequency tables, each most frequent first (Japanese has three: kanji,
        #: katakana, hiragana, whose orders do not compare).
        self.tables = tuple(tuple(dict.fromkeys(table)) for table in tables)
        self.letters = tuple(dict.fromkeys("".join(tables)))
        self.scripts = tuple({_script(c) for c in self.letters})
        #: Its frequent ASCII letters, when the language is written in Latin letters.
        latin = "LATIN" in self.scripts
        self.ascii = frozenset(c for c in self.letters if c.isascii()) if latin else None


@lru_cache(maxsize=1)
def _languages() -> tuple[_Language, ...]:
    from charset_normalizer.constant import FREQUENCIES

    # "Japanese", "Japanese—", "Japanese——": kanji, katakana, hiragana: one language.
    merged: dict[str, list[str]] = {}
    for name, letters in FREQUENCIES.items():
        merged.setdefault(name.rstrip("—"), []).append("".join(letters))
    return tuple(_Language(tables) for tables in merged.values())


def _sample(data: bytes) -> bytes:
    """The words of ``data`` that hold a non-ASCII byte, joined, up to `SAMPLE_BYTES`.
    (Split first, then filtered: a pattern that looked for the byte inside a word would rescan
    a long ASCII run from each of its positions.)"""
    words: list[bytes] = []
    size = 0
    for word in _SPLIT.split(data):
        if word.isascii():
            continue
        words.append(word)
        size += len(word) + 1
        if size >= SAMPLE_BYTES:
            break
    return b" ".join(words)


def _agreement(language: _Language, counts: dict[str, int]) -> float:
    """How well the text's letter frequencies follow the language's order: Spearman's rho of
    the letters of each of its tables present in the text (0 when negative; 0.5, no evidence,
    with fewer than 4), averaged over the tables by their letters' counts. A decoding that
    scatters bytes over a script's letters uses them evenly; real text does not."""
    total = weighted = 0.0
    for table in language.tables:
        present = [counts[letter] for letter in table if letter in counts]
        n = len(present)
        if not n:
            continue
        rho = 0.5
        if n >= 4:
            by_count = sorted(range(n), key=lambda i: -present[i])
            d2 = sum((observed - expected) ** 2 for observed, expected in enumerate(by_count))
            rho = max(0.0, 1.0 - 6.0 * d2 / (n * (n * n - 1)))
        weight = sum(present)
        total += weight
        weighted += weight * rho
    return weighted / total if total else 0.5


def _score(text: str, ascii_letters: dict[str, int]) -> float:
    """How plausible ``text`` is as one language's text (higher is better)."""
    chars = Counter(text)
    script_table: dict[int, str] = {}
    case_table: dict[int, str] = {}
    letters: dict[str, int] = {}
    scripts: dict[str, int] = {}
    for char, count in chars.items():
        script_table[ord(char)], case_table[ord(char)] = _char_class(char)
        if char.isascii() or not char.isalpha():
            continue
        lower = char.lower()
        lower = lower if len(lower) == 1 else char  # "İ".lower() is two characters
        letters[lower] = letters.get(lower, 0) + count
        script = _script(char)
        scripts[script] = scripts.get(script, 0) + count
    classes = text.translate(script_table)
    against = _UNDECODABLE * classes.count("#")
    against += text.translate(case_table).count("lu")
    against += len(_MIXED.findall(classes))
    against += len(_GLUED.findall(classes))
    against += sum(len(run) for run in _LONG_RUN.findall(classes)) // 2
    total = sum(letters.values())
    ascii_total = sum(ascii_letters.values())
    every_letter = {**ascii_letters, **letters}
    best = float("-inf")
    for language in _languages():
        known = sum(letters.get(letter, 0) for letter in language.letters)
        fit = known * _agreement(language, every_letter) if known else 0.0
        fit -= total - sum(scripts.get(script, 0) for script in language.scripts)
        if language.ascii is not None and ascii_total:
            # The share of ASCII letters it does not expect, times the non-ASCII letters:
            # a tie-breaker between languages of one script, never more than that.
            unexpected = sum(n for c, n in ascii_letters.items() if c not in language.ascii)
            fit -= total * unexpected / ascii_total
        best = max(best, fit)
    return best - against


def detect_legacy(data: bytes) -> str | None:
    """The Python codec name of the legacy code page ``data`` (markup removed) most plausibly
    is in, or None when it holds no non-ASCII byte."""
    sample = _sample(data)
    if not sample:
        return None
    counted = Counter(sample.lower())
    ascii_letters = {chr(b): counted[b] for b in range(ord("a"), ord("z") + 1) if counted[b]}
    best_codec, best_score = None, float("-inf")
    for codec in CANDIDATES:
        text = sample.decode(codec, errors="replace")
        if text.count(_REPLACEMENT) * 50 > len(text):
            continue  # not this code page: more than 2% of its characters undecodable
        score = _score(text, ascii_letters)
        if score > best_score:
            best_codec, best_score = codec, score
    return best_codec

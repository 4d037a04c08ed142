"""Which legacy code page an undeclared page is in: every candidate decoding, judged by its text.

Used only when a page is neither UTF-8 nor declares a charset its bytes agree with (see
`decoding`). Every candidate code page decodes the same sample, the page's words that carry
non-ASCII bytes; each decoding is scored by how plausible its non-ASCII characters are as the
text of one language:

- a letter (within a word: one standing alone is no evidence) among that language's most
  frequent letters counts for it (charset-normalizer's
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

The best decoding wins; past UTF-8 and Windows-1252 (the browsers' default) a candidate must
win by a letter's worth of evidence, and a tie goes to the earlier one (`CANDIDATES` lists the
common ones first). Hand-written: charset-normalizer ranks candidates by its own mess measure
first and read French in Windows-1252 as Windows-1250 (the issue 33 benchmark,
`bench/accuracy/charsets.py`, docs/charsets.md); this scores with the language as the tie-breaker.
Bounded work: the sample is at most `SAMPLE_BYTES`, each candidate one C-speed decode, two
translations and a few linear regex scans of it.
"""

from __future__ import annotations

import codecs
import math
import re
import unicodedata
from collections import Counter
from functools import lru_cache
from typing import Final

#: Code pages tried, most common first (a tie goes to the earlier one). UTF-8 too: a UTF-8
#: page with a stray byte reaches detection (a strict decode failed).
CANDIDATES: Final = (
    "utf_8",
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
_DEFAULTS: Final = frozenset({"utf_8", "cp1252"})
#: The most of a page the detection reads.
READ_BYTES: Final = 4 * 1024 * 1024
#: The most sample the scoring reads: words with non-ASCII bytes, joined.
SAMPLE_BYTES: Final = 8 * 1024
#: Longer runs of letters are no word of an alphabetic script (CJK read as single bytes).
LONGEST_WORD: Final = 40
# Words (whitespace-delimited; markup already removed) holding a non-ASCII byte. Multibyte
# encodings never use whitespace bytes inside a character, so no character is cut.
_WORDS: Final = re.compile(rb"[^\s<>]+")
# "[^<>]", not "[^>]": with "<" * N and no ">" each "<" would scan to the end (quadratic).
_TAGS: Final = re.compile(rb"<[^<>]*>")
#: The page text whose ASCII letters are counted (the language's evidence shared by all).
_ASCII_SAMPLE: Final = 64 * 1024
_REPLACEMENT: Final = "\ufffd"
#: What an undecodable byte (or a control character) counts against a decoding: text in a code
#: page never holds the bytes it leaves undefined.
_UNDECODABLE: Final = 10
#: What an upper-case letter right after a lower-case one counts against a decoding: words
#: are capitalised at their start, not inside (KOI8-R read as Windows-1251 is "пРХБЕР").
_CASE_SHIFT: Final = 3
#: What a symbol glued to a letter counts against a decoding ("c½ur": ISO-8859-15's "œ" read
#: as Windows-1252).
_GLUED_SYMBOL: Final = 3
# Non-letters that real text glues to letters: punctuation (’ « » – …), combining marks
# (Vietnamese tones in Windows-1258), spacing marks, the no-break space, digits, format
# characters (the soft hyphen), modifier symbols ("don´t", "˜").
_GLUE_OK: Final = frozenset(
    {"Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "Mn", "Mc", "Zs", "Nd", "Cf", "Sk"}
)
# Symbols that real text glues to words ("Brand®", "20°C", "m²").
_GLUED_SYMBOLS: Final = frozenset("®™©°²³¹")
# Symbols no text uses, that other code pages put letters or the euro sign at: the generic
# currency sign (ISO-8859-15's and Windows' euro position in Latin-1) and the broken bar.
_UNUSED: Final = frozenset("¤¦")
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
# Two class strings describe a decoding, one character per character (`_char_class`). The
# script string: a letter's script code, U+0100.. for an alphabetic script, U+0200.. for one
# written without spaces (one code per script, `_script_code`); "!" a symbol that must not
# touch a letter; "#" a control, undefined or replacement character; " " anything else
# (spaces, punctuation, digits). The case string: "l" lower-case letter, "u" upper-case, " ".
_ALPHABETIC_BASE: Final = 0x100
_UNSPACED_BASE: Final = 0x200
_LETTER: Final = "[\u0100-\u02ff]"
_MIXED: Final = re.compile(f"({_LETTER})(?=(?!\\1){_LETTER})")
_GLUED: Final = re.compile(f"(?<={_LETTER})!|!(?={_LETTER})")
_ISOLATED: Final = re.compile(f"(?<!{_LETTER}){_LETTER}(?!{_LETTER})")
_LONG_RUN: Final = re.compile(f"[\\u0100-\\u01ff]{{{LONGEST_WORD + 1},}}")


@lru_cache(maxsize=4096)
def _script(char: str) -> str:
    """The script of a letter, from its Unicode name ("LATIN", "CYRILLIC", "HAN", ...)."""
    if char.isascii():
        return "LATIN"
    word = unicodedata.name(char, "?").split(" ", 1)[0].split("-", 1)[0]
    return _SCRIPT_GROUPS.get(word, word)


_SCRIPT_CODES: dict[str, str] = {}


def _script_code(script: str) -> str:
    """One character per script (alphabetic or unspaced range, see above), stable."""
    code = _SCRIPT_CODES.get(script)
    if code is None:
        base = _UNSPACED_BASE if script in _UNSPACED else _ALPHABETIC_BASE
        code = chr(base + len(_SCRIPT_CODES) % 256)
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
    if (category[0] == "C" and category != "Cf" and not char.isascii()) or char in _UNUSED:
        return "#", " "
    if category == "Nd" and not char.isascii() and not 0xFF10 <= ord(char) <= 0xFF19:
        return "!", " "  # a Thai or Arabic-Indic digit inside a word: CJK bytes read as such
    if char.isascii() or category in _GLUE_OK or char in _GLUED_SYMBOLS:
        return " ", " "
    return "!", " "


#: Languages of the code pages above that charset-normalizer's tables lack, in the same form
#: (letters most frequent first; hand-written from published letter frequencies).
_MORE_FREQUENCIES: Final = {
    "Latvian": "aisetrnuokāmlpdjvzēgbīcšūņļžčģfķh",
}
#: The rest of each language's alphabet, after its frequency table (which stops at its ~26
#: most frequent letters): letters rare in the language, but its own. Hand-written from the
#: languages' alphabets (no words), so that "ő" counts for Hungarian and "ñ" for Spanish.
_RARE_LETTERS: Final = {
    "French": "çêîôûùëïâœÿæ",
    "Spanish": "ñéúü",
    "Portuguese": "õêôàü",
    "Italian": "éìùî",
    "German": "ß",
    "Dutch": "éèïöü",
    "Polish": "śżźćń",
    "Czech": "šžčůúýňťď",
    "Slovak": "šžčľťďňôäĺŕ",
    "Hungarian": "őűóüúí",
    "Romanian": "şţ",
    "Turkish": "öâîû",
    "Lithuanian": "čęū",
    "Croatian": "ćđ",
    "Slovene": "ć",
    "Estonian": "šž",
    "Finnish": "åšž",
    "Swedish": "é",
    "Danish": "é",
    "Norwegian": "é",
    "Greek": "φβξψζϊϋΐΰώ",
    "Russian": "шюэщфъё",
    "Ukrainian": "єґщшжюф",
    "Bulgarian": "юшф",
    "Serbian": "ђћљњџжшчћ",
}


class _Language:
    __slots__ = ("ascii", "letters", "scripts", "sets", "tables")

    def __init__(self, tables: list[str]) -> None:
        #: Its frequency tables, each most frequent first (Japanese has three: kanji,
        #: katakana, hiragana, whose orders do not compare).
        self.tables = tuple(tuple(dict.fromkeys(table)) for table in tables)
        self.sets = tuple(frozenset(table) for table in self.tables)
        self.letters = tuple(dict.fromkeys("".join(tables)))
        self.scripts = tuple({_script(c) for c in self.letters})
        #: Its frequent ASCII letters, when the language is written in Latin letters.
        latin = "LATIN" in self.scripts
        self.ascii = frozenset(c for c in self.letters if c.isascii()) if latin else None


@lru_cache(maxsize=1)
def _languages() -> tuple[_Language, ...]:
    from charset_normalizer.constant import FREQUENCIES
    from w3lib.encoding import DEFAULT_ENCODING_TRANSLATION

    # A codec's module loads at its first lookup: load every candidate's, and those w3lib maps
    # declared labels to, with the tables (the first detection), not in a later extraction,
    # which reads no file (tests/test_pathological.py's sandbox warms up with one detection).
    for codec in (*CANDIDATES, *DEFAULT_ENCODING_TRANSLATION.values()):
        codecs.lookup(codec)

    # "Japanese", "Japanese—", "Japanese——": kanji, katakana, hiragana: one language.
    merged: dict[str, list[str]] = {}
    for name, letters in (*FREQUENCIES.items(), *_MORE_FREQUENCIES.items()):
        merged.setdefault(name.rstrip("—"), []).append("".join(letters))
    for name, rare in _RARE_LETTERS.items():
        if name in merged:
            merged[name][0] += rare  # after the frequent ones: they rank last
    return tuple(_Language(tables) for tables in merged.values())


def _sample(data: bytes) -> bytes:
    """The words of ``data`` that hold a non-ASCII byte, joined, up to `SAMPLE_BYTES`.
    (Words first, then filtered: a pattern that looked for the byte inside a word would rescan
    a long ASCII run from each of its positions.)"""
    words: list[bytes] = []
    size = 0
    for match in _WORDS.finditer(data):
        word = match.group()
        if word.isascii():
            continue
        words.append(word[: SAMPLE_BYTES - size])  # a cut character is one replacement
        size += len(word) + 1
        if size >= SAMPLE_BYTES:
            break
    return b" ".join(words)


def _known(language: _Language, letters: dict[str, int], every: dict[str, int]) -> float:
    """The text's non-ASCII letters among the language's frequent ones, each table's count
    weighted by how well the text's frequencies follow that table's order (`_agreement`)."""
    known = 0.0
    for table, members in zip(language.tables, language.sets, strict=True):
        if len(letters) < len(table):
            count = sum(n for letter, n in letters.items() if letter in members)
        else:
            count = sum(letters.get(letter, 0) for letter in table)
        if count:
            known += count * _agreement(table, every)
    return known


#: Distinct letters' worth of prior belief in an agreement of `_NEUTRAL_AGREEMENT`: few
#: letters say little about an order.
_PRIOR_LETTERS: Final = 8
_NEUTRAL_AGREEMENT: Final = 0.3


def _agreement(table: tuple[str, ...], counts: dict[str, int]) -> float:
    """How well the text's letter frequencies follow a frequency table's order: Spearman's rho
    of the table's letters present in the text, shrunk towards a neutral 0.3 when few distinct
    ones are.
    A decoding that scatters bytes over a script's letters uses them evenly; real text does
    not."""
    present = [counts[letter] for letter in table if letter in counts]
    rho = _rank_correlation(present) if len(present) >= 4 else None
    if rho is None:
        return _NEUTRAL_AGREEMENT
    # Weighted by the distinct letters seen, not their count: a sentence repeated a thousand
    # times says no more about an order than the sentence once.
    weight = len(present)
    return (weight * rho + _PRIOR_LETTERS * _NEUTRAL_AGREEMENT) / (weight + _PRIOR_LETTERS)


def _rank_correlation(counts: list[int]) -> float | None:
    """Spearman's rho between the order of ``counts`` (a table's order) and their size
    (ties share their average rank; negative: 0; all tied: None, no evidence)."""
    n = len(counts)
    order = sorted(range(n), key=lambda i: -counts[i])
    ranks = [0.0] * n
    start = 0
    while start < n:
        end = start
        while end + 1 < n and counts[order[end + 1]] == counts[order[start]]:
            end += 1
        for position in range(start, end + 1):
            ranks[order[position]] = (start + end) / 2
        start = end + 1
    mean = (n - 1) / 2
    covariance = sum((i - mean) * (rank - mean) for i, rank in enumerate(ranks))
    spread = sum((rank - mean) ** 2 for rank in ranks)
    if spread == 0:
        return None
    expected = sum((i - mean) ** 2 for i in range(n))
    return max(0.0, covariance / math.sqrt(spread * expected))


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
    # A letter standing alone ("(Ł40)", "Š2023": Windows-1252's "£" and "©" read as Central
    # European) is no evidence for a language: only letters within words count.
    for match in _ISOLATED.finditer(classes):
        char = text[match.start()]
        if char.isascii():
            continue
        lower = char.lower()
        lower = lower if len(lower) == 1 else char
        letters[lower] -= 1
        scripts[_script(char)] -= 1
    against = _UNDECODABLE * classes.count("#")
    against += _CASE_SHIFT * text.translate(case_table).count("lu")
    against += len(_MIXED.findall(classes))
    against += _GLUED_SYMBOL * len(_GLUED.findall(classes))
    against += sum(len(run) for run in _LONG_RUN.findall(classes)) // 2
    total = sum(letters.values())
    ascii_total = sum(ascii_letters.values())
    every_letter = {**ascii_letters, **letters}
    best = float("-inf")
    for language in _languages():
        in_script = sum(scripts.get(script, 0) for script in language.scripts)
        if total and not in_script:
            best = max(best, -float(total))  # none of its letters: all of another script
            continue
        fit = _known(language, letters, every_letter) - (total - in_script)
        if language.ascii is not None and ascii_total:
            # The share of ASCII letters it does not expect, times the non-ASCII letters:
            # a tie-breaker between languages of one script, never more than that.
            unexpected = sum(n for c, n in ascii_letters.items() if c not in language.ascii)
            fit -= total * unexpected / ascii_total
        best = max(best, fit)
    return best - against


def _without_elements(data: bytes, name: bytes) -> bytes:
    """``data`` without its ``<name>...</name>`` elements (scripts, styles: no text of the
    page's language). Linear: each opening tag is found once, and so is its end."""
    lowered = data.lower()
    opening, closing = b"<" + name, b"</" + name
    parts: list[bytes] = []
    position = 0
    while True:
        start = lowered.find(opening, position)
        if start < 0:
            parts.append(data[position:])
            break
        parts.append(data[position:start])
        end = lowered.find(closing, start)
        if end < 0:
            break
        position = end + len(closing)
    return b" ".join(parts)


def detect_legacy(data: bytes) -> str | None:
    """The Python codec name of the legacy code page the page ``data`` most plausibly is in,
    or None when its text holds no non-ASCII byte."""
    data = data[:READ_BYTES]
    text = _TAGS.sub(b" ", _without_elements(_without_elements(data, b"script"), b"style"))
    # The text's words; without any, the attribute values' (alt, title: the page's language).
    sample = _sample(text) or _sample(data)
    if not sample:
        return None
    # The page's ASCII letters (the same in every candidate): the language's other evidence.
    counted = Counter(text[:_ASCII_SAMPLE].lower())
    ascii_letters = {chr(b): counted[b] for b in range(ord("a"), ord("z") + 1) if counted[b]}
    best_codec, best_score = None, float("-inf")
    for rank, codec in enumerate(CANDIDATES):
        decoded = sample.decode(codec, errors="replace")
        if decoded.count(_REPLACEMENT) * 50 > len(decoded):
            continue  # not this code page: more than 2% of its characters undecodable
        # A prior: past UTF-8 and Windows-1252 (the browsers' default), a candidate must win by
        # a letter's worth of evidence, and a tie goes to the more common code page.
        prior = 0.0 if codec in _DEFAULTS else 1.0 + rank / 100
        score = _score(decoded, ascii_letters) - prior
        if score > best_score:
            best_codec, best_score = codec, score
    return best_codec

"""The page's language: what the markup declares, checked against the text; the text's script or
a language identifier (py3langid) where the markup says nothing or the text contradicts it.

Order of evidence (`page_language`), over a bounded sample of the body (`_sample`: its first
`SAMPLE_CHARS` characters, or three pieces spread over a long body; the title and description
after a short one):

1. The script, where it decides: Hangul is Korean, Kana Japanese, Han without Kana Chinese, Thai
   script Thai, Greek Greek, ... (`_DECISIVE_SCRIPTS`). A declaration that disagrees with such a
   script is overruled (a Chinese page declaring ``lang="en"`` is Chinese).
2. The markup (``<html lang>``, ``content-language``, ``og:locale``), when the language it
   declares is written in the script most of the text is in (Latin, Cyrillic, Arabic,
   Devanagari) and the identifier, on the sample's first `CHECK_CHARS` characters, does not
   plainly read another language (`_contradicts`: a template's ``lang="en"`` on a Spanish
   article is Spanish).
3. The identifier on the sample, where the markup declares nothing or a language of another
   script than the text's. Without markup, a page with text enough always gets its best guess;
   placeholder text (lorem ipsum, which it reads as Latin) never decides (`_FILLER`). Without
   py3langid this step and the check in 2 are skipped.

The identifier is py3langid's model scored with numpy (`language_id`; the library's own Python
loop costs about 1 µs per character): about 0.1 ms for the check, paid on every page whose
markup the script does not settle. It is loaded on first use (about 1 s and 90 MB per process,
once).
"""

from __future__ import annotations

import logging
import re
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Final

from newsspider.core_loader import CompiledTwin
from newsspider.extraction.metadata.language_id import Identifier

__all__ = ["SAMPLE_CHARS", "identify_language", "page_language", "script_language"]

logger = logging.getLogger(__name__)

#: Characters of text the script test and the identifier read: enough for a stable answer
#: (accuracy stops rising above a few hundred characters), bounded for cost.
SAMPLE_CHARS: Final = 600
#: Fewer letters than this: too little text to judge; the markup stands (or nothing is said).
MIN_LETTERS: Final = 25
#: Pieces a long body's sample is taken in (`_sample`).
_PIECES: Final = 3
#: Characters the identifier reads to check a declaration in the text's script.
CHECK_CHARS: Final = 200
#: An identifier guess below this probability does not count where something is declared.
_MIN_GUESS: Final = 0.5
#: Without markup, a guess under `_MIN_GUESS` is still reported from this many letters.
_ENOUGH_LETTERS: Final = 100
#: A declaration in the text's script is overruled by a guess at least this probable that gives
#: the declared language less than `_DECLARED_NO_CHANCE`.
_OVERRULE: Final = 0.95
_DECLARED_NO_CHANCE: Final = 0.01
#: The identifier's answers for placeholder text rather than a language: lorem ipsum reads as
#: Latin. Such an answer never overrules markup, and without markup the title and description
#: decide instead.
_FILLER: Final = frozenset({"la"})

# Scripts that name the language by themselves: (first code point, last code point, language).
# Hand-written data (the Unicode block ranges); Latin, Cyrillic, Arabic and Devanagari are
# shared by many languages and are left to the identifier.
_DECISIVE_SCRIPTS: Final[tuple[tuple[int, int, str], ...]] = (
    (0x0370, 0x03FF, "el"),  # Greek
    (0x0530, 0x058F, "hy"),  # Armenian
    (0x0590, 0x05FF, "he"),  # Hebrew
    (0x0980, 0x09FF, "bn"),  # Bengali
    (0x0A00, 0x0A7F, "pa"),  # Gurmukhi
    (0x0A80, 0x0AFF, "gu"),  # Gujarati
    (0x0B00, 0x0B7F, "or"),  # Oriya
    (0x0B80, 0x0BFF, "ta"),  # Tamil
    (0x0C00, 0x0C7F, "te"),  # Telugu
    (0x0C80, 0x0CFF, "kn"),  # Kannada
    (0x0D00, 0x0D7F, "ml"),  # Malayalam
    (0x0D80, 0x0DFF, "si"),  # Sinhala
    (0x0E00, 0x0E7F, "th"),  # Thai
    (0x0E80, 0x0EFF, "lo"),  # Lao
    (0x0F00, 0x0FFF, "bo"),  # Tibetan
    (0x1000, 0x109F, "my"),  # Myanmar
    (0x10A0, 0x10FF, "ka"),  # Georgian
    (0x1100, 0x11FF, "ko"),  # Hangul Jamo
    (0x1200, 0x139F, "am"),  # Ethiopic
    (0x1780, 0x17FF, "km"),  # Khmer
    (0x3040, 0x30FF, "ja"),  # Hiragana, Katakana
    (0x3130, 0x318F, "ko"),  # Hangul compatibility Jamo
    (0x31F0, 0x31FF, "ja"),  # Katakana phonetic extensions
    (0x3400, 0x4DBF, "zh"),  # CJK extension A
    (0x4E00, 0x9FFF, "zh"),  # CJK unified ideographs
    (0xAC00, 0xD7AF, "ko"),  # Hangul syllables
    (0xF900, 0xFAFF, "zh"),  # CJK compatibility ideographs
    (0xFF66, 0xFF9F, "ja"),  # half-width Katakana
)
_STARTS: Final = [start for start, _, _ in _DECISIVE_SCRIPTS]
_DECISIVE_RE: Final = re.compile(
    "[" + "".join(f"\\u{a:04x}-\\u{b:04x}" for a, b, _ in _DECISIVE_SCRIPTS) + "]"
)
#: Runs of characters that are no letters (the complement of ``[^\W\d_]``, letters).
_NOT_LETTERS_RE: Final = re.compile(r"[\W\d_]+")
_DECISIVE_LANGS: Final = [lang for _, _, lang in _DECISIVE_SCRIPTS]


def _lead_bytes(first: int, last: int) -> range:
    """The UTF-8 lead bytes of the code points first to last (both encoded with as many
    bytes, as every range of `_DECISIVE_SCRIPTS` is: lead bytes grow with the code point)."""
    return range(chr(first).encode()[0], chr(last).encode()[0] + 1)


#: Every byte but the lead bytes of the decisive scripts' characters (`script_language`).
_NOT_DECISIVE_LEADS: Final = bytes(
    set(range(256)).difference(*(_lead_bytes(first, last) for first, last, _ in _DECISIVE_SCRIPTS))
)
#: Bytes `_letters` leaves out: ASCII non-letters and UTF-8 continuation bytes (a character
#: outside ASCII counts once, by its first byte).
_NOT_COUNTED: Final = bytes(b for b in range(256) if b < 0x80 and not chr(b).isalpha()) + bytes(
    range(0x80, 0xC0)
)
_NOT_ASCII_LETTERS: Final = bytes(b for b in range(256) if not (b < 0x80 and chr(b).isalpha()))
#: Languages written in a decisive script: a declaration of one of them on a text in another
#: script contradicts the text.
_SCRIPT_LANGUAGES: Final = frozenset(lang for _, _, lang in _DECISIVE_SCRIPTS)

#: The identifier's labels that are variants of an ISO 639-1 language, and labels that are no
#: language to report ("zxx": no linguistic content).
_LABEL_ALIASES: Final = {
    "wuu": "zh", "yue": "zh", "ary": "ar", "arz": "ar", "hbo": "he", "grc": "el", "uzs": "uz",
    "gug": "gn", "nn": "no", "nb": "no",
}  # fmt: skip
#: Deprecated ISO 639 codes still found in markup, and their current ones.
_DEPRECATED_CODES: Final = {"in": "id", "iw": "he", "ji": "yi", "jw": "jv", "mo": "ro"}
#: ISO 639-1 codes (data from the standard's list): a declaration outside it ("utf", "xx")
#: is not a language.
ISO_639_1: Final = frozenset(
    """aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv
    cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht
    hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la
    lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj
    om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg sh si sk sl sm sn so sq sr ss st su
    sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh
    zu""".split()
)
#: Three-letter codes that markup uses for languages with a two-letter code.
_THREE_LETTER: Final = {
    "fil": "tl", "zho": "zh", "chi": "zh", "eng": "en", "jpn": "ja", "kor": "ko", "rus": "ru",
    "deu": "de", "ger": "de", "fra": "fr", "fre": "fr", "spa": "es", "por": "pt", "ita": "it",
    "ara": "ar",
}  # fmt: skip


def normalise_code(code: str | None) -> str | None:
    """A declared primary language subtag as an ISO 639-1 code, or None when it is none."""
    if not code:
        return None
    code = code.lower()
    code = _DEPRECATED_CODES.get(code, _THREE_LETTER.get(code, code))
    if code in ("nb", "nn"):
        return "no"
    return code if code in ISO_639_1 else None


def _script_index(code: int) -> int:
    """The index in `_DECISIVE_SCRIPTS` of the last range starting at or before `code`
    (``bisect_right(_STARTS, code) - 1``, written out: compiled, a loop over a list of ints
    costs less than a call into the bisect module)."""
    low, high = 0, len(_STARTS)
    while low < high:
        middle = (low + high) // 2
        if code < _STARTS[middle]:
            high = middle
        else:
            low = middle + 1
    return low - 1


# The script test in C (`_language_c.ScriptReader`), built at install time with a compiler: the
# same answer as the Python code below from one pass over the code points (no regex, no
# Counter; a tenth of its instructions or less).
try:
    from newsspider.extraction.metadata import _language_c
except ImportError:  # not built: the Python code
    _language_c = None  # type: ignore[assignment]
SCRIPT_READER: Final[CompiledTwin[Callable[[str], str | None]]] = CompiledTwin(
    _language_c.ScriptReader(_DECISIVE_SCRIPTS, MIN_LETTERS // 2).language
    if _language_c is not None
    else None
)


def script_language(sample: str) -> str | None:
    """The language the sample's script names, when most of its letters are in one decisive
    script (Kana among Han: Japanese; Hangul: Korean); None for Latin, Cyrillic, Arabic, ..."""
    compiled = SCRIPT_READER.active
    if compiled is not None:
        return compiled(sample)
    if sample.isascii():
        return None
    # At most as many decisive characters as UTF-8 lead bytes of their blocks: under the count
    # that decides, the scan is not needed (most non-ASCII samples: accents, curly quotes,
    # Cyrillic; two C passes over the bytes, where the scan costs about 80,000 instructions).
    leads = sample.encode("utf-8", "surrogatepass").translate(None, _NOT_DECISIVE_LEADS)
    if len(leads) < MIN_LETTERS // 2:
        return None
    decisive = _DECISIVE_RE.findall(sample)
    if len(decisive) < MIN_LETTERS // 2:
        return None
    # The letters, counted as what is left once the runs of non-letters are cut out: one
    # string built, where a list of every letter cost about 100,000 instructions per sample.
    letters = len(_NOT_LETTERS_RE.sub("", sample))
    if 2 * len(decisive) < letters:
        return None
    # Each character's script looked up once (Counter counts in C), in the order the
    # characters first appear, so ties between scripts go to the same one as a count per
    # character would.
    per_character: dict[str, int] = Counter(decisive)
    counts: dict[str, int] = {}
    for ch, count in per_character.items():
        lang = _DECISIVE_LANGS[_script_index(ord(ch))]
        counts[lang] = counts.get(lang, 0) + count
    han, kana, hangul = counts.get("zh", 0), counts.get("ja", 0), counts.get("ko", 0)
    if hangul and hangul * 3 >= han + kana + hangul:
        return "ko"
    if kana and kana * 10 >= han + kana:
        return "ja"
    if han and han * 2 >= len(decisive):
        return "zh"
    return max(counts, key=counts.__getitem__)


# --- the identifier (optional dependency), loaded once per process on first use --------------

_LOAD_LOCK: Final = threading.Lock()
#: [ranking function] once loaded, [None] when py3langid is missing.
_identifier: list[Callable[[str], list[tuple[str, float]]] | None] = []


def _load() -> Callable[[str], list[tuple[str, float]]] | None:
    try:
        from py3langid.langid import MODEL_FILE, LanguageIdentifier
    except ImportError:
        return None
    try:
        model: Any = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    except Exception:  # a broken install: markup and script still work
        logger.exception("newsspider: loading the language identifier failed")
        return None
    try:
        fast = Identifier(model)
        if fast.verified():
            return fast.rank
    except Exception:  # another model layout: the library's own ranking, slower
        logger.debug("newsspider: py3langid's model read by the library itself", exc_info=True)
    logger.info("newsspider: language identification through py3langid's own (slower) ranking")
    rank: Callable[[str], list[tuple[str, float]]] = model.rank
    return rank


def _model() -> Callable[[str], list[tuple[str, float]]] | None:
    if not _identifier:
        with _LOAD_LOCK:
            if not _identifier:
                _identifier.append(_load())
    return _identifier[0]


def identifier_available() -> bool:
    """Whether the language identifier (py3langid) is installed and loads."""
    return _model() is not None


def identify_language(sample: str) -> list[tuple[str, float]]:
    """The identifier's ranking of ISO 639-1 languages for ``sample`` (best first, with their
    probabilities), or [] without the identifier or enough letters."""
    rank = _model()
    if rank is None or _letters(sample[:SAMPLE_CHARS]) < MIN_LETTERS:
        return []
    ranked: list[tuple[str, float]] = []
    seen: set[str] = set()
    for label, prob in rank(sample[:SAMPLE_CHARS]):
        code = _LABEL_ALIASES.get(label, label)
        if code in ISO_639_1 and code not in seen:
            seen.add(code)
            ranked.append((code, float(prob)))
    return ranked


def _sample(texts: Sequence[str | None]) -> str:
    """`SAMPLE_CHARS` characters of the texts, in order (body first), whitespace collapsed.

    A body longer than twice that gives three pieces, from its start, a third and two thirds in:
    what opens a body is not always its language (a PHP warning, an embedded English tweet, a
    photo credit), and pieces from its length outvote it."""
    body = texts[0] if texts else None
    if body and len(body) > 2 * SAMPLE_CHARS:
        size, piece = len(body), SAMPLE_CHARS // _PIECES
        starts = [k * size // _PIECES for k in range(_PIECES)]
        spread = " ".join(body[start : start + piece] for start in starts)
        return " ".join(spread.split())
    pieces: list[str] = []
    size = 0
    for text in texts:
        if text:
            pieces.append(text[: SAMPLE_CHARS - size])
            size += len(pieces[-1])
            if size >= SAMPLE_CHARS:
                break
    return " ".join(" ".join(pieces).split())


# Languages of the scripts many languages share, and those scripts' letters: a declaration whose
# script is not the text's contradicts the text (Russian declared on an English text).
_CYRILLIC_LANGUAGES: Final = frozenset(
    "ru uk bg sr mk be kk ky mn tg tt ba cv ce os ab av kv".split()
)
_ARABIC_LANGUAGES: Final = frozenset("ar fa ur ps sd ug ks".split())
_DEVANAGARI_LANGUAGES: Final = frozenset("hi mr ne sa".split())
_SHARED_SCRIPTS: Final = (
    ("cyrillic", re.compile("[\u0400-\u04ff]"), _CYRILLIC_LANGUAGES),
    ("arabic", re.compile("[\u0600-\u06ff\u0750-\u077f]"), _ARABIC_LANGUAGES),
    ("devanagari", re.compile("[\u0900-\u097f]"), _DEVANAGARI_LANGUAGES),
)
_LATIN_RE: Final = re.compile("[a-zA-Z\u00c0-\u024f]")


def _declared_script_fits(markup: str, sample: str) -> bool:
    """Whether the declared language is written in the script most of the sample is in (the
    scripts many languages share: Latin, Cyrillic, Arabic, Devanagari)."""
    expected = next((name for name, _, langs in _SHARED_SCRIPTS if markup in langs), "latin")
    if sample.isascii():
        return expected == "latin" or not sample.strip()
    half = len(sample) / 2
    if _ascii_letters(sample) >= half or len(_LATIN_RE.findall(sample)) >= half:
        return expected == "latin"
    counts = {name: len(letters.findall(sample)) for name, letters, _ in _SHARED_SCRIPTS}
    counts["latin"] = len(_LATIN_RE.findall(sample))
    return max(counts, key=counts.__getitem__) == expected


def _guess(sample: str) -> tuple[str, float] | None:
    """The identifier's best language for the sample and its probability; None without one,
    or when the sample reads as filler (`_FILLER`)."""
    ranked = identify_language(sample)
    if not ranked or ranked[0][0] in _FILLER:
        return None
    return ranked[0]


def _body_guess(texts: Sequence[str | None], sample: str) -> tuple[str, float] | None:
    """The identifier's answer from the sample (the body first); where the body reads as filler
    or says nothing, from the title and description alone."""
    guess = _guess(sample)
    if (
        (guess is None or (guess[1] < _MIN_GUESS and _letters(sample) < _ENOUGH_LETTERS))
        and texts
        and texts[0]
    ):
        # Filler, or a weak guess on little text: the title and description may say more.
        other = _guess(_sample(texts[1:]))
        if other is not None and (guess is None or other[1] > guess[1]):
            return other
    return guess


def _letters(text: str) -> int:
    """About how many letters the text has: its characters less ASCII spaces, digits and
    punctuation (other characters all count; two C passes over its bytes, where a regex over
    its characters costs 50-100 µs per 600)."""
    return len(text.encode("utf-8", "surrogatepass").translate(None, _NOT_COUNTED))


def _ascii_letters(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass").translate(None, _NOT_ASCII_LETTERS))


def page_language(declared: str | None, texts: Sequence[str | None]) -> str | None:
    """The page's language (ISO 639-1) from its declared primary subtag and its texts (the body
    first, then the title and description when the body is short).

    The identifier runs where the markup declares nothing or a language of another script than
    the text's, and, on a shorter sample (`CHECK_CHARS`), to check a declaration in the text's
    script (`_contradicts`)."""
    markup = normalise_code(declared)
    sample = _sample(texts)
    script = script_language(sample)
    if script is not None:
        # The script decides; a declaration of another language is a template default.
        return markup if markup == script else script
    if (
        markup is not None
        and markup not in _SCRIPT_LANGUAGES
        and _declared_script_fits(markup, sample)
    ):
        return _contradicts(markup, sample) or markup
    guess = _body_guess(texts, sample)
    if guess is None:
        return markup
    best, prob = guess
    if best == markup or prob >= _MIN_GUESS:
        return best
    if _letters(sample) >= _ENOUGH_LETTERS:
        # Nothing declared, or a language of another script than the text's, and text enough:
        # the identifier's best guess, however unsure.
        return best
    return markup


def _contradicts(markup: str, sample: str) -> str | None:
    """The language the text is plainly in when it is not the declared one (a template's
    ``lang="en"`` on a Spanish article), else None.

    A first look at `CHECK_CHARS` characters; only where that doubts the declaration, the whole
    sample decides, and only a confident answer (`_OVERRULE`) that leaves the declared language
    next to no chance overrules it."""
    first = identify_language(sample[:CHECK_CHARS])
    if not first or first[0][0] == markup or first[0][1] < _MIN_GUESS:
        return None
    ranked = identify_language(sample) if len(sample) > CHECK_CHARS else first
    if not ranked:
        return None
    best, prob = ranked[0]
    declared_prob = dict(ranked).get(markup, 0.0)
    if (
        best != markup
        and best not in _FILLER
        and prob >= _OVERRULE
        and declared_prob < _DECLARED_NO_CHANCE
    ):
        return best
    return None

# cython: language_level=3, boundscheck=False, wraparound=False
"""Shared character grams in C: `confidence`'s agreement measures (the body's opening against
the title and the description, the body against the page's JSON-LD articleBody).

    gram_share(reference, text, size)  (distinct `size`-character grams of `reference`, how many
                                        of them occur in `text`)
    squashed(text, limit)              the grams' text: ``text[:limit]`` without whitespace,
                                        case folded (`confidence._squashed`)

The Python versions slice a str per gram and search or hash it (about half a million
instructions a page on a 3,000-character opening); here every gram is packed into two 64-bit
words and kept in an open-addressing table, so the same counts cost a small part of that.
`tests/test_compiled_walk.py` compares both on generated text.

The two tables live as long as the module and are reused: a slot counts as filled only when it
carries the current call's stamp, so no call clears or allocates a table (a fresh 100 kB table
per call cost more than the counting); the text's table even outlives its call, for the next
call about the same text. The GIL is held throughout, so threads never share them.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc
from cpython.unicode cimport Py_UNICODE_ISSPACE
from libc.stdint cimport uint32_t, uint64_t
from libc.string cimport memset


cdef extern from "Python.h":
    int PyUnicode_KIND(object text)
    void* PyUnicode_DATA(object text)
    Py_UCS4 PyUnicode_READ(int kind, void* data, Py_ssize_t index) nogil
    object PyUnicode_FromKindAndData(int kind, const void* buffer, Py_ssize_t size)
    int PyUnicode_4BYTE_KIND


cdef enum:
    MAX_SIZE = 4  # two code points a word


cdef struct _Slot:
    uint64_t high
    uint64_t low
    uint32_t stamp


cdef struct _Table:
    _Slot* slots
    Py_ssize_t capacity  # a power of two, or 0
    uint32_t stamp  # the current call's: a slot with another one is empty


cdef _Table _text_grams, _wanted_grams
# The text (and gram size) whose grams `_text_grams` holds: asked about the same text again
# (the title, then the description, against one body opening), a call counts only the
# reference's grams. Held, so the str cannot be freed and another take its address.
cdef object _counted_text = None
cdef int _counted_size = 0


cdef int _start(_Table* table, Py_ssize_t count) except -1:
    """Make the table ready for ``count`` grams (at most half full) and empty it."""
    cdef Py_ssize_t capacity = table.capacity if table.capacity else 64
    cdef _Slot* grown
    while capacity < 2 * count:
        capacity *= 2
    if capacity != table.capacity:
        grown = <_Slot*> PyMem_Realloc(table.slots, capacity * sizeof(_Slot))
        if grown is NULL:
            raise MemoryError()
        memset(grown, 0, capacity * sizeof(_Slot))
        table.slots, table.capacity, table.stamp = grown, capacity, 0
    table.stamp += 1
    if table.stamp == 0:  # wrapped: old stamps could read as current
        memset(table.slots, 0, table.capacity * sizeof(_Slot))
        table.stamp = 1
    return 0


cdef inline _Slot* _find(_Table* table, uint64_t high, uint64_t low) noexcept:
    """The gram's slot: filled with it, or the empty one where it would go."""
    cdef uint64_t mixed = (high * 0x9E3779B97F4A7C15ULL) ^ (low * 0xC2B2AE3D27D4EB4FULL)
    cdef Py_ssize_t mask = table.capacity - 1
    cdef Py_ssize_t slot = <Py_ssize_t> ((mixed ^ (mixed >> 29)) & <uint64_t> mask)
    cdef _Slot* entry = &table.slots[slot]
    while entry.stamp == table.stamp and (entry.high != high or entry.low != low):
        slot = (slot + 1) & mask
        entry = &table.slots[slot]
    return entry


cdef inline void _pack(
    int kind, void* data, Py_ssize_t start, int size, uint64_t* high, uint64_t* low
) noexcept:
    # Code points are at most 21 bits: two fit a word with room to spare.
    cdef uint64_t words[MAX_SIZE]
    cdef int i
    for i in range(MAX_SIZE):
        words[i] = PyUnicode_READ(kind, data, start + i) if i < size else 0
    high[0] = (words[0] << 32) | words[1]
    low[0] = (words[2] << 32) | words[3]


cdef inline void _shift_in(uint64_t point, int size, uint64_t* high, uint64_t* low) noexcept:
    """The next gram from the one before: its first code point out, ``point`` in last (one
    read a gram where `_pack` makes `size`)."""
    if size == 4:
        high[0] = (high[0] << 32) | (low[0] >> 32)
        low[0] = (low[0] << 32) | point
    elif size == 3:
        high[0] = (high[0] << 32) | (low[0] >> 32)
        low[0] = point << 32
    elif size == 2:
        high[0] = (high[0] << 32) | point
    else:
        high[0] = point << 32


def gram_share(str reference, str text, int size):
    """(distinct `size`-character grams of `reference`, how many of them occur in `text`)."""
    if not 1 <= size <= MAX_SIZE:
        raise ValueError("gram size must be 1 to 4")
    cdef Py_ssize_t wanted_count = len(reference) - size + 1
    cdef Py_ssize_t text_count = max(len(text) - size + 1, 0)
    if wanted_count <= 0:
        return 0, 0
    cdef int text_kind = PyUnicode_KIND(text), reference_kind = PyUnicode_KIND(reference)
    cdef void* text_data = PyUnicode_DATA(text)
    cdef void* reference_data = PyUnicode_DATA(reference)
    cdef Py_ssize_t i, distinct = 0, found = 0
    cdef uint64_t high, low
    cdef _Slot* entry
    global _counted_text, _counted_size
    if text is not _counted_text or size != _counted_size:
        _counted_text = None  # until the table is whole
        _start(&_text_grams, text_count)
        for i in range(text_count):
            if i == 0:
                _pack(text_kind, text_data, 0, size, &high, &low)
            else:
                _shift_in(PyUnicode_READ(text_kind, text_data, i + size - 1), size, &high, &low)
            entry = _find(&_text_grams, high, low)
            entry.high, entry.low, entry.stamp = high, low, _text_grams.stamp
        _counted_text, _counted_size = text, size
    _start(&_wanted_grams, wanted_count)
    for i in range(wanted_count):
        if i == 0:
            _pack(reference_kind, reference_data, 0, size, &high, &low)
        else:
            _shift_in(
                PyUnicode_READ(reference_kind, reference_data, i + size - 1), size, &high, &low
            )
        entry = _find(&_wanted_grams, high, low)
        if entry.stamp == _wanted_grams.stamp:
            continue  # a gram seen before
        entry.high, entry.low, entry.stamp = high, low, _wanted_grams.stamp
        distinct += 1
        if _find(&_text_grams, high, low).stamp == _text_grams.stamp:
            found += 1
    return distinct, found


cdef inline uint32_t _simple_fold(uint32_t c) noexcept:
    """``c.casefold()`` when it is one character known here (ASCII, Latin-1, basic Cyrillic,
    and blocks without case: punctuation, CJK, kana, hangul, ...), else 0: then Python folds.
    `tests/test_confidence.py` checks every code point against str.casefold."""
    if c < 0x80:
        return c + 32 if 65 <= c <= 90 else c
    if c < 0x100:
        if c == 0xB5 or c == 0xDF:  # micro sign -> mu, sharp s -> "ss"
            return 0
        return c + 32 if 0xC0 <= c <= 0xDE and c != 0xD7 else c
    if 0x4E00 <= c <= 0x9FFF:  # CJK ideographs first: most characters of CJK text
        return c
    if 0x400 <= c <= 0x45F:
        return c + 80 if c < 0x410 else c + 32 if c < 0x430 else c
    if 0xFF01 <= c <= 0xFFEF:  # full- and halfwidth forms: CJK text's punctuation and digits
        return c + 32 if 0xFF21 <= c <= 0xFF3A else c
    if (
        0x2000 <= c <= 0x20CF  # general punctuation, super- and subscripts, currency
        or 0x3000 <= c <= 0x30FF  # CJK punctuation, hiragana, katakana
        or 0x2190 <= c <= 0x24B5  # arrows, mathematical and technical signs (not circled A-Z)
        or 0x24D0 <= c <= 0x2BFF  # circled a-z and numbers, box drawing, shapes, symbols
        or 0xFE00 <= c <= 0xFEFF  # variation selectors, CJK and small forms, arabic forms
        or 0xAC00 <= c <= 0xD7A3  # hangul syllables
        or 0x0590 <= c <= 0x06FF  # hebrew, arabic
        or 0x0900 <= c <= 0x0E7F  # the indic scripts, thai
        or 0x1F300 <= c <= 0x1FAFF  # pictographs, emoji
    ):
        return c
    return 0


def squashed(str text, Py_ssize_t limit):
    """``"".join(text[:limit].split()).casefold()`` in one pass: whitespace dropped, each
    character folded by `_simple_fold`; only when one is not known there does Python's
    casefold run, on the squashed text. (The split and join build a str a word, and casefold
    looks every character up in the Unicode tables: about 120 instructions a character.)"""
    cdef Py_ssize_t n = min(len(text), limit), i, size = 0
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef uint32_t c, folded  # not Py_UCS4: Cython adds those as one-character strs
    cdef bint simple = True
    cdef uint32_t* kept
    if limit < 0:
        raise ValueError("the limit is a number of characters from the start")
    if n == 0:
        return ""
    kept = <uint32_t*> PyMem_Malloc(n * sizeof(uint32_t))
    if kept is NULL:
        raise MemoryError()
    try:
        for i in range(n):
            c = PyUnicode_READ(kind, data, i)
            if Py_UNICODE_ISSPACE(<Py_UCS4> c):
                continue
            folded = _simple_fold(c)
            if folded == 0:
                simple = False
                folded = c
            kept[size] = folded
            size += 1
        result = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, kept, size)
    finally:
        PyMem_Free(kept)
    # Folding is a character at a time and the known folds are final: folding again is right.
    return result if simple else result.casefold()

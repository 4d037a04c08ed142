# cython: language_level=3, boundscheck=False, wraparound=False
"""Shared character grams in C: `confidence`'s agreement measures (the body's opening against
the title and the description, the body against the page's JSON-LD articleBody).

    gram_share(reference, text, size)  (distinct `size`-character grams of `reference`, how many
                                        of them occur in `text`)

The Python versions slice a str per gram and search or hash it (about half a million
instructions a page on a 3,000-character opening); here every gram is packed into two 64-bit
words and kept in an open-addressing table, so the same counts cost a tenth of that.
`tests/test_confidence.py` compares both on generated text.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport uint64_t
from libc.string cimport memset

cdef enum:
    MAX_SIZE = 4  # two code points a word


cdef struct _Gram:
    uint64_t high
    uint64_t low
    bint used


cdef struct _Table:
    _Gram* slots
    Py_ssize_t mask


cdef int _open(_Table* table, Py_ssize_t count) except -1:
    cdef Py_ssize_t capacity = 16
    while capacity < 2 * count:
        capacity *= 2
    table.slots = <_Gram*> PyMem_Malloc(capacity * sizeof(_Gram))
    if table.slots is NULL:
        raise MemoryError()
    memset(table.slots, 0, capacity * sizeof(_Gram))
    table.mask = capacity - 1
    return 0


cdef inline Py_ssize_t _slot(const _Table* table, uint64_t high, uint64_t low) noexcept:
    cdef uint64_t mixed = (high * 0x9E3779B97F4A7C15ULL) ^ (low * 0xC2B2AE3D27D4EB4FULL)
    cdef Py_ssize_t slot = <Py_ssize_t> ((mixed ^ (mixed >> 29)) & <uint64_t> table.mask)
    while table.slots[slot].used and (
        table.slots[slot].high != high or table.slots[slot].low != low
    ):
        slot = (slot + 1) & table.mask
    return slot


cdef inline void _pack(str text, Py_ssize_t start, int size, uint64_t* high, uint64_t* low):
    # Code points are at most 21 bits: two fit a word with room to spare.
    cdef uint64_t words[MAX_SIZE]
    cdef int i
    for i in range(MAX_SIZE):
        words[i] = <uint64_t> (<Py_UCS4> text[start + i]) if i < size else 0
    high[0] = (words[0] << 32) | words[1]
    low[0] = (words[2] << 32) | words[3]


def gram_share(str reference, str text, int size):
    """(distinct `size`-character grams of `reference`, how many of them occur in `text`)."""
    if not 1 <= size <= MAX_SIZE:
        raise ValueError("gram size must be 1 to 4")
    cdef Py_ssize_t wanted_count = len(reference) - size + 1
    cdef Py_ssize_t text_count = len(text) - size + 1
    if wanted_count <= 0:
        return 0, 0
    cdef _Table grams, wanted
    cdef Py_ssize_t i, slot, distinct = 0, found = 0
    cdef uint64_t high, low
    grams.slots = NULL
    wanted.slots = NULL
    try:
        _open(&grams, max(text_count, 1))
        _open(&wanted, wanted_count)
        for i in range(max(text_count, 0)):
            _pack(text, i, size, &high, &low)
            slot = _slot(&grams, high, low)
            grams.slots[slot].high, grams.slots[slot].low = high, low
            grams.slots[slot].used = True
        for i in range(wanted_count):
            _pack(reference, i, size, &high, &low)
            slot = _slot(&wanted, high, low)
            if wanted.slots[slot].used:
                continue  # a gram seen before
            wanted.slots[slot].high, wanted.slots[slot].low = high, low
            wanted.slots[slot].used = True
            distinct += 1
            if grams.slots[_slot(&grams, high, low)].used:
                found += 1
    finally:
        PyMem_Free(grams.slots)
        PyMem_Free(wanted.slots)
    return distinct, found

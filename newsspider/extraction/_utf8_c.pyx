# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""UTF-8 validation without decoding: `decoding._utf8_bytes`'s compiled twin.

The Python version decodes the page a slice at a time to learn whether it is UTF-8, making a
str of every slice only to drop it (3.6% of an extraction). This reads the bytes with the
strict decoder's rules (no overlong forms, no surrogates, nothing past U+10FFFF), eight ASCII
bytes at a time."""

from libc.stdint cimport uint64_t
from libc.string cimport memcpy

cdef uint64_t _HIGH_BITS = 0x8080808080808080ULL


def complete_utf8_length(bytes data) -> int:
    """-1 when ``data`` is not UTF-8; else its length without a last character cut short
    (the bytes a strict incremental decoder holds back, as `codecs`' UTF-8 decoder does)."""
    cdef const unsigned char* s = data
    cdef Py_ssize_t n = len(data)
    cdef Py_ssize_t i = 0
    cdef Py_ssize_t start
    cdef int need
    cdef unsigned char c, low, high
    cdef uint64_t word
    while i < n:
        while i + 8 <= n:
            memcpy(&word, s + i, 8)
            if word & _HIGH_BITS:
                break
            i += 8
        if i >= n:
            break
        c = s[i]
        if c < 0x80:
            i += 1
            continue
        if c < 0xC2:
            return -1  # a continuation byte first, or an overlong two-byte form
        low = 0x80
        high = 0xBF
        if c < 0xE0:
            need = 1
        elif c < 0xF0:
            need = 2
            if c == 0xE0:
                low = 0xA0  # overlong below U+0800
            elif c == 0xED:
                high = 0x9F  # surrogates
        elif c < 0xF5:
            need = 3
            if c == 0xF0:
                low = 0x90  # overlong below U+10000
            elif c == 0xF4:
                high = 0x8F  # past U+10FFFF
        else:
            return -1
        start = i
        i += 1
        if i >= n:
            return start  # cut short after its first byte
        if s[i] < low or s[i] > high:
            if c == 0xED and 0x80 <= s[i] <= 0xBF and i + 1 == n:
                return start  # as CPython's decoder: a surrogate's start cut short is held back
            return -1
        i += 1
        need -= 1
        while need:
            if i >= n:
                return start
            if s[i] < 0x80 or s[i] > 0xBF:
                return -1
            i += 1
            need -= 1
    return n

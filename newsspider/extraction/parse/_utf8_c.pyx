# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The page's first reading in C: UTF-8 validation without decoding (`decoding._utf8_bytes`'s
compiled twin) and the noise counts of the decoded sample (`binary.mostly_not_text`'s).

The Python validation decodes the page a slice at a time to learn whether it is UTF-8, making a
str of every slice only to drop it (3.6% of an extraction). This reads the bytes with the
strict decoder's rules (no overlong forms, no surrogates, nothing past U+10FFFF), 32 ASCII
bytes at a time."""

from libc.stdint cimport uint64_t
from libc.string cimport memcpy


cdef extern from "Python.h":
    int PyUnicode_KIND(object text)
    void* PyUnicode_DATA(object text)
    ctypedef unsigned short Py_UCS2

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
    cdef uint64_t word, words[4]
    while i < n:
        # ASCII 32 bytes a step (markup is mostly ASCII, whatever the language), then 8.
        while i + 32 <= n:
            memcpy(words, s + i, 32)
            if (words[0] | words[1] | words[2] | words[3]) & _HIGH_BITS:
                break
            i += 32
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


# `binary._NOT_TEXT_RUN`'s characters below U+0100: C0 controls but whitespace and ESC, DEL,
# the C1 controls (U+FFFD, the one above, is tested apart).
cdef unsigned char _NOISE[256]


cdef void _fill_noise() noexcept:
    cdef int c
    for c in range(256):
        _NOISE[c] = c <= 0x08 or 0x0E <= c <= 0x1A or 0x1C <= c <= 0x1F or 0x7F <= c <= 0x9F


_fill_noise()


cdef inline bint _is_noise(Py_UCS4 c) noexcept:
    if c < 256:
        return _NOISE[c] != 0
    return c == 0xFFFD


def noise_runs(str text):
    """(runs of `binary._NOT_TEXT_RUN`'s characters in ``text``, those characters): a control
    character but whitespace and ESC, or U+FFFD. A table lookup a character, where the
    regular expressions cost about sixty instructions a character."""
    cdef Py_ssize_t i, n = len(text), runs = 0, chars = 0
    cdef int kind = PyUnicode_KIND(text)
    cdef const unsigned char* one
    cdef const Py_UCS2* two
    cdef const Py_UCS4* four
    cdef bint noise, in_run = False
    # A loop per kind: a text page has no noise, and its loop is a load and a test a character.
    if kind == 1:
        one = <const unsigned char*> PyUnicode_DATA(text)
        for i in range(n):
            noise = _NOISE[one[i]] != 0
            if noise:
                chars += 1
                runs += not in_run
            in_run = noise
    elif kind == 2:
        two = <const Py_UCS2*> PyUnicode_DATA(text)
        for i in range(n):
            noise = _is_noise(two[i])
            if noise:
                chars += 1
                runs += not in_run
            in_run = noise
    else:
        four = <const Py_UCS4*> PyUnicode_DATA(text)
        for i in range(n):
            noise = _is_noise(four[i])
            if noise:
                chars += 1
                runs += not in_run
            in_run = noise
    return runs, chars

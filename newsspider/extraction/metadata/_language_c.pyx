# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The language's two readings of a text in C, each twinned with the Python code it mirrors:
the identifier's feature counts (`FeatureCounts`: `language_id.Identifier`'s walk and
``numpy.unique`` of what it visits) and the script test (`ScriptReader`:
`language.script_language`).

The feature counts:

py3langid's automaton is walked one byte at a time; every state visited that carries a feature
counts it once. The Python twin walks it compiled by mypyc (each step two tuple reads and a read
of the transition array as a Python int: about 400 instructions a byte) and counts the features
with ``numpy.unique`` (a Python function of numpy's: about 60,000 instructions a call). Here the
walk is a C loop over the model's arrays (held as typed views, made once when the model loads)
and the features are sorted and run-length counted in C: the same sorted distinct features and
counts, as the int64 bytes `numpy.frombuffer` reads.

The script test: the Python version encodes the sample to count the lead bytes of the decisive
scripts, then finds the decisive characters with a regex, counts the letters by cutting out the
rest with another and counts the characters per script with a Counter (about 300,000
instructions for a CJK sample). Here one pass over the code points counts the decisive
characters per language, in the order the languages first appear, and the letters (what
``[\W\d_]`` does not match: ``str.isalnum`` without decimal digits and the underscore, sre's
own classes); the rules after the counts are the same lines.

`tests/test_language_twin.py` compares both halves with their Python twins.
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.unicode cimport Py_UNICODE_ISALNUM, Py_UNICODE_ISDECIMAL
from libc.stdint cimport int32_t, int64_t, uint32_t
from libc.stdlib cimport qsort


cdef extern from "Python.h":
    int PyUnicode_KIND(object text)
    void* PyUnicode_DATA(object text)
    bint PyUnicode_IS_ASCII(object text)
    Py_UCS4 PyUnicode_READ(int kind, void* data, Py_ssize_t index) nogil


cdef enum:
    MAX_SCRIPTS = 64
    MAX_LANGUAGES = 64


cdef int _ascending(const void* a, const void* b) noexcept nogil:
    cdef int64_t x = (<const int64_t*>a)[0]
    cdef int64_t y = (<const int64_t*>b)[0]
    return (x > y) - (x < y)


cdef class FeatureCounts:
    """The automaton's arrays as typed views: transitions (uint32, py3langid's
    ``tk_nextmove``), each state's row offset (int64, its ``tk_row`` times 256) and each state's
    feature (int32, -1 for none)."""

    cdef const uint32_t[:] moves
    cdef const int64_t[:] row_starts
    cdef const int32_t[:] outputs

    def __init__(self, moves, row_starts, outputs):
        self.moves = moves
        self.row_starts = row_starts
        self.outputs = outputs

    def counts(self, bytes data):
        """(sorted distinct features, their counts), both as int64 bytes, for the walk over
        ``data``; None when it visits no feature. An automaton that points outside its own
        arrays raises IndexError (as the Python walk would)."""
        cdef const unsigned char* s = <const unsigned char*>PyBytes_AS_STRING(data)
        cdef Py_ssize_t n = len(data)
        cdef Py_ssize_t n_moves = self.moves.shape[0]
        cdef Py_ssize_t n_states = self.row_starts.shape[0]
        cdef Py_ssize_t n_outputs = self.outputs.shape[0]
        cdef Py_ssize_t i, found = 0, distinct = 0
        cdef int64_t state = 0, move, feature
        cdef int64_t* features
        cdef int64_t* counts
        if n == 0:
            return None
        # Each feature once per byte at most; its counts beside it (twice the room).
        features = <int64_t*>PyMem_Malloc(2 * n * sizeof(int64_t))
        if features == NULL:
            raise MemoryError()
        try:
            for i in range(n):
                if state < 0 or state >= n_states:
                    raise IndexError("language model: state out of range")
                move = self.row_starts[state] + s[i]
                if move < 0 or move >= n_moves:
                    raise IndexError("language model: transition out of range")
                state = self.moves[move]
                if state >= n_outputs:
                    raise IndexError("language model: state out of range")
                feature = self.outputs[state]
                if feature >= 0:
                    features[found] = feature
                    found += 1
            if found == 0:
                return None
            qsort(features, found, sizeof(int64_t), _ascending)
            counts = features + n
            for i in range(found):
                if distinct and features[distinct - 1] == features[i]:
                    counts[distinct - 1] += 1
                else:
                    features[distinct] = features[i]
                    counts[distinct] = 1
                    distinct += 1
            return (
                PyBytes_FromStringAndSize(<char*>features, distinct * sizeof(int64_t)),
                PyBytes_FromStringAndSize(<char*>counts, distinct * sizeof(int64_t)),
            )
        finally:
            PyMem_Free(features)


cdef class ScriptReader:
    """`language.script_language` for the given decisive scripts ((first code point, last code
    point, language), ascending and not overlapping, as `language._DECISIVE_SCRIPTS`) and the
    decisive characters a sample needs (``MIN_LETTERS // 2``)."""

    cdef uint32_t firsts[MAX_SCRIPTS]
    cdef uint32_t lasts[MAX_SCRIPTS]
    cdef int language_of[MAX_SCRIPTS]
    cdef int scripts
    cdef list languages
    cdef Py_ssize_t needed
    cdef int han, kana, hangul

    def __init__(self, scripts, Py_ssize_t needed):
        cdef long first, last, previous = 0
        self.languages = []
        self.scripts = 0
        self.needed = needed
        if len(scripts) > MAX_SCRIPTS:
            raise ValueError("too many scripts")
        for script in scripts:
            first, last, language = script[0], script[1], script[2]
            if self.scripts and first <= previous:
                raise ValueError("scripts must be ascending and apart")
            if last < first:
                raise ValueError("a script's range is empty")
            if language not in self.languages:
                self.languages.append(language)
            if first < 0 or last > 0x10FFFF:
                raise ValueError("not a code point")
            self.firsts[self.scripts] = <uint32_t>first
            self.lasts[self.scripts] = <uint32_t>last
            self.language_of[self.scripts] = self.languages.index(language)
            self.scripts += 1
            previous = last
        if len(self.languages) > MAX_LANGUAGES:
            raise ValueError("too many languages")
        self.han = self._index("zh")
        self.kana = self._index("ja")
        self.hangul = self._index("ko")

    cdef int _index(self, str language):
        return self.languages.index(language) if language in self.languages else -1

    def language(self, str sample):
        """The language the sample's script names, or None (`language.script_language`)."""
        cdef int kind
        cdef void* data
        cdef Py_ssize_t n, i, decisive = 0, letters = 0
        cdef Py_ssize_t counts[MAX_LANGUAGES]
        cdef int order[MAX_LANGUAGES]
        cdef int seen = 0, low, high, middle, script, language, best
        cdef Py_ssize_t han, kana, hangul
        cdef uint32_t ch
        if PyUnicode_IS_ASCII(sample) or not self.scripts:
            return None
        kind = PyUnicode_KIND(sample)
        data = PyUnicode_DATA(sample)
        n = len(sample)
        for i in range(MAX_LANGUAGES):
            counts[i] = 0
        for i in range(n):
            ch = PyUnicode_READ(kind, data, i)
            # A letter: what ``[\W\d_]`` leaves (sre: \w is isalnum or "_", \d isdecimal).
            if ch != 95 and Py_UNICODE_ISALNUM(ch) and not Py_UNICODE_ISDECIMAL(ch):
                letters += 1
            if ch < self.firsts[0] or ch > self.lasts[self.scripts - 1]:
                continue
            # The last script starting at or before ch (`language._script_index`).
            low, high = 0, self.scripts
            while low < high:
                middle = (low + high) // 2
                if ch < self.firsts[middle]:
                    high = middle
                else:
                    low = middle + 1
            script = low - 1
            if script < 0 or ch > self.lasts[script]:
                continue
            decisive += 1
            language = self.language_of[script]
            if counts[language] == 0:
                order[seen] = language
                seen += 1
            counts[language] += 1
        if not seen or decisive < self.needed or 2 * decisive < letters:
            return None
        han = counts[self.han] if self.han >= 0 else 0
        kana = counts[self.kana] if self.kana >= 0 else 0
        hangul = counts[self.hangul] if self.hangul >= 0 else 0
        if hangul and hangul * 3 >= han + kana + hangul:
            return "ko"
        if kana and kana * 10 >= han + kana:
            return "ja"
        if han and han * 2 >= decisive:
            return "zh"
        # The most frequent, the first to appear among equals (`max` over the counts' dict).
        best = order[0]
        for i in range(1, seen):
            if counts[order[i]] > counts[best]:
                best = order[i]
        return self.languages[best]

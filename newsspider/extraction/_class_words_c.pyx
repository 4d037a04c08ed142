# cython: language_level=3, boundscheck=False, wraparound=False
"""The meaning of a class/id pair on a cache miss, compiled (`class_words._work_out` is the
reference and the fallback).

A process that crawls many sites sees most class values for the first time: the Python
version, a dozen small calls and regular expressions per value, was 14-19% of a pass over
scrapinghub_aeb's 181 pages with a cold cache. This one reads ASCII values byte by byte and
returns None for what it does not handle (a non-ASCII value, whose lower-casing can make new
ASCII letters; a class value holding a layout modifier such as "has-sidebar"), which the
Python version then works out. Both give the same tuple (tests and `bench.compiled`).
"""

from cpython.unicode cimport PyUnicode_AsUTF8AndSize, PyUnicode_DecodeASCII
from libc.string cimport memcmp, memset

cdef frozenset _positive, _overlay, _strong, _weak, _caption, _furniture
cdef frozenset _empty = frozenset()
cdef object _hidden_class = None
cdef tuple _hidden_keys = ()
cdef int _OVERLAY, _STRONG, _WEAK
# Modifier words can be worked out here only when no article or caption word is also a
# furniture word (then "the modifiers' words less furniture" keeps exactly their article and
# caption flags); `configure` checks it.
cdef bint _modifiers_here = False
# Which (length, first byte) pairs any word of the five sets has: most class tokens ("flex",
# "mt", "col") have none, and are ruled out without building a str to look up.
cdef enum:
    KNOWN_MAX_LENGTH = 32
cdef unsigned char _known[KNOWN_MAX_LENGTH][128]
cdef bint _filter = False


def configure(
    frozenset positive,
    frozenset overlay,
    frozenset strong,
    frozenset weak,
    frozenset caption,
    frozenset furniture,
    hidden_class,
    tuple hidden_keys,
    int overlay_signal,
    int strong_signal,
    int weak_signal,
):
    """The word sets and signals of `class_words`, handed over once at import."""
    global _positive, _overlay, _strong, _weak, _caption, _furniture, _hidden_class, _hidden_keys
    global _OVERLAY, _STRONG, _WEAK, _modifiers_here, _filter
    _positive, _overlay, _strong, _weak = positive, overlay, strong, weak
    _modifiers_here = positive.isdisjoint(furniture) and caption.isdisjoint(furniture)
    memset(_known, 0, sizeof(_known))
    _filter = True
    for word in positive | overlay | strong | weak | caption:
        if not (<str> word).isascii() or not 0 < len(word) < KNOWN_MAX_LENGTH:
            _filter = False  # a word the table cannot hold: look every token up
            break
        _known[len(word)][ord(word[0])] = 1
    _caption, _furniture, _hidden_class = caption, furniture, hidden_class
    _hidden_keys = hidden_keys
    _OVERLAY, _STRONG, _WEAK = overlay_signal, strong_signal, weak_signal


cdef inline bint _is_space(unsigned char c):
    # str.split()'s ASCII whitespace
    return c == 32 or (9 <= c <= 13) or (28 <= c <= 31)


cdef inline bint _is_lower(unsigned char c):
    return 97 <= c <= 122


cdef inline bint _is_upper(unsigned char c):
    return 65 <= c <= 90


cdef inline bint _is_alnum_lower(unsigned char c):
    return (97 <= c <= 122) or (48 <= c <= 57)


cdef Py_ssize_t _bem_element(const unsigned char* s, Py_ssize_t start, Py_ssize_t end,
                             Py_ssize_t* out_start):
    """`class_words._bem_element` on s[start:end]: the end of the part kept, its start in
    `out_start` (the whole word when the element is not a plain lower-case name)."""
    cdef Py_ssize_t i, element = start, stop
    # after the last "__"
    i = end - 2
    while i >= start:
        if s[i] == 95 and s[i + 1] == 95:
            element = i + 2
            break
        i -= 1
    # up to the first "--"
    stop = end
    i = element
    while i + 1 < end:
        if s[i] == 45 and s[i + 1] == 45:
            stop = i
            break
        i += 1
    # [a-z][a-z-]{2,}
    if stop - element >= 3 and _is_lower(s[element]):
        i = element + 1
        while i < stop and (_is_lower(s[i]) or s[i] == 45):
            i += 1
        if i == stop:
            out_start[0] = element
            return stop
    out_start[0] = start
    return end


cdef enum:
    POSITIVE = 1
    OVERLAY_WORD = 2
    STRONG_WORD = 4
    WEAK_WORD = 8
    CAPTION_WORD = 16


cdef int _add(const unsigned char* start, Py_ssize_t length, set furniture) except -1:
    """One token: the word sets it is in (flags), and the furniture words kept."""
    if _filter and length > 0 and (length >= KNOWN_MAX_LENGTH or not _known[length][start[0]]):
        return 0  # in no set
    cdef str token = PyUnicode_DecodeASCII(<const char*> start, length, NULL)
    cdef int flags = 0
    if token in _positive:
        flags |= POSITIVE
    if token in _overlay:
        flags |= OVERLAY_WORD
    if token in _strong:
        flags |= STRONG_WORD
    if token in _weak:
        flags |= WEAK_WORD
    if token in _caption:
        flags |= CAPTION_WORD
    if flags & (OVERLAY_WORD | STRONG_WORD | WEAK_WORD):
        furniture.add(token)
    return flags


cdef int _tokens(str value, set furniture, bytearray scratch) except -1:
    """The word sets `class_words.attribute_tokens(value)` meets (flags), its furniture words
    added to `furniture`; -1 is an error, so a non-ASCII value gives -2."""
    cdef Py_ssize_t length, i, start, stop, kept_start, word_begin, squash_len = 0
    cdef const unsigned char* s
    cdef bint bem = False, in_word = False
    cdef unsigned char c, previous
    cdef int flags = 0
    if not value.isascii():
        return -2
    s = <const unsigned char*> PyUnicode_AsUTF8AndSize(value, &length)
    i = 0
    while i + 1 < length:
        if s[i] == 95 and s[i + 1] == 95:
            bem = True
            break
        i += 1
    if len(scratch) < length:
        scratch.extend(bytes(length - len(scratch)))
    cdef unsigned char* out = scratch
    i = 0
    while i < length:
        # one whitespace-separated name: [start, stop)
        while i < length and _is_space(s[i]):
            i += 1
        if i >= length:
            break
        start = i
        while i < length and not _is_space(s[i]):
            i += 1
        stop = i
        kept_start = start
        if bem:
            stop = _bem_element(s, start, stop, &kept_start)
        # words of s[kept_start:stop]: runs of [a-z0-9] after lower-casing, also split where a
        # lower-case letter meets an upper-case one (camelCase)
        in_word = False
        previous = 0
        word_begin = squash_len
        for start in range(kept_start, stop):
            c = s[start]
            if _is_upper(c):
                if in_word and _is_lower(previous):
                    flags |= _add(out + word_begin, squash_len - word_begin, furniture)
                    word_begin = squash_len
                in_word = True
                out[squash_len] = c + 32
                squash_len += 1
            elif _is_alnum_lower(c):
                in_word = True
                out[squash_len] = c
                squash_len += 1
            else:
                if in_word:
                    flags |= _add(out + word_begin, squash_len - word_begin, furniture)
                in_word = False
                word_begin = squash_len
            previous = c
        if in_word:
            flags |= _add(out + word_begin, squash_len - word_begin, furniture)
    # the whole value squashed, and "related" when it starts so ("relatedpoststitle")
    flags |= _add(out, squash_len, furniture)
    if squash_len >= 7 and memcmp(out, b"related", 7) == 0:
        flags |= _add(<const unsigned char*> b"related", 7, furniture)
    return flags


cdef bint _has_modifier(str classes):
    """`class_words._MODIFIER_KEY` in the lower-cased (ASCII) value: has-, no-, with-,
    without- (or with "_")."""
    cdef Py_ssize_t length, i
    cdef const unsigned char* s = <const unsigned char*> PyUnicode_AsUTF8AndSize(classes, &length)
    cdef unsigned char c
    for i in range(length):
        c = s[i]
        if c != 45 and c != 95:
            continue
        # the letters before it, lower-cased
        if i >= 2 and (s[i - 2] | 32) == 110 and (s[i - 1] | 32) == 111:  # no
            return True
        if i >= 3 and (s[i - 3] | 32) == 104 and (s[i - 2] | 32) == 97 and (s[i - 1] | 32) == 115:
            return True  # has
        if i >= 4 and (s[i - 4] | 32) == 119 and (s[i - 3] | 32) == 105 and (
            (s[i - 2] | 32) == 116 and (s[i - 1] | 32) == 104
        ):
            return True  # with
        if i >= 7 and (s[i - 7] | 32) == 119 and (s[i - 6] | 32) == 105 and (
            (s[i - 5] | 32) == 116 and (s[i - 4] | 32) == 104 and (s[i - 3] | 32) == 111
            and (s[i - 2] | 32) == 117 and (s[i - 1] | 32) == 116
        ):
            return True  # without
    return False


cdef bint _is_modifier(str name):
    """One of `class_words._MODIFIER_PARTS` among the name's parts between "-" and "_"
    (lower-cased, ASCII): "has-sidebar", "no_js", "Without-ads"."""
    cdef Py_ssize_t length, i, start = 0
    cdef const unsigned char* s = <const unsigned char*> PyUnicode_AsUTF8AndSize(name, &length)
    for i in range(length + 1):
        if i < length and s[i] != 45 and s[i] != 95:
            continue
        if i - start == 2 and (s[start] | 32) == 110 and (s[start + 1] | 32) == 111:
            return True  # no
        if i - start == 3 and (s[start] | 32) == 104 and (s[start + 1] | 32) == 97 and (
            (s[start + 2] | 32) == 115
        ):
            return True  # has
        if (i - start == 4 or i - start == 7) and (s[start] | 32) == 119 and (
            (s[start + 1] | 32) == 105 and (s[start + 2] | 32) == 116
            and (s[start + 3] | 32) == 104
        ):
            if i - start == 4:
                return True  # with
            if (s[start + 4] | 32) == 111 and (s[start + 5] | 32) == 117 and (
                (s[start + 6] | 32) == 116
            ):
                return True  # without
        start = i + 1
    return False


cdef int _modified_tokens(str classes, set furniture, bytearray scratch) except -1:
    """`class_words._meaningful_tokens` as flags: the plain names' words, and the modifier
    names' words less furniture ("has-sidebar" on the column that holds the article)."""
    cdef list plain = [], modifiers = []
    cdef int flags = 0
    for name in classes.split():
        (modifiers if _is_modifier(name) else plain).append(name)
    if not modifiers:
        return _tokens(classes, furniture, scratch)
    if plain:
        flags = _tokens(" ".join(plain), furniture, scratch)
    return flags | (_tokens(" ".join(modifiers), set(), scratch) & (POSITIVE | CAPTION_WORD))


cdef bytearray _scratch = bytearray(256)


def work_out(classes, ident):
    """`class_words.work_out(classes, ident)`, or None when the Python version must do it."""
    cdef set furniture = set()
    cdef int class_flags = 0, flags, signal
    cdef bint positive
    if classes:
        if not (<str> classes).isascii():
            return None
        if not _has_modifier(classes):
            class_flags = _tokens(classes, furniture, _scratch)
        elif _modifiers_here:
            class_flags = _modified_tokens(classes, furniture, _scratch)
        else:
            return None
    flags = class_flags
    if ident:
        ident_flags = _tokens(ident, furniture, _scratch)
        if ident_flags == -2:
            return None
        flags |= ident_flags
    positive = (flags & POSITIVE) != 0
    if flags & OVERLAY_WORD:
        signal = _WEAK if positive else _OVERLAY
    elif flags & STRONG_WORD:
        signal = _WEAK if positive else _STRONG
    elif flags & WEAK_WORD:
        signal = 0 if positive else _WEAK
    else:
        signal = 1 if positive else 0
    return (
        signal,
        (class_flags & CAPTION_WORD) != 0,
        _hidden_class(classes) if classes and _may_hide(classes) else False,
        frozenset(furniture) if signal < 0 else _empty,
    )


cdef bint _may_hide(str classes):
    """`visibility.hidden_class`'s prefilter (one of `visibility.HIDDEN_KEYS` in the
    lower-cased value) before calling it: most values hold none."""
    lower = classes.lower()
    for key in _hidden_keys:
        if key in lower:
            return True
    return False

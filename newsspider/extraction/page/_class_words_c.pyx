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

from cpython.unicode cimport PyUnicode_AsUTF8AndSize
from libc.stdint cimport uint32_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcmp, memset

cdef frozenset _empty = frozenset()
cdef object _hidden_class = None
cdef int _OVERLAY, _STRONG, _WEAK
# Modifier words can be worked out here only when no article or caption word is also a
# furniture word (then "the modifiers' words less furniture" keeps exactly their article and
# caption flags); `configure` checks it.
cdef bint _modifiers_here = False


cdef enum:
    POSITIVE = 1
    OVERLAY_WORD = 2
    STRONG_WORD = 4
    WEAK_WORD = 8
    CAPTION_WORD = 16


# Every word of the five sets in a C hash table (by its ASCII bytes): a class token is looked
# up without building a str or probing five frozensets, and the furniture words met are bits,
# made a frozenset (of the sets' own strings) only for a value that is furniture.
cdef struct _Word:
    const char* text  # the word's bytes, kept alive by _word_refs
    Py_ssize_t length  # 0: an empty slot
    int flags
    int furniture  # its bit among the furniture words met, or -1


cdef _Word* _table = NULL
cdef uint32_t _table_mask = 0
cdef Py_ssize_t _longest = 0
cdef list _word_refs = []  # the words (str), furniture words first: a word's bit is its index
cdef list _single_words = []  # frozenset({word}) for each furniture word, by its bit
# The furniture words a value meets are bits in MET_WORDS 64-bit words.
cdef enum:
    MET_WORDS = 4


cdef inline uint32_t _hash(const unsigned char* s, Py_ssize_t length) noexcept:
    # FNV-1a: a few instructions a byte, and the words are short.
    cdef uint32_t h = 2166136261u
    cdef Py_ssize_t i
    for i in range(length):
        h = (h ^ s[i]) * 16777619u
    return h


# The hiding keys (`visibility.HIDDEN_KEYS`), lower-case ASCII, and which of them start with
# each byte (lower-cased): most bytes of a value start none, so the scan tests one table entry
# a byte.
cdef enum:
    MAX_HIDDEN_KEYS = 32
cdef bytes _hidden_key_bytes = b""  # the keys one after another
cdef const unsigned char* _hidden_keys[MAX_HIDDEN_KEYS]  # each key's bytes in it
cdef Py_ssize_t _hidden_key_lengths[MAX_HIDDEN_KEYS]
cdef unsigned int _key_starts[256]


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
    dict cache,
    Py_ssize_t max_key_chars,
    Py_ssize_t cache_limit,
):
    """The word sets and signals of `class_words`, and its cache of meanings with its bounds,
    handed over once at import."""
    global _hidden_class, _OVERLAY, _STRONG, _WEAK, _modifiers_here
    global _cache, _max_key_chars, _cache_limit
    global _table, _table_mask, _longest, _word_refs, _single_words
    global _hidden_key_bytes
    cdef Py_ssize_t size, length
    cdef uint32_t slot
    cdef const char* text
    cdef _Word* table
    cdef int flags
    cdef const unsigned char* base
    cdef Py_ssize_t offset
    _modifiers_here = positive.isdisjoint(furniture) and caption.isdisjoint(furniture)
    # Furniture words first, so their index in _word_refs is their bit.
    marked = overlay | strong | weak
    if len(marked) > 64 * MET_WORDS:
        raise ValueError(f"{len(marked)} furniture words: more than the bit sets hold")
    words = sorted(marked) + sorted((positive | caption) - marked)
    size = 64
    while size < 4 * len(words):
        size *= 2
    table = <_Word*> calloc(size, sizeof(_Word))
    if table is NULL:
        raise MemoryError()
    longest = 0
    for index, word in enumerate(words):
        if not (<str> word).isascii() or not word:
            continue  # no ASCII token can be this word
        flags = (
            (POSITIVE if word in positive else 0)
            | (OVERLAY_WORD if word in overlay else 0)
            | (STRONG_WORD if word in strong else 0)
            | (WEAK_WORD if word in weak else 0)
            | (CAPTION_WORD if word in caption else 0)
        )
        text = PyUnicode_AsUTF8AndSize(word, &length)
        slot = _hash(<const unsigned char*> text, length) & (size - 1)
        while table[slot].length:
            slot = (slot + 1) & (size - 1)
        table[slot].text = text
        table[slot].length = length
        table[slot].flags = flags
        table[slot].furniture = index if word in marked else -1
        longest = max(longest, length)
    free(_table)
    _table, _table_mask, _longest = table, <uint32_t> (size - 1), longest
    _word_refs = words
    _single_words = [frozenset({word}) for word in words[: len(marked)]]
    _hidden_class = hidden_class
    keys = [(<str> key).lower().encode("ascii") for key in hidden_keys]
    if len(keys) > MAX_HIDDEN_KEYS or not all(keys):
        raise ValueError(f"hiding keys {hidden_keys!r} cannot be scanned for")
    _hidden_key_bytes = b"".join(keys)
    base = _hidden_key_bytes
    memset(_key_starts, 0, sizeof(_key_starts))
    offset = 0
    for index, key in enumerate(keys):
        _hidden_keys[index] = base + offset
        _hidden_key_lengths[index] = len(key)
        _key_starts[_hidden_keys[index][0]] |= 1u << index
        offset += len(key)
    _OVERLAY, _STRONG, _WEAK = overlay_signal, strong_signal, weak_signal
    _cache, _max_key_chars, _cache_limit = cache, max_key_chars, cache_limit


cdef inline bint _is_space(unsigned char c) noexcept:
    # str.split()'s ASCII whitespace
    return c == 32 or (9 <= c <= 13) or (28 <= c <= 31)


cdef inline bint _is_lower(unsigned char c) noexcept:
    return 97 <= c <= 122


cdef inline bint _is_upper(unsigned char c) noexcept:
    return 65 <= c <= 90


cdef inline unsigned char _lower(unsigned char c) noexcept:
    # str.lower() on an ASCII byte
    return c + 32 if 65 <= c <= 90 else c


cdef inline bint _is_alnum_lower(unsigned char c) noexcept:
    return (97 <= c <= 122) or (48 <= c <= 57)


cdef Py_ssize_t _bem_element(const unsigned char* s, Py_ssize_t start, Py_ssize_t end,
                             Py_ssize_t* out_start) noexcept:
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


cdef inline int _add(const unsigned char* start, Py_ssize_t length, uint64_t* met) noexcept:
    """One token: the word sets it is in (flags); a furniture word's bit set in `met` (unless
    NULL)."""
    cdef uint32_t slot
    cdef _Word* word
    if length == 0 or length > _longest:
        return 0  # in no set
    slot = _hash(start, length) & _table_mask
    while True:
        word = &_table[slot]
        if word.length == 0:
            return 0
        if word.length == length and memcmp(word.text, start, length) == 0:
            if met is not NULL and word.furniture >= 0:
                met[word.furniture >> 6] |= (<uint64_t> 1) << (word.furniture & 63)
            return word.flags
        slot = (slot + 1) & _table_mask


cdef int _tokens(str value, uint64_t* furniture, bytearray scratch) except -1:
    """The word sets `class_words.attribute_tokens(value)` meets (flags), its furniture words'
    bits set in `furniture` (unless NULL); -1 is an error, so a non-ASCII value gives -2."""
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


cdef int _modified_tokens(str classes, uint64_t* furniture, bytearray scratch) except -1:
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
    return flags | (_tokens(" ".join(modifiers), NULL, scratch) & (POSITIVE | CAPTION_WORD))


cdef bytearray _scratch = bytearray(256)
# `class_words._attribute_cache` and its bounds (`configure`).
cdef dict _cache = None
cdef Py_ssize_t _max_key_chars = 0, _cache_limit = 0


def remembered(tuple key):
    """`class_words._class_meaning` for the compiled walk: the meaning of ``key`` (classes,
    ident) worked out and kept in the one cache, bounded as there; None when the Python
    version must work it out. The walk calls it directly: through the Python function a miss
    cost about 1,900 instructions more (argument boxing, the twin switch, the tuple unboxed
    and rebuilt)."""
    classes, ident = key
    meaning = work_out(classes, ident)
    if meaning is None:
        return None
    if (classes is None or len(<str> classes) <= _max_key_chars) and (
        ident is None or len(<str> ident) <= _max_key_chars
    ):
        if len(_cache) > _cache_limit:
            _cache.clear()
        _cache[key] = meaning
    return meaning


def work_out(str classes, str ident):
    """`class_words.work_out(classes, ident)`, or None when the Python version must do it."""
    # The furniture words met, as bits (on the stack: `_hidden_class` may run other threads).
    cdef uint64_t furniture[MET_WORDS]
    cdef int class_flags = 0, flags, signal
    cdef bint positive
    memset(furniture, 0, sizeof(furniture))
    if classes:
        if not classes.isascii():
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
    words = _furniture_words(furniture) if signal < 0 else _empty
    return (
        signal,
        (class_flags & CAPTION_WORD) != 0,
        _hidden_class(classes) if classes and _may_hide(classes) else False,
        words,
    )


cdef frozenset _furniture_words(const uint64_t* met):
    """The furniture words whose bits are set (at least one)."""
    cdef Py_ssize_t part, index, found = -1
    cdef uint64_t bits
    cdef list words = None  # from the second word on
    for part in range(MET_WORDS):
        bits = met[part]
        index = 64 * part
        while bits:  # up to the highest bit set
            if bits & 1:
                if found < 0:
                    found = index
                else:
                    if words is None:
                        words = [_word_refs[found]]
                    words.append(_word_refs[index])
            bits >>= 1
            index += 1
    if words is None:
        # Most furniture values name one word: its set is made once, in `configure`.
        return <frozenset> _single_words[found]
    return frozenset(words)


cdef bint _may_hide(str classes):
    """`visibility.hidden_class`'s prefilter (one of `visibility.HIDDEN_KEYS` in the
    lower-cased value) before calling it: most values hold none. The value is ASCII."""
    cdef Py_ssize_t length, i, j, key_length
    cdef const unsigned char* s = <const unsigned char*> PyUnicode_AsUTF8AndSize(classes, &length)
    cdef const unsigned char* key
    cdef unsigned int starts
    cdef int k
    for i in range(length):
        starts = _key_starts[_lower(s[i])]
        k = 0
        while starts:  # the keys that start with this byte
            if starts & 1:
                key = _hidden_keys[k]
                key_length = _hidden_key_lengths[k]
                if i + key_length <= length:
                    j = 1
                    while j < key_length and _lower(s[i + j]) == key[j]:
                        j += 1
                    if j == key_length:
                        return True
            starts >>= 1
            k += 1
    return False
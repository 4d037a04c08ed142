# cython: language_level=3, boundscheck=False, wraparound=False
"""The markup guard's scans (`parsing.guard_markup`) in C: the same matches as its regular
expressions, read byte by byte.

The regular expressions read the markup as libxml2's HTML5 tokenizer does and cost half a
parse of the page (Python's regex engine spends several nanoseconds per byte); these loops cost
a few percent of one. Each function returns exactly the end (or -1 for no match) of the
expression it stands for, so the guard cuts the same pages at the same bytes on either path:
`tests/test_markup_guard.py` compares them on generated tag soup.

    not_start_end(data, pos)        _NOT_START_ONLY.match(data, pos).end()
    start_end(data, pos)            _START_ONLY.match(data, pos).end(), or -1
    unit_end(data, pos)             _UNIT.match(data, pos).end(), or -1
    units_then_rest_end(data, pos)  _UNITS_THEN_REST.match(data, pos).end()
    has_control_bytes(data)         any(byte in data for byte in parsing._CONTROL_CHARS)
    has_noscript_marker(data)       noscript._has_noscript(data)
"""

from libc.stdint cimport uint64_t
from libc.string cimport memchr, memcpy

# parsing.py's constants: `bind_limits` checks they agree.
cdef enum:
    MAX_ATTRIBUTES = 256
    UNITS = 1024

# Byte classes, one table lookup per byte where the loops used to compare a byte four times.
cdef enum:
    SPACE = 1  # Python's bytes "\s": space, \t, \n, \v, \f, \r
    SLASH = 2
    GT = 4
    EQ = 8
    # NUL stops every skip (`_skip_to`): every bytes object ends in one, so a skip needs no
    # bound test per byte; a NUL inside the data is stepped over.
    NUL = 16
    ALPHA = 32
    RAW_FIRST = 64  # s t x i n p, either case: the first letters of the raw-text names
    SEPARATOR = SPACE | SLASH  # "[\s/]"
    NAME_STOP = SPACE | SLASH | GT | NUL  # ends "[^\s/>]*"
    ATTRIBUTE_NAME_STOP = SPACE | SLASH | GT | EQ | NUL  # ends "[^\s/>=]*"
    VALUE_STOP = SPACE | GT | NUL  # ends "[^\s>]*"

cdef unsigned char _CLASS[256]


cdef void _fill_classes() noexcept:
    cdef int c
    for c in range(256):
        _CLASS[c] = 0
    for c in (9, 10, 11, 12, 13, 32):
        _CLASS[c] |= SPACE
    _CLASS[47] |= SLASH
    _CLASS[62] |= GT
    _CLASS[61] |= EQ
    _CLASS[0] |= NUL
    for c in range(65, 91):
        _CLASS[c] |= ALPHA
        _CLASS[c + 32] |= ALPHA
    for c in b"stxinpSTXINP":
        _CLASS[c] |= RAW_FIRST


_fill_classes()

# What a start tag's name says about its content (`_raw_kind`).
cdef enum:
    ORDINARY = 0
    RAW_TEXT = 1  # script, style, xmp, iframe, noembed, noframes, textarea, title
    PLAINTEXT = 2


def limits():
    """(attributes per start tag, start tags per call of `units_then_rest_end`)."""
    return MAX_ATTRIBUTES, UNITS


cdef inline Py_ssize_t _skip_to(
    const unsigned char* s, Py_ssize_t n, Py_ssize_t q, unsigned char stop
) noexcept:
    """The first index at or after `q` (at most n) whose byte is in one of the `stop` classes,
    or n. `stop` holds NUL: the NUL after the data ends the loop without a bound test."""
    while True:
        while not (_CLASS[s[q]] & stop):
            q += 1
        if q >= n or s[q] != 0:
            return q
        q += 1  # a NUL inside the data: no stop


cdef inline bint _ends_name(const unsigned char* s, Py_ssize_t n, Py_ssize_t q) noexcept:
    # "(?![^\s/>])": the end, whitespace, "/" or ">".
    return q >= n or _CLASS[s[q]] & (SPACE | SLASH | GT)


cdef inline bint _same_letters(
    const unsigned char* s, const unsigned char* name, Py_ssize_t k
) noexcept:
    """Are the `k` bytes at `s` the letters of `name`, in any case? (`| 32` lowers a letter
    and turns no other byte into one.)"""
    cdef Py_ssize_t i
    for i in range(k):
        if (s[i] | 32) != (name[i] | 32):
            return False
    return True


cdef inline Py_ssize_t _find(
    const unsigned char* s, Py_ssize_t n, Py_ssize_t q, unsigned char c
) noexcept:
    """The index of the first `c` at or after `q`, or n."""
    cdef const void* found
    if q >= n:
        return n
    found = memchr(s + q, c, n - q)
    if found == NULL:
        return n
    return <const unsigned char*> found - s


cdef inline Py_ssize_t _attributes_end(
    const unsigned char* s, Py_ssize_t n, Py_ssize_t q, Py_ssize_t limit
) noexcept:
    """"(?:_ATTRIBUTE){0,limit}+[\s/]*+" from `q`: the index after it, where ">", the end or
    (with `limit` attributes read) another attribute's name starts."""
    cdef Py_ssize_t count = 0
    cdef unsigned char quote
    while True:
        while _CLASS[s[q]] & SEPARATOR:  # the NUL after the data is none
            q += 1
        if q >= n or s[q] == 62 or count == limit:
            return q
        count += 1
        # The name: its first byte is anything but whitespace, "/" or ">" ("=" too).
        q = _skip_to(s, n, q + 1, ATTRIBUTE_NAME_STOP)
        while _CLASS[s[q]] & SPACE:
            q += 1
        if s[q] != 61:
            continue  # no value: those spaces separate it from the next attribute
        q += 1
        while _CLASS[s[q]] & SPACE:
            q += 1
        quote = s[q]
        if quote == 34 or quote == 39:  # up to the closing quote, or the end
            q = _find(s, n, q + 1, quote)
            if q < n:
                q += 1
        else:
            q = _skip_to(s, n, q, VALUE_STOP)


cdef int _raw_kind(const unsigned char* name, Py_ssize_t k) noexcept:
    """What the start tag named by the `k` bytes at `name` (a letter first) holds."""
    cdef unsigned char first = name[0] | 32
    if k == 6:
        if (first == 115 and _same_letters(name, b"script", 6)) or (
            first == 105 and _same_letters(name, b"iframe", 6)
        ):
            return RAW_TEXT
    elif k == 5:
        if (first == 115 and _same_letters(name, b"style", 5)) or (
            first == 116 and _same_letters(name, b"title", 5)
        ):
            return RAW_TEXT
    elif k == 3:
        if _same_letters(name, b"xmp", 3):
            return RAW_TEXT
    elif k == 7:
        if _same_letters(name, b"noembed", 7):
            return RAW_TEXT
    elif k == 8:
        if (first == 110 and _same_letters(name, b"noframes", 8)) or (
            first == 116 and _same_letters(name, b"textarea", 8)
        ):
            return RAW_TEXT
    elif k == 9:
        if _same_letters(name, b"plaintext", 9):
            return PLAINTEXT
    return ORDINARY


cdef Py_ssize_t _not_start(const unsigned char* s, Py_ssize_t n, Py_ssize_t p) noexcept:
    """_NOT_START: text, end tags, comments, doctypes, processing instructions and stray "<"
    up to the next start tag ("<" and a letter) or the end. Reads past a byte only when it is
    not the NUL after the data."""
    cdef Py_ssize_t q
    cdef unsigned char c1
    while p < n:
        if s[p] != 60:  # [^<]++
            p = _find(s, n, p, 60)
            continue
        c1 = s[p + 1]  # the NUL after the data when p + 1 == n: "starts nothing"
        if c1 == 47:
            if _CLASS[s[p + 2]] & ALPHA:  # an end tag, read like a start tag
                q = _skip_to(s, n, p + 3, NAME_STOP)
                q = _attributes_end(s, n, q, -1)
                p = q + 1 if q < n else q  # past its ">"
            else:  # </ without a name, up to ">"
                q = _find(s, n, p + 2, 62)
                p = q + 1 if q < n else n
        elif c1 == 33 and s[p + 2] == 45 and s[p + 3] == 45:  # <!--
            q = p + 4
            if s[q] == 62:
                p = q + 1
            elif s[q] == 45 and s[q + 1] == 62:
                p = q + 2
            else:  # up to "-->" or "--!>" (then past it), or to the end
                while True:
                    q = _find(s, n, q, 45)
                    if q >= n:
                        p = n
                        break
                    if s[q + 1] == 45:
                        if s[q + 2] == 62:
                            p = q + 3
                            break
                        if s[q + 2] == 33 and s[q + 3] == 62:
                            p = q + 4
                            break
                    q += 1
        elif c1 == 33 or c1 == 63:  # <! or <? up to ">"
            q = _find(s, n, p + 2, 62)
            p = q + 1 if q < n else n
        elif c1 == 60:  # a run of "<": all but its last at once
            p += 1
            while s[p + 1] == 60:
                p += 1
        elif _CLASS[c1] & ALPHA:
            return p  # a start tag
        else:  # a "<" that starts nothing
            p += 1
    return p


cdef Py_ssize_t _start(const unsigned char* s, Py_ssize_t n, Py_ssize_t p) noexcept:
    """_START at `p`: a start tag with at most MAX_ATTRIBUTES attributes (and a raw-text
    element's content, up to its end tag; "plaintext": the rest of the page); -1 when there is
    no start tag at `p` or it has more attributes."""
    cdef Py_ssize_t name_end, q, end, k
    cdef int kind
    if p + 1 >= n or s[p] != 60 or not (_CLASS[s[p + 1]] & ALPHA):
        return -1
    name_end = _skip_to(s, n, p + 2, NAME_STOP)
    q = _attributes_end(s, n, name_end, MAX_ATTRIBUTES)
    if q >= n:
        end = n
    elif s[q] == 62:
        end = q + 1
    else:
        return -1  # more attributes
    k = name_end - (p + 1)
    if not (_CLASS[s[p + 1]] & RAW_FIRST) or k < 3 or k > 9:
        return end
    kind = _raw_kind(s + p + 1, k)
    if kind == ORDINARY:
        return end
    if kind == PLAINTEXT:
        return n
    # The content: up to "</name" (any case) that ends a name, or the end.
    while True:
        end = _find(s, n, end, 60)
        if end >= n:
            return n
        if (
            s[end + 1] == 47
            and end + 2 + k <= n
            and _same_letters(s + end + 2, s + p + 1, k)
            and _ends_name(s, n, end + 2 + k)
        ):
            return end
        end += 1


cdef extern from *:
    """
    /* The two whole-page scans below are written with GCC/Clang vectors (SSE2 on x86-64, NEON
       on ARM). On x86-64 with glibc they are also built for AVX2 and the loader picks the build
       the processor runs (32 bytes an instruction, and three-operand forms without copies). The
       pick is an ifunc, which musl (Alpine) lacks: there only the default build is made. */
    #if defined(__GNUC__) && defined(__x86_64__) && defined(__GLIBC__)
    #define NEWSSPIDER_VECTOR_BUILDS __attribute__((target_clones("avx2", "default")))
    #else
    #define NEWSSPIDER_VECTOR_BUILDS
    #endif

    /* Is any byte of s[0:n] a control byte XML forbids (below 0x20 but tab, line feed and
       carriage return)? 128 bytes a step with vectors (one test of the lanes a step: it costs
       as much as a compare); other compilers read a byte at a time. */
    NEWSSPIDER_VECTOR_BUILDS
    static int newsspider_any_xml_control(const unsigned char *s, Py_ssize_t n) {
        Py_ssize_t i = 0;
    #if defined(__GNUC__)
        typedef unsigned char bytes32 __attribute__((vector_size(32)));
        typedef unsigned long long words4 __attribute__((vector_size(32)));
        for (; i + 128 <= n; i += 128) {
            bytes32 hit = {0};
            for (int k = 0; k < 128; k += 32) {
                bytes32 v;
                memcpy(&v, s + i + k, 32);
                bytes32 allowed = (bytes32)((v == 9) | (v == 10) | (v == 13));
                hit |= (bytes32)(v < 32) & ~allowed;
            }
            words4 w = (words4)hit;
            if (w[0] | w[1] | w[2] | w[3]) return 1;
        }
    #endif
        for (; i < n; i++) {
            if (s[i] < 32 && s[i] != 9 && s[i] != 10 && s[i] != 13) return 1;
        }
        return 0;
    }
    """
    bint newsspider_any_xml_control(const unsigned char* s, Py_ssize_t n) noexcept


def has_control_bytes(bytes data):
    """Does `data` hold a control byte XML forbids? One pass, 64 bytes a step where the
    compiler has vectors (the Python test runs one memchr per byte value: 29 passes)."""
    return newsspider_any_xml_control(data, len(data))


cdef extern from *:
    """
    /* Does s[0:n] hold "<noscript" or "<NOSCRIPT"? Vector code looks for "<" before an "n" of
       either case 128 positions a step and reads the rest of the marker only where one is;
       other compilers test every "<". */
    NEWSSPIDER_VECTOR_BUILDS
    static int newsspider_has_noscript(const unsigned char *s, Py_ssize_t n) {
        Py_ssize_t i = 0, j, end;
        if (n < 9) return 0;
    #if defined(__GNUC__)
        typedef unsigned char bytes32 __attribute__((vector_size(32)));
        typedef unsigned long long words4 __attribute__((vector_size(32)));
        for (; i + 129 <= n; i += 128) {
            bytes32 hit = {0};
            for (int k = 0; k < 128; k += 32) {
                bytes32 here, next;
                memcpy(&here, s + i + k, 32);
                memcpy(&next, s + i + k + 1, 32);
                hit |= (bytes32)(here == '<') & (bytes32)((next | 32) == 'n');
            }
            words4 w = (words4)hit;
            if (w[0] | w[1] | w[2] | w[3]) {
                end = i + 128 <= n - 9 ? i + 128 : n - 8;
                for (j = i; j < end; j++) {
                    if (s[j] == '<' && (memcmp(s + j + 1, "noscript", 8) == 0
                                        || memcmp(s + j + 1, "NOSCRIPT", 8) == 0))
                        return 1;
                }
            }
        }
    #endif
        for (j = i; j + 9 <= n; j++) {
            if (s[j] == '<' && (memcmp(s + j + 1, "noscript", 8) == 0
                                || memcmp(s + j + 1, "NOSCRIPT", 8) == 0))
                return 1;
        }
        return 0;
    }
    """
    bint newsspider_has_noscript(const unsigned char* s, Py_ssize_t n) noexcept


def has_noscript_marker(bytes data):
    """Does `data` hold "<noscript" or "<NOSCRIPT" (`noscript._MARKERS`)? One pass that stops
    only at "<n" and "<N", where the Python test searches the page once per marker."""
    return newsspider_has_noscript(data, len(data))


def not_start_end(bytes data, Py_ssize_t pos):
    return _not_start(data, len(data), pos)


def start_end(bytes data, Py_ssize_t pos):
    return _start(data, len(data), pos)


def unit_end(bytes data, Py_ssize_t pos):
    cdef const unsigned char* s = data
    cdef Py_ssize_t n = len(data)
    return _start(s, n, _not_start(s, n, pos))


def units_then_rest_end(bytes data, Py_ssize_t pos):
    cdef const unsigned char* s = data
    cdef Py_ssize_t n = len(data), p1, end
    cdef int count = 0
    while count < UNITS:
        p1 = _not_start(s, n, pos)
        if p1 >= n:
            break
        end = _start(s, n, p1)
        if end < 0:
            break
        pos = end
        count += 1
    return _not_start(s, n, pos)

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
"""

from libc.stdint cimport uint64_t
from libc.string cimport memchr, memcpy

# parsing.py's constants: `bind_limits` checks they agree.
cdef enum:
    MAX_ATTRIBUTES = 256
    UNITS = 1024

# The raw-text elements, in the order the regular expression tries them.
cdef tuple _RAW_NAMES = (
    b"script", b"style", b"xmp", b"iframe", b"noembed", b"noframes", b"textarea", b"title"
)


def limits():
    """(attributes per start tag, start tags per call of `units_then_rest_end`)."""
    return MAX_ATTRIBUTES, UNITS


cdef inline bint _space(unsigned char c) noexcept:
    # Python's bytes "\s": space, \t, \n, \v, \f, \r.
    return c == 32 or 9 <= c <= 13


cdef inline bint _alpha(unsigned char c) noexcept:
    return 65 <= c <= 90 or 97 <= c <= 122


cdef inline bint _ends_name(const unsigned char* s, Py_ssize_t n, Py_ssize_t q) noexcept:
    # "(?![^\s/>])": the end, whitespace, "/" or ">".
    return q >= n or _space(s[q]) or s[q] == 47 or s[q] == 62


cdef inline bint _name_at(
    const unsigned char* s, Py_ssize_t n, Py_ssize_t q, const unsigned char* name, Py_ssize_t k
) noexcept:
    """Is the lower-case ASCII `name` at `q` (any case), followed by the end of a name?"""
    cdef Py_ssize_t i
    if q + k > n:
        return False
    for i in range(k):
        if (s[q + i] | 32) != name[i]:
            return False
    return _ends_name(s, n, q + k)


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


cdef Py_ssize_t _attribute(const unsigned char* s, Py_ssize_t n, Py_ssize_t q) noexcept:
    """_ATTRIBUTE: separators, a name, an optional "= value"; -1 when no name follows."""
    cdef Py_ssize_t r
    cdef unsigned char quote
    while q < n and (_space(s[q]) or s[q] == 47):
        q += 1
    if q >= n or s[q] == 62:
        return -1
    q += 1
    while q < n and not (_space(s[q]) or s[q] == 47 or s[q] == 62 or s[q] == 61):
        q += 1
    r = q
    while r < n and _space(s[r]):
        r += 1
    if r >= n or s[r] != 61:
        return q  # no value: the spaces read after the name are given back
    r += 1
    while r < n and _space(s[r]):
        r += 1
    if r < n and (s[r] == 34 or s[r] == 39):
        quote = s[r]
        r = _find(s, n, r + 1, quote)
        return r + 1 if r < n else n
    while r < n and not (_space(s[r]) or s[r] == 62):
        r += 1
    return r


cdef Py_ssize_t _attributes_then_end(
    const unsigned char* s, Py_ssize_t n, Py_ssize_t q
) noexcept:
    """_ATTRIBUTES_THEN_END: at most MAX_ATTRIBUTES attributes, then ">" or the end; -1 when
    another attribute follows."""
    cdef int count = 0
    cdef Py_ssize_t r
    while count < MAX_ATTRIBUTES:
        r = _attribute(s, n, q)
        if r < 0:
            break
        q = r
        count += 1
    while q < n and (_space(s[q]) or s[q] == 47):
        q += 1
    if q >= n:
        return q
    if s[q] == 62:
        return q + 1
    return -1


cdef Py_ssize_t _not_start(const unsigned char* s, Py_ssize_t n, Py_ssize_t p) noexcept:
    """_NOT_START: text, end tags, comments, doctypes, processing instructions and stray "<"
    up to the next start tag ("<" and a letter) or the end."""
    cdef Py_ssize_t q, r
    cdef unsigned char c1
    while p < n:
        if s[p] != 60:  # [^<]++
            p = _find(s, n, p, 60)
            continue
        c1 = s[p + 1] if p + 1 < n else 0
        if c1 == 47 and p + 2 < n and _alpha(s[p + 2]):  # an end tag, read like a start tag
            q = p + 3
            while q < n and not (_space(s[q]) or s[q] == 47 or s[q] == 62):
                q += 1
            while True:
                r = _attribute(s, n, q)
                if r < 0:
                    break
                q = r
            while q < n and (_space(s[q]) or s[q] == 47):
                q += 1
            p = q + 1 if q < n and s[q] == 62 else q
        elif c1 == 33 and p + 3 < n and s[p + 2] == 45 and s[p + 3] == 45:  # <!--
            q = p + 4
            if q < n and s[q] == 62:
                p = q + 1
                continue
            if q + 1 < n and s[q] == 45 and s[q + 1] == 62:
                p = q + 2
                continue
            # Up to "--!>" or "-->" (then past it), or to the end.
            while q < n:
                if (
                    s[q] == 45
                    and q + 1 < n
                    and s[q + 1] == 45
                    and (
                        (q + 2 < n and s[q + 2] == 62)
                        or (q + 3 < n and s[q + 2] == 33 and s[q + 3] == 62)
                    )
                ):
                    break
                q += 1
            if q < n:
                q += 3 if s[q + 2] == 62 else 4
            p = q
        elif c1 == 33 or c1 == 63:  # <! or <? up to ">"
            q = _find(s, n, p + 2, 62)
            p = q + 1 if q < n else n
        elif c1 == 47:  # </ without a name, up to ">"
            q = _find(s, n, p + 2, 62)
            p = q + 1 if q < n else n
        elif c1 == 60:  # a run of "<": all but its last at once
            while p + 1 < n and s[p + 1] == 60:
                p += 1
        elif _alpha(c1):
            return p  # a start tag
        else:  # a "<" that starts nothing
            p += 1
    return p


cdef Py_ssize_t _start(const unsigned char* s, Py_ssize_t n, Py_ssize_t p) noexcept:
    """_START at `p`: a start tag with at most MAX_ATTRIBUTES attributes (and a raw-text
    element's content, up to its end tag; "plaintext": the rest of the page); -1 when there is
    no start tag at `p` or it has more attributes."""
    cdef Py_ssize_t q, r, k, end
    cdef unsigned char c
    cdef bytes name
    cdef const unsigned char* c_name
    if p + 1 >= n or s[p] != 60 or not _alpha(s[p + 1]):
        return -1
    q = p + 1
    c = s[q] | 32
    if c == 115 or c == 116 or c == 120 or c == 105 or c == 110 or c == 112:  # s t x i n p
        if _name_at(s, n, q, <const unsigned char*> b"plaintext", 9):
            r = _attributes_then_end(s, n, q + 9)
            if r >= 0:
                return n
        for name in _RAW_NAMES:
            c_name = <const unsigned char*> name
            k = len(name)
            if not _name_at(s, n, q, c_name, k):
                continue
            r = _attributes_then_end(s, n, q + k)
            if r < 0:
                continue
            # The content: up to "</name" (any case) that ends a name, or the end.
            end = r
            while True:
                end = _find(s, n, end, 60)
                if end >= n:
                    return n
                if end + 1 < n and s[end + 1] == 47 and _name_at(s, n, end + 2, c_name, k):
                    return end
                end += 1
    q += 1
    while q < n and not (_space(s[q]) or s[q] == 47 or s[q] == 62):
        q += 1
    return _attributes_then_end(s, n, q)


cdef inline bint _control(unsigned char c) noexcept:
    # The control bytes XML forbids: below 0x20 but tab, line feed and carriage return.
    return c < 32 and c != 9 and c != 10 and c != 13


def has_control_bytes(bytes data):
    """Does `data` hold a control byte XML forbids? One pass eight bytes at a time (the
    Python test runs one memchr per byte value: 29 passes)."""
    cdef const unsigned char* s = data
    cdef Py_ssize_t n = len(data), i = 0, j
    cdef uint64_t word
    while i + 8 <= n:
        memcpy(&word, s + i, 8)
        # Nonzero exactly when a byte of the word is below 0x20 (the "hasless" bit trick).
        if (word - 0x2020202020202020ULL) & ~word & 0x8080808080808080ULL:
            for j in range(i, i + 8):
                if _control(s[j]):
                    return True
        i += 8
    while i < n:
        if _control(s[i]):
            return True
        i += 1
    return False


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

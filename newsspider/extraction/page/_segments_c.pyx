# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The segment walk of `newsspider.extraction.page.segments`, compiled: the same walk over libxml2's
nodes, read through lxml's public C API (no libxml2 function is called, only its node structs
read, so the module works with whatever libxml2 the installed lxml carries).

`segments._walk_python` is the reference: every rule here mirrors a line there, and
tests/test_compiled_walk.py asserts identical `PageSegments` on every fixture and on generated
tag soup. The hot loop (text and tail runs, whitespace normalisation, characters, link
characters, punctuation, CJK weight, ``<br>`` lines, block numbering) is C; what blocks'
attributes mean (class and id words, styles, captions, roles) calls the Python helpers, so those
rules keep living in one place.
"""

from cpython.unicode cimport (
    Py_UNICODE_ISSPACE,
    PyUnicode_4BYTE_KIND,
    PyUnicode_DecodeUTF8,
    PyUnicode_FromKindAndData,
    PyUnicode_GET_LENGTH,
    PyUnicode_READ_CHAR,
)
from cpython.object cimport PyObject
from libc.stdint cimport uintptr_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport strcmp, strlen

cimport lxml.includes.etreepublic as cetree
from lxml.includes cimport tree
from lxml.includes.tree cimport xmlAttr, xmlNode

from newsspider.extraction.common._lxml_nodes cimport (
    element_from,
    plain_attribute,
    single_text_value,
    text_node_or_skip,
)

cetree.import_lxml__etree()

# Tag kinds: the same numbers as segments.py's _INLINE, _BLOCK, _LINK, _BREAK_TAG, _HIDDEN and
# _INSIDE_HIDDEN (an inline element hidden by its style, and anything inside it).
cdef enum:
    INLINE = 0
    BLOCK = 1
    LINK = 2
    BREAK_TAG = 3
    HIDDEN = 4
    INSIDE_HIDDEN = 5
    CUSTOM = 6  # segments._CUSTOM: told apart by CUSTOM_FLAG once the tag is known

# The walk offers the GIL to other threads after every 1024 elements entered (a mask).
cdef enum:
    YIELD_EVERY = 1023

# Stands for <br> in the collected text (segments.py uses "\x00"): above every code point.
cdef enum:
    BREAK = 0x110000

# Open-block flags: a <pre> (whitespace kept) and an h2-h4 (a link inside is a teaser headline).
# What a tag is, worked out once per tag name (`_TagEntry.flags`).
cdef enum:
    PRE_FLAG = 1
    TEASER_FLAG = 2
    PAGE_FLAG = 4  # <html>, <body>: their classes describe page state
    BOILERPLATE_FLAG = 8  # nav, aside, footer, menu
    CAPTION_FLAG = 16  # figure, figcaption
    MAIN_FLAG = 32
    PARAGRAPH_FLAG = 64  # <p>: what it holds is phrasing content
    CUSTOM_FLAG = 128  # a custom element (a hyphen in its name), a block by default

# Tag names by libxml2 name pointer: names are interned in the document's dictionary, so a page
# decodes and classifies each tag name once. Open addressing; full means "look it up".
cdef enum:
    TAG_TABLE_SIZE = 1024


cdef struct _TagEntry:
    const tree.xmlChar* name
    PyObject* tag  # owned by _Walk.tag_refs
    int kind
    int flags


# Python helpers and tables, bound once by segments.py (`bind`): the rules for attributes and
# unknown tags live there.
cdef object _attributed_block = None
cdef object _class_meaning = None
cdef object _remembered = None
cdef dict _attribute_cache = None
cdef object _tag_kind = None
cdef dict _tag_kinds = None
cdef dict _tag_signal = None
cdef object _caption_tags = None
cdef object _teaser_headings = None
cdef object _page_tags = None
cdef object _boilerplate_tags = None
cdef object _dialog_roles = None
cdef object _hidden_style = None
cdef object _hidden_inline_class = None
cdef dict _inline_hidden_cache = None
cdef object _yield_point = None
cdef int _strong_furniture = 0
cdef int _weak_furniture = 0
cdef int _overlay = 0


def bind(
    *,
    attributed_block,
    class_meaning,
    remembered,
    dict attribute_cache,
    tag_kind,
    dict tag_kinds,
    dict tag_signal,
    caption_tags,
    teaser_headings,
    page_tags,
    boilerplate_tags,
    dialog_roles,
    hidden_style,
    hidden_inline_class,
    dict inline_hidden_cache,
    int strong_furniture,
    int weak_furniture,
    int overlay,
    yield_point,
):
    global _attributed_block, _class_meaning, _remembered, _attribute_cache, _tag_kind, _tag_kinds
    global _tag_signal, _caption_tags, _teaser_headings, _page_tags, _boilerplate_tags
    global _dialog_roles, _hidden_style, _hidden_inline_class, _inline_hidden_cache
    global _strong_furniture, _weak_furniture, _overlay, _yield_point
    _attributed_block = attributed_block
    _class_meaning = class_meaning
    _remembered = remembered
    _attribute_cache = attribute_cache
    _tag_kind = tag_kind
    _tag_kinds = tag_kinds
    _tag_signal = tag_signal
    _caption_tags = caption_tags
    _teaser_headings = teaser_headings
    _page_tags = page_tags
    _boilerplate_tags = boilerplate_tags
    _dialog_roles = dialog_roles
    _hidden_style = hidden_style
    _hidden_inline_class = hidden_inline_class
    _inline_hidden_cache = inline_hidden_cache
    _strong_furniture = strong_furniture
    _weak_furniture = weak_furniture
    _overlay = overlay
    _yield_point = yield_point


cdef inline bint _is_punctuation(Py_UCS4 c) noexcept:
    # textstats._PUNCTUATION_CHARS, character for character.
    if c < 0x80:
        return c == 46 or c == 44 or c == 59 or c == 58 or c == 33 or c == 63  # . , ; : ! ?
    return (
        c == 0x2026 or c == 0x00AB or c == 0x00BB or c == 0x201C or c == 0x201D
        or c == 0x201E or c == 0x2018 or c == 0x2019 or c == 0x00BF or c == 0x00A1
        or c == 0x3001 or c == 0x3002 or c == 0xFF0C or c == 0xFF1B or c == 0xFF1A
        or c == 0xFF01 or c == 0xFF1F or c == 0x300C or c == 0x300D or c == 0x300E
        or c == 0x300F or c == 0x300A or c == 0x300B or c == 0xFF0E or c == 0xFF61
        or c == 0xFF64 or c == 0x060C or c == 0x061B or c == 0x061F or c == 0x06D4
        or c == 0x0964 or c == 0x0965 or c == 0x0589 or c == 0x1362 or c == 0x1363
    )


cdef inline bint _is_dense(Py_UCS4 c) noexcept:
    # textstats._DENSE_SCRIPT: kana, CJK ideographs (and extension A, compatibility), hangul.
    # One test settles every character below kana (all Latin text) before the five ranges.
    return c >= 0x3040 and (
        (c <= 0x30FF) or (0x3400 <= c <= 0x4DBF) or (0x4E00 <= c <= 0x9FFF)
        or (0xAC00 <= c <= 0xD7AF) or (0xF900 <= c <= 0xFAFF)
    )


cdef inline bint _is_space(Py_UCS4 c) noexcept:
    # str.isspace() and str.split()'s whitespace; the <br> mark is not whitespace ("\x00").
    return c != BREAK and Py_UNICODE_ISSPACE(c)


# What an ASCII character is to `flush`, from the predicates above (filled at import): a
# table lookup instead of the whitespace test, six punctuation comparisons and the CJK test.
cdef enum:
    ASCII_OTHER = 0
    ASCII_PUNCTUATION = 1  # added to the punctuation count as it is
    ASCII_SPACE = 2

cdef unsigned char _ascii_kinds[128]


cdef void _fill_ascii_kinds() noexcept:
    cdef Py_UCS4 c
    for c in range(128):
        if _is_space(c):
            _ascii_kinds[c] = ASCII_SPACE
        elif _is_punctuation(c):
            _ascii_kinds[c] = ASCII_PUNCTUATION
        else:
            _ascii_kinds[c] = ASCII_OTHER


_fill_ascii_kinds()


def count_punctuation(str text):
    """`textstats.count_punctuation` in C (for the equivalence test)."""
    cdef Py_ssize_t i, count = 0
    for i in range(PyUnicode_GET_LENGTH(text)):
        count += _is_punctuation(PyUnicode_READ_CHAR(text, i))
    return count


def count_dense_script(str text):
    """`textstats.count_dense_script` in C (for the equivalence test)."""
    cdef Py_ssize_t i, count = 0
    for i in range(PyUnicode_GET_LENGTH(text)):
        count += _is_dense(PyUnicode_READ_CHAR(text, i))
    return count


cdef object _plain_value(xmlAttr* attribute):
    """An attribute's value as lxml gives it when it is one text node (or none: ""); None
    without the attribute; False when lxml would have to put it together (entities)."""
    cdef xmlNode* child
    if attribute is NULL:
        return None
    child = attribute.children
    if child is NULL:
        return ""
    if child.next is NULL and child.type == tree.XML_TEXT_NODE and child.content is not NULL:
        return PyUnicode_DecodeUTF8(
            <const char*> child.content, strlen(<const char*> child.content), NULL
        )
    return False


cdef class _Walk:
    # The pieces of the current segment as code points (BREAK for <br>): segments.py's
    # `pieces`, joined as they come.
    cdef Py_UCS4* text
    cdef Py_ssize_t text_length, text_capacity
    # One normalised line at a time.
    cdef Py_UCS4* line
    cdef Py_ssize_t line_capacity
    cdef bint has_text
    cdef int link_depth, pre_depth
    cdef bint hidden
    # segments.py's `link_pieces` only feed len(" ".join("".join(link_pieces).split())):
    # counted on the fly as non-space characters and words of the joined pieces.
    cdef Py_ssize_t link_nonspace, link_words
    cdef bint link_after_space
    # Open blocks (ids and PRE/TEASER flags) and the kind of every open element.
    cdef int* stack
    cdef unsigned char* stack_flags
    cdef Py_ssize_t stack_length, stack_capacity
    cdef unsigned char* kinds
    cdef Py_ssize_t depth, kinds_capacity
    cdef Py_ssize_t linked_headings
    cdef cetree._Document doc
    cdef object page
    cdef list elements, tags, parents, signals, ends, captioned, named
    # The int object of every block id, made once: parents, ends and segment owners share them
    # (a fresh int per entry was three objects per block, 5.6 MB on a 5 MB page).
    cdef list block_ids
    # The lines of the segment `flush` is making (`keep_line`).
    cdef object first_line
    cdef list more_lines
    cdef Py_ssize_t line_count
    cdef list owners, lines, chars, link_chars, punctuation, dense_chars, segment_tags, colons
    cdef object main_regions
    cdef _TagEntry* tag_table
    cdef Py_ssize_t tag_count
    cdef list tag_refs
    cdef object declared_bodies

    def __cinit__(self):
        self.text = NULL
        self.line = NULL
        self.stack = NULL
        self.stack_flags = NULL
        self.kinds = NULL
        self.tag_table = <_TagEntry*> calloc(TAG_TABLE_SIZE, sizeof(_TagEntry))
        if self.tag_table is NULL:
            raise MemoryError()
        self.tag_refs = []
        self.block_ids = []

    def __dealloc__(self):
        free(self.tag_table)
        free(self.text)
        free(self.line)
        free(self.stack)
        free(self.stack_flags)
        free(self.kinds)

    cdef int reserve_text(self, Py_ssize_t extra) except -1:
        cdef Py_ssize_t wanted = self.text_length + extra
        cdef Py_UCS4* grown
        if wanted <= self.text_capacity:
            return 0
        wanted = max(wanted, 2 * self.text_capacity, 256)
        grown = <Py_UCS4*> realloc(self.text, wanted * sizeof(Py_UCS4))
        if grown is NULL:
            raise MemoryError()
        self.text = grown
        self.text_capacity = wanted
        return 0

    cdef int reserve_line(self, Py_ssize_t wanted) except -1:
        cdef Py_UCS4* grown
        if wanted <= self.line_capacity:
            return 0
        wanted = max(wanted, 2 * self.line_capacity, 256)
        grown = <Py_UCS4*> realloc(self.line, wanted * sizeof(Py_UCS4))
        if grown is NULL:
            raise MemoryError()
        self.line = grown
        self.line_capacity = wanted
        return 0

    cdef int push_kind(self, unsigned char kind) except -1:
        cdef unsigned char* grown
        cdef Py_ssize_t wanted
        if self.depth == self.kinds_capacity:
            wanted = max(2 * self.kinds_capacity, 64)
            grown = <unsigned char*> realloc(self.kinds, wanted)
            if grown is NULL:
                raise MemoryError()
            self.kinds = grown
            self.kinds_capacity = wanted
        self.kinds[self.depth] = kind
        self.depth += 1
        return 0

    cdef int push_block(self, int block_id, unsigned char flags) except -1:
        cdef int* grown_ids
        cdef unsigned char* grown_flags
        cdef Py_ssize_t wanted
        if self.stack_length == self.stack_capacity:
            wanted = max(2 * self.stack_capacity, 64)
            grown_ids = <int*> realloc(self.stack, wanted * sizeof(int))
            if grown_ids is NULL:
                raise MemoryError()
            self.stack = grown_ids
            grown_flags = <unsigned char*> realloc(self.stack_flags, wanted)
            if grown_flags is NULL:
                raise MemoryError()
            self.stack_flags = grown_flags
            self.stack_capacity = wanted
        self.stack[self.stack_length] = block_id
        self.stack_flags[self.stack_length] = flags
        self.stack_length += 1
        return 0

    cdef int append_utf8(self, const unsigned char* data, bint* nonspace) except -1:
        """Decode one libxml2 text node (UTF-8) onto the text; note any non-space character."""
        cdef Py_ssize_t size = strlen(<const char*> data)
        cdef Py_ssize_t i = 0, start = self.text_length
        cdef unsigned int byte, code, b1, b2, b3
        cdef Py_UCS4* out
        cdef str fallback
        # The length and the flag as locals while decoding: built with -fno-strict-aliasing
        # (Python's flags), every store to `out` would reload them from memory.
        cdef Py_ssize_t length = start
        cdef bint found = nonspace[0]
        self.reserve_text(size)
        out = self.text
        while i < size:
            byte = data[i]
            if byte < 0x80:
                code = byte
                i += 1
            elif 0xC2 <= byte < 0xE0 and i + 1 < size and (data[i + 1] & 0xC0) == 0x80:
                code = ((byte & 0x1F) << 6) | (data[i + 1] & 0x3F)
                i += 2
            elif 0xE0 <= byte < 0xF0 and i + 2 < size:
                b1 = data[i + 1]
                b2 = data[i + 2]
                if (b1 & 0xC0) != 0x80 or (b2 & 0xC0) != 0x80:
                    break
                code = ((byte & 0x0F) << 12) | ((b1 & 0x3F) << 6) | (b2 & 0x3F)
                if code < 0x800 or 0xD800 <= code <= 0xDFFF:
                    break
                i += 3
            elif 0xF0 <= byte < 0xF5 and i + 3 < size:
                b1 = data[i + 1]
                b2 = data[i + 2]
                b3 = data[i + 3]
                if (b1 & 0xC0) != 0x80 or (b2 & 0xC0) != 0x80 or (b3 & 0xC0) != 0x80:
                    break
                code = ((byte & 0x07) << 18) | ((b1 & 0x3F) << 12) | ((b2 & 0x3F) << 6)
                code |= b3 & 0x3F
                if code < 0x10000 or code > 0x10FFFF:
                    break
                i += 4
            else:
                break
            if not found and not _is_space(code):
                found = True
            out[length] = code
            length += 1
        self.text_length = length
        nonspace[0] = found
        if i < size:
            # Not UTF-8 as this decoder reads it: lxml's own decoding decides (and raises
            # UnicodeDecodeError exactly where the Python walk would).
            self.text_length = start
            fallback = PyUnicode_DecodeUTF8(<const char*> data, size, NULL)
            self.reserve_text(PyUnicode_GET_LENGTH(fallback))
            for i in range(PyUnicode_GET_LENGTH(fallback)):
                code = PyUnicode_READ_CHAR(fallback, i)
                if not nonspace[0] and not _is_space(code):
                    nonspace[0] = True
                self.text[self.text_length] = code
                self.text_length += 1
        return 0

    cdef int add_text(self, xmlNode* c_node) except -1:
        """An element's text (from its first child) or tail (from its next sibling)."""
        cdef Py_ssize_t start = self.text_length, i
        cdef bint nonspace = False
        cdef Py_UCS4 code
        c_node = text_node_or_skip(c_node)
        while c_node is not NULL:
            if c_node.content is not NULL:
                self.append_utf8(<const unsigned char*> c_node.content, &nonspace)
            c_node = text_node_or_skip(c_node.next)
        if self.text_length == start:
            return 0  # no text, or ""
        # Blank text before any words only matters inside <pre>: normalising drops it.
        if not (self.has_text or nonspace or self.pre_depth):
            self.text_length = start
            return 0
        if self.link_depth:
            for i in range(start, self.text_length):
                code = self.text[i]
                if _is_space(code):
                    self.link_after_space = True
                else:
                    if self.link_after_space:
                        self.link_words += 1
                        self.link_after_space = False
                    self.link_nonspace += 1
        if nonspace:
            self.has_text = True
        return 0

    cdef void clear(self) noexcept:
        self.text_length = 0
        self.link_nonspace = 0
        self.link_words = 0
        self.link_after_space = True

    cdef inline int keep_line(self, str line) except -1:
        """One normalised line of the segment `flush` is making: a list only from the second
        line on (most segments are one line, made a 1-tuple without a list)."""
        if self.line_count == 0:
            self.first_line = line
        else:
            if self.line_count == 1:
                self.more_lines = [self.first_line]
            self.more_lines.append(line)
        self.line_count += 1
        return 0

    cdef int flush(self, int owner) except -1:
        """segments.py's `flush`: the pieces become one segment of normalised lines."""
        cdef object line_text
        cdef Py_ssize_t count
        cdef Py_ssize_t i, start, end, length = self.text_length, written
        cdef Py_ssize_t chars = 0, punctuation = 0, dense = 0, link_chars
        cdef Py_UCS4 code, last = 0
        cdef Py_UCS4* text = self.text
        cdef Py_UCS4* line
        cdef bint in_word
        cdef unsigned char kind
        self.has_text = False
        self.line_count = 0
        link_chars = self.link_nonspace + self.link_words - 1 if self.link_words else 0
        self.clear()
        if self.pre_depth:
            # Lines at <br> and "\n" (only: str.split("\n")), right-stripped, blank ones dropped.
            start = 0
            while start <= length:
                end = start
                while end < length and text[end] != BREAK and text[end] != 10:
                    end += 1
                i = end
                while i > start and _is_space(text[i - 1]):
                    i -= 1
                if i > start:  # line.strip() is not empty: there is a non-space character
                    line_text = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, text + start, i - start)
                    self.keep_line(line_text)
                    chars += i - start
                    for written in range(start, i):
                        code = text[written]
                        punctuation += _is_punctuation(code)
                        dense += _is_dense(code)
                    last = text[i - 1]
                start = end + 1
        else:
            # " ".join(line.split()) for each run between <br>s; without any <br> the one
            # (possibly empty) line is kept, as in the Python walk.
            self.reserve_line(length)
            line = self.line  # a local: stores to it would reload a field (-fno-strict-aliasing)
            start = 0
            while start <= length:
                written = 0
                in_word = False
                end = start
                while end < length and text[end] != BREAK:
                    code = text[end]
                    if code < 128:
                        # Most text: one table lookup (never CJK, never the <br> mark).
                        kind = _ascii_kinds[code]
                        if kind == ASCII_SPACE:
                            in_word = False
                        else:
                            if not in_word and written:
                                line[written] = 32
                                written += 1
                            in_word = True
                            line[written] = code
                            written += 1
                            punctuation += kind
                    elif _is_space(code):
                        in_word = False
                    else:
                        if not in_word and written:
                            line[written] = 32
                            written += 1
                        in_word = True
                        line[written] = code
                        written += 1
                        punctuation += _is_punctuation(code)
                        dense += _is_dense(code)
                    end += 1
                if written or (start == 0 and end == length):
                    line_text = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, line, written)
                    self.keep_line(line_text)
                    chars += written
                    if written:
                        last = line[written - 1]
                start = end + 1
        count = self.line_count
        if not count:
            return 0
        chars += count - 1  # the spaces " ".join(lines) puts between them
        if last == 58:  # text.endswith(":")
            self.colons.append(len(self.owners))
        self.owners.append(self.block_ids[owner])
        # A tuple, as in the Python walk (the collector untracks it); most segments are one
        # line, made a tuple without a list.
        self.lines.append((self.first_line,) if count == 1 else tuple(self.more_lines))
        self.first_line = self.more_lines = None
        self.chars.append(chars)
        self.link_chars.append(link_chars if link_chars < chars else chars)
        self.punctuation.append(punctuation)
        self.dense_chars.append(dense)
        self.segment_tags.append(self.tags[owner])
        return 0

    cdef object attribute(self, xmlNode* c_node, const char* name):
        """element.get(name): an attribute without namespace (xmlGetNoNsProp's rule), or None."""
        cdef xmlAttr* attribute = plain_attribute(c_node, name)
        if attribute is NULL:
            return None
        value = single_text_value(attribute)
        if value is not None:
            return value
        # Entity references or several nodes: lxml puts the value together.
        return cetree.elementFactory(self.doc, c_node).get(name.decode("ascii"))

    cdef str tag_of(self, xmlNode* c_node, int* kind, int* flags):
        """The element's tag (lxml's _namespacedName), its kind (segments._tag_kind) and
        its flags."""
        cdef Py_ssize_t slot = -1
        cdef Py_ssize_t probe
        cdef _TagEntry* entry
        cdef str tag
        cdef bint custom
        if c_node.ns is NULL:
            slot = (<uintptr_t> c_node.name >> 4) & (TAG_TABLE_SIZE - 1)
            for probe in range(TAG_TABLE_SIZE):
                entry = &self.tag_table[slot]
                if entry.name is c_node.name:
                    kind[0] = entry.kind
                    flags[0] = entry.flags
                    return <str> entry.tag
                if entry.name is NULL:
                    break
                slot = (slot + 1) & (TAG_TABLE_SIZE - 1)
        tag = PyUnicode_DecodeUTF8(<const char*> c_node.name, strlen(<const char*> c_node.name), NULL)
        if c_node.ns is not NULL and c_node.ns.href is not NULL:
            href = PyUnicode_DecodeUTF8(<const char*> c_node.ns.href, strlen(<const char*> c_node.ns.href), NULL)
            tag = "{%s}%s" % (href, tag)
        found = _tag_kinds.get(tag)
        kind[0] = _tag_kind(tag) if found is None else found
        custom = kind[0] == CUSTOM
        if custom:
            kind[0] = BLOCK
        flags[0] = (
            (PRE_FLAG if tag == "pre" else 0)
            | (TEASER_FLAG if tag in _teaser_headings else 0)
            | (PAGE_FLAG if tag in _page_tags else 0)
            | (BOILERPLATE_FLAG if tag in _boilerplate_tags else 0)
            | (CAPTION_FLAG if tag in _caption_tags else 0)
            | (MAIN_FLAG if tag == "main" else 0)
            | (PARAGRAPH_FLAG if tag == "p" else 0)
            | (CUSTOM_FLAG if custom else 0)
        )
        if slot >= 0 and self.tag_table[slot].name is NULL and self.tag_count < TAG_TABLE_SIZE // 2:
            entry = &self.tag_table[slot]
            entry.name = c_node.name
            entry.tag = <PyObject*> tag
            entry.kind = kind[0]
            entry.flags = flags[0]
            self.tag_refs.append(tag)
            self.tag_count += 1
        return tag

    cdef int block_signal(
        self, xmlNode* c_node, str tag, int flags, int block_id, cetree._Element element
    ) except? -100:
        """segments._attributed_block for a block with attributes, in C for the usual ones;
        anything unusual (a repeated or composite attribute value) goes to the Python one."""
        cdef xmlAttr* attribute = c_node.properties
        cdef xmlAttr* class_attribute = NULL
        cdef xmlAttr* id_attribute = NULL
        cdef xmlAttr* style_attribute = NULL
        cdef xmlAttr* role_attribute = NULL
        cdef xmlAttr* modal_attribute = NULL
        cdef xmlAttr* itemprop_attribute = NULL
        cdef bint hidden_attribute = False, hidden, caption, overlay = False, declared = False
        cdef bint form_box = False, popover = False
        cdef int others = 0, signal
        cdef const char* name
        cdef bint repeated = False
        while attribute is not NULL:
            if attribute.ns is not NULL:
                others += 1  # "{href}name" in items(): never one of the names read here
            else:
                name = <const char*> attribute.name
                if strcmp(name, "class") == 0:
                    repeated |= class_attribute is not NULL
                    class_attribute = attribute
                elif strcmp(name, "id") == 0:
                    repeated |= id_attribute is not NULL
                    id_attribute = attribute
                else:
                    others += 1
                    if strcmp(name, "style") == 0:
                        repeated |= style_attribute is not NULL
                        style_attribute = attribute
                    elif strcmp(name, "hidden") == 0:
                        hidden_attribute = True
                    elif strcmp(name, "role") == 0:
                        repeated |= role_attribute is not NULL
                        role_attribute = attribute
                    elif strcmp(name, "aria-modal") == 0:
                        repeated |= modal_attribute is not NULL
                        modal_attribute = attribute
                    elif strcmp(name, "itemprop") == 0:
                        repeated |= itemprop_attribute is not NULL
                        itemprop_attribute = attribute
                    elif strcmp(name, "data-newsspider-box") == 0:
                        form_box = True  # cleaning.FORM_BOX_ATTRIBUTE
                    elif strcmp(name, "popover") == 0:
                        popover = True
            attribute = attribute.next
        classes = _plain_value(class_attribute)
        ident = _plain_value(id_attribute)
        style = _plain_value(style_attribute)
        role = _plain_value(role_attribute)
        modal = _plain_value(modal_attribute)
        itemprop = _plain_value(itemprop_attribute)
        if repeated or classes is False or ident is False or style is False or role is False or (
            modal is False or itemprop is False
        ):
            return _attributed_block(
                self.page, self.captioned, block_id, tag, element.items(), named=self.named
            )
        if flags & PAGE_FLAG or (classes is None and ident is None):
            # <html>/<body> classes describe page state ("has-sidebar", feature flags).
            signal, caption, hidden, words = 0, False, False, None
        else:
            key = (classes, ident)
            meaning = _attribute_cache.get(key)
            if meaning is None:
                # On a miss, the compiled class meaning (`class_words.REMEMBERED`) fills the
                # cache itself; it hands back what the Python one must work out.
                if _remembered is not None:
                    meaning = _remembered(key)
                if meaning is None:
                    meaning = _class_meaning(classes, ident)
            signal, caption, hidden, words = <tuple> meaning
        hidden = hidden or (flags & BOILERPLATE_FLAG) != 0
        if others:
            # The rarer attributes, as in the Python function (`len(attrs) > ...`).
            hidden = hidden or (style is not None and _hidden_style(style)) or hidden_attribute
            overlay = (modal is not None and modal == "true") or (
                role is not None and role in _dialog_roles
            ) or popover
            declared = itemprop is not None and itemprop == "articleBody"
            if form_box:  # the box around a form's fields (`cleaning`)
                signal = min(signal, _weak_furniture)
        else:
            role = None
        if hidden:
            signal = min(signal, _strong_furniture)
        elif words and not overlay:
            self.named.append((block_id, words, classes, ident))
        if overlay:
            signal = _overlay
        if caption or flags & CAPTION_FLAG:
            self.captioned.append(block_id)
        if declared:
            self.declared_bodies.add(block_id)
        # `is not None` first: a comparison with None is a generic Python call.
        if flags & MAIN_FLAG or (role is not None and role == "main"):
            self.main_regions.add(block_id)
        return signal

    cdef int enter(self, xmlNode* c_node) except -1:
        """The loop body of the Python walk for one element."""
        cdef str tag
        cdef int kind, block_id, flags
        cdef cetree._Element element
        if self.hidden:
            self.push_kind(INSIDE_HIDDEN)
            return 0
        tag = self.tag_of(c_node, &kind, &flags)
        if (
            flags & CUSTOM_FLAG
            and self.stack_length
            and self.stack_flags[self.stack_length - 1] & PARAGRAPH_FLAG
        ):
            kind = INLINE  # segments: a custom element inside a paragraph is phrasing
        if kind == BLOCK:
            if self.has_text:
                if not self.stack_length:
                    raise IndexError("pop from empty list")  # stack[-1] in the Python walk
                self.flush(self.stack[self.stack_length - 1])
            else:
                self.clear()
            element = cetree.elementFactory(self.doc, c_node)
            block_id = len(self.tags)
            self.block_ids.append(block_id)
            self.parents.append(
                self.block_ids[self.stack[self.stack_length - 1]] if self.stack_length else -1
            )
            if c_node.properties is not NULL:
                self.signals.append(self.block_signal(c_node, tag, flags, block_id, element))
            else:
                self.signals.append(_tag_signal.get(tag, 0))
                if flags & CAPTION_FLAG:
                    self.captioned.append(block_id)
                elif flags & MAIN_FLAG:
                    self.main_regions.add(block_id)
            self.elements.append(element)
            self.tags.append(tag)
            self.ends.append(-1)  # set when the block is left
            if flags & PRE_FLAG:
                self.pre_depth += 1
            self.push_block(block_id, flags & (PRE_FLAG | TEASER_FLAG | PARAGRAPH_FLAG))
        elif kind == LINK:
            self.link_depth += 1
            if self.stack_length and self.stack_flags[self.stack_length - 1] & TEASER_FLAG:
                self.linked_headings += 1
        elif kind == BREAK_TAG:
            self.reserve_text(1)
            self.text[self.text_length] = BREAK
            self.text_length += 1
        elif c_node.properties is not NULL:
            style = self.attribute(c_node, "style")
            classes = self.attribute(c_node, "class")
            if (style is not None and _hidden_style(style)) or (
                classes is not None and self.hidden_class(classes)
            ):
                self.push_kind(HIDDEN)
                self.hidden = True
                return 0
        self.push_kind(kind)
        self.add_text(c_node.children)
        return 0

    cdef bint hidden_class(self, str classes) except -1:
        # segments._hidden_inline_class with its cache lookup inline.
        found = _inline_hidden_cache.get(classes)
        if found is None:
            found = _hidden_inline_class(classes)
        return found

    cdef int leave(self, xmlNode* c_node) except -1:
        """The Python walk's `leave` for the innermost open element."""
        cdef int own
        cdef unsigned char kind
        self.depth -= 1
        kind = self.kinds[self.depth]
        if kind == INSIDE_HIDDEN:
            return 0
        if kind == BLOCK:
            self.stack_length -= 1
            own = self.stack[self.stack_length]
            if self.has_text:
                self.flush(own)
            else:
                self.clear()
            self.ends[own] = self.block_ids[len(self.tags) - 1]
            if self.pre_depth and self.stack_flags[self.stack_length] & PRE_FLAG:
                self.pre_depth -= 1
        elif kind == LINK:
            self.link_depth -= 1
        elif kind == HIDDEN:
            self.hidden = False
        self.add_text(c_node.next)
        return 0

    cdef int run(self, xmlNode* c_root) except -1:
        # Depth first; an element is left (its tail read) after its subtree, as the Python
        # walk leaves it just before the next element outside it is entered.
        cdef xmlNode* c_node = c_root
        cdef xmlNode* following
        cdef unsigned int entered = 0
        self.enter(c_node)
        while True:
            following = element_from(c_node.children)
            if following is NULL:
                while True:
                    self.leave(c_node)
                    if c_node is c_root:
                        return 0
                    following = element_from(c_node.next)
                    if following is not NULL:
                        break
                    c_node = c_node.parent
            c_node = following
            self.enter(c_node)
            entered += 1
            if entered & YIELD_EVERY == 0:
                # Let a waiting thread (the crawl's event loop) run: this loop holds the GIL
                # for tens of milliseconds on a page of 100,000 elements. Releasing and
                # retaking it (`with nogil`) is not enough: the waiter sees a switch and waits
                # again. A Python function call runs bytecode, which hands the GIL over when a
                # waiter has asked for it (after 5 ms).
                _yield_point()


def walk(root, page, list captioned, list named):
    """Fill `page` (a fresh PageSegments) as segments._walk_python does, with the blocks that
    carry a caption mark in `captioned` and those named by furniture words in `named`."""
    cdef cetree._Element element = root
    cdef _Walk state = _Walk()
    if element._c_node is NULL:
        raise ValueError("invalid element")
    state.doc = element._doc
    state.page = page
    state.elements = page.block_elements
    state.tags = page.block_tags
    state.parents = page.block_parents
    state.signals = page.block_signals
    state.ends = page.block_ends
    state.main_regions = page.main_regions
    state.captioned = captioned
    state.named = named
    state.owners = page.segment_owners
    state.lines = page.segment_lines
    state.chars = page.segment_chars
    state.link_chars = page.segment_link_chars
    state.punctuation = page.segment_punctuation
    state.dense_chars = page.segment_dense_chars
    state.segment_tags = page.segment_tags
    state.colons = page.colon_segments
    state.declared_bodies = page.declared_bodies
    state.clear()
    if element._c_node.type != tree.XML_ELEMENT_NODE:
        return  # a comment or processing instruction: the Python walk skips it
    state.run(element._c_node)
    if state.stack_length:
        state.flush(state.stack[state.stack_length - 1])
    page.linked_headings += state.linked_headings


# Subtree sums (`page_model.PageSegments.subtree_totals` and `subtree_scores` are the Python
# reference; tests/test_compiled_walk.py holds them equal): per block, the sum of one number
# per segment over the segments of its subtree. The Python loops box and unbox every number.

def subtree_totals(list owners, list parents, list per_segment):
    """`PageSegments.subtree_totals` in C: the counts are a page's characters, far inside a
    64-bit integer (an overflowing value raises OverflowError, never wraps)."""
    cdef Py_ssize_t count = len(parents), index, block_id, owner, parent
    cdef long long* totals
    cdef list result
    if len(per_segment) < len(owners):
        raise IndexError("list index out of range")  # per_segment[index] in the Python one
    totals = <long long*> calloc(count if count else 1, sizeof(long long))
    if totals is NULL:
        raise MemoryError()
    try:
        for index in range(len(owners)):
            owner = <object> owners[index]
            if owner < 0 or owner >= count:
                raise IndexError("list index out of range")
            totals[owner] += <long long> per_segment[index]
        # Children have larger ids than their parents: one reverse sweep sums every subtree.
        for block_id in range(count - 1, 0, -1):
            parent = <object> parents[block_id]
            if parent >= 0:
                if parent >= count:
                    raise IndexError("list index out of range")
                totals[parent] += totals[block_id]
        result = [totals[block_id] for block_id in range(count)]
    finally:
        free(totals)
    return result


def subtree_scores(list owners, list parents, list per_segment):
    """`PageSegments.subtree_scores` in C: the same float additions in the same order, so
    the same doubles."""
    cdef Py_ssize_t count = len(parents), index, block_id, owner, parent
    cdef double* totals
    cdef list result
    if len(per_segment) < len(owners):
        raise IndexError("list index out of range")
    totals = <double*> calloc(count if count else 1, sizeof(double))
    if totals is NULL:
        raise MemoryError()
    try:
        for index in range(len(owners)):
            owner = <object> owners[index]
            if owner < 0 or owner >= count:
                raise IndexError("list index out of range")
            totals[owner] = totals[owner] + <double> per_segment[index]
        for block_id in range(count - 1, 0, -1):
            parent = <object> parents[block_id]
            if parent >= 0:
                if parent >= count:
                    raise IndexError("list index out of range")
                totals[parent] = totals[parent] + totals[block_id]
        result = [totals[block_id] for block_id in range(count)]
    finally:
        free(totals)
    return result


# The runs of `scoring.best_child_run` (`scoring._best_run` is the Python reference; the twin
# test holds them equal): Kadane per parent, all parents at once, on C arrays. The same double
# additions and comparisons in the same order, so the same run.

def best_run(
    page,
    list weighed,
    list subtree_chars,
    list furniture,
    *,
    double threshold,
    Py_ssize_t best,
    double share,
):
    """`scoring._best_run` in C: (sum, first child, last child) of the best run, or None."""
    cdef Py_ssize_t count, block_id, parent, best_end
    cdef double score, running, found_sum = 0.0
    cdef Py_ssize_t found_first = -1, found_last = -1
    cdef bint found = False
    cdef double* current
    cdef double* positive
    cdef double* run_sum
    cdef Py_ssize_t* start
    cdef Py_ssize_t* run_first
    cdef Py_ssize_t* run_last
    cdef list parents = page.block_parents, ends = page.block_ends, prose = page.prose
    count = len(parents)
    if (
        len(weighed) < count or len(subtree_chars) < count or len(prose) < count
        or len(furniture) < count
    ):
        raise IndexError("list index out of range")
    best_end = <object> ends[best]
    current = <double*> calloc(count if count else 1, sizeof(double))
    positive = <double*> calloc(count if count else 1, sizeof(double))
    run_sum = <double*> calloc(count if count else 1, sizeof(double))
    start = <Py_ssize_t*> malloc((count if count else 1) * sizeof(Py_ssize_t))
    run_first = <Py_ssize_t*> malloc((count if count else 1) * sizeof(Py_ssize_t))
    run_last = <Py_ssize_t*> malloc((count if count else 1) * sizeof(Py_ssize_t))
    try:
        if (
            current is NULL or positive is NULL or run_sum is NULL or start is NULL
            or run_first is NULL or run_last is NULL
        ):
            raise MemoryError()
        for block_id in range(count):
            start[block_id] = -1
            run_first[block_id] = -1
            run_last[block_id] = -1
        for block_id in range(1, count):
            parent = <object> parents[block_id]
            if parent < 0:
                continue
            if parent >= count:
                raise IndexError("list index out of range")
            score = <double> weighed[block_id]
            if (
                score < 0
                and <object> subtree_chars[block_id] > 0
                and 2 * <object> prose[block_id] < <object> subtree_chars[block_id]
                and not <object> furniture[block_id]
            ):
                score = 0.0
            if score > 0:
                positive[parent] = positive[parent] + score
            running = current[parent]
            if running > 0:
                running = running + score
            else:
                running = score
                start[parent] = block_id
            current[parent] = running
            if running > threshold and running > run_sum[parent]:
                run_sum[parent] = running
                run_first[parent] = start[parent]
                run_last[parent] = block_id
        for parent in range(count):
            if (
                run_first[parent] >= 0
                and not (best <= parent <= best_end)
                and run_sum[parent] >= share * positive[parent]
                and (not found or run_sum[parent] > found_sum)
            ):
                found = True
                found_sum = run_sum[parent]
                found_first = run_first[parent]
                found_last = run_last[parent]
    finally:
        free(current)
        free(positive)
        free(run_sum)
        free(start)
        free(run_first)
        free(run_last)
    if not found:
        return None
    return (found_sum, found_first, found_last)

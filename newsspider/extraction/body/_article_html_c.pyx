# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The article's HTML (`newsspider.extraction.body.article_html`), compiled: the same renderer,
walking libxml2's nodes through lxml's public C API instead of ``etree.iterwalk`` (whose step
cost about 1,200 instructions an element: a proxy and an event tuple), reading attributes
without making element proxies, and building and writing the output as typed objects.

`article_html._Renderer` is the reference: every method here mirrors one there, line for line
where it can, and tests/test_article_html_twin.py asserts identical (`body_html`, `images`) on
the fixtures and on generated pages. What attributes mean (hidden styles and classes, srcset,
URL safety) calls the Python helpers bound by `article_html` (`bind`), so those rules keep living
in one place. No libxml2 function is called, only its node structs read.
"""

from cpython.unicode cimport (
    Py_UCS1,
    Py_UNICODE_ISSPACE,
    PyUnicode_4BYTE_KIND,
    PyUnicode_DATA,
    Py_UNICODE_ISALNUM,
    PyUnicode_1BYTE_KIND,
    PyUnicode_DecodeUTF8,
    PyUnicode_FindChar,
    PyUnicode_FromKindAndData,
    PyUnicode_GET_LENGTH,
    PyUnicode_KIND,
    PyUnicode_READ,
)
from cpython.object cimport PyObject
from libc.stdint cimport uintptr_t
from libc.stdlib cimport calloc, free, realloc
from libc.string cimport strcmp, strlen

cimport lxml.includes.etreepublic as cetree
from lxml.includes cimport tree
from lxml.includes.tree cimport xmlAttr, xmlNode

from newsspider.extraction.common._lxml_nodes cimport (
    is_item,
    item_from,
    plain_attribute,
    single_text_value,
    text_node_or_skip,
)

from lxml import etree

cetree.import_lxml__etree()

# Frame kinds: article_html's _LIVE, _MEDIA, _SKIP, _INLINE, _IGNORED.
cdef enum:
    LIVE = 0
    MEDIA = 1
    SKIP = 2
    INLINE = 3
    IGNORED = 4

# A segment's flags (`_Renderer.flags`).
cdef enum:
    KEPT_FLAG = 1
    CAPTION_FLAG = 2

# Slots of the tag-name table (a power of two; a page uses a few dozen names).
cdef enum:
    TAG_SLOTS = 256

# The walk offers the GIL to other threads after every 1024 elements entered (a mask).
cdef enum:
    YIELD_EVERY = 1023

# Bound by article_html (`bind`).
cdef object _Mismatch = None
cdef object _Resolver = None
cdef object _hidden_style = None
cdef object _hidden_inline_class = None
cdef object _image_source = None
cdef object _srcset_best = None
cdef object _link_schemes = None
cdef object _image_schemes = None
cdef object _yield_point = None
cdef frozenset _block_output = frozenset()
cdef frozenset _direct = frozenset()
cdef dict _inline_output = {}
cdef int _max_number = 1000
cdef int _max_alt_chars = 500
cdef Py_ssize_t _max_url_chars = 4096
cdef object _descriptor = None
cdef int _picture_levels = 4
cdef double _tiny_image = 2.0

# image_source's attributes, in its order (page_media._SRCSET_ATTRIBUTES, then
# _LAZY_SRC_ATTRIBUTES and "src"); `bind` checks they are the same.
cdef tuple _SRCSET_NAMES = (b"data-srcset", b"data-lazy-srcset", b"srcset")
cdef tuple _SRC_NAMES = (
    b"data-src", b"data-lazy-src", b"data-original", b"data-lazy", b"data-url",
    b"data-hi-res-src", b"src",
)
SRCSET_ATTRIBUTES = ("data-srcset", "data-lazy-srcset", "srcset")
SRC_ATTRIBUTES = (
    "data-src", "data-lazy-src", "data-original", "data-lazy", "data-url", "data-hi-res-src",
    "src",
)


def bind(
    *,
    mismatch,
    resolver,
    hidden_style,
    hidden_inline_class,
    image_source,
    srcset_best,
    descriptor,
    max_url_chars,
    link_schemes,
    image_schemes,
    yield_point,
    frozenset block_output,
    frozenset direct,
    dict inline_output,
    int max_number,
    int max_alt_chars,
    int picture_levels,
    double tiny_image,
):
    global _Mismatch, _Resolver, _hidden_style, _hidden_inline_class, _image_source
    global _srcset_best, _link_schemes, _image_schemes, _yield_point, _block_output, _direct
    global _inline_output, _max_number, _max_alt_chars, _picture_levels, _tiny_image
    global _descriptor, _max_url_chars
    _descriptor = descriptor
    _max_url_chars = max_url_chars
    _Mismatch = mismatch
    _Resolver = resolver
    _hidden_style = hidden_style
    _hidden_inline_class = hidden_inline_class
    _image_source = image_source
    _srcset_best = srcset_best
    _link_schemes = link_schemes
    _image_schemes = image_schemes
    _yield_point = yield_point
    _block_output = block_output
    _direct = direct
    _inline_output = inline_output
    _max_number = max_number
    _max_alt_chars = max_alt_chars
    _picture_levels = picture_levels
    _tiny_image = tiny_image


# --- libxml2's nodes, as lxml reads them ------------------------------------------------------

cdef object _collect_text(xmlNode* c_node):
    """lxml's _collectText: the text of the text nodes from ``c_node`` on (``.text`` from the
    first child, ``.tail`` from the next sibling), or None."""
    cdef bytes joined
    c_node = text_node_or_skip(c_node)
    if c_node is NULL:
        return None
    if text_node_or_skip(c_node.next) is NULL:
        if c_node.content is NULL:
            return ""
        return PyUnicode_DecodeUTF8(
            <const char*> c_node.content, strlen(<const char*> c_node.content), NULL
        )
    joined = b""
    while c_node is not NULL:
        if c_node.content is not NULL:
            joined += <bytes> (<const char*> c_node.content)
        c_node = text_node_or_skip(c_node.next)
    return joined.decode("utf-8")


cdef inline xmlNode* _parent_element(xmlNode* c_node) noexcept:
    # getparent(): the parent when it is an element (not the document).
    c_node = c_node.parent
    if c_node is not NULL and is_item(c_node):
        return c_node
    return NULL


cdef inline bint _named(xmlNode* c_node, const char* name) noexcept:
    return (
        c_node.type == tree.XML_ELEMENT_NODE
        and c_node.ns is NULL
        and strcmp(<const char*> c_node.name, name) == 0
    )


# --- URLs -------------------------------------------------------------------------------------

cdef object _srcset_best_c(str srcset):
    """page_media.srcset_best without its regular expressions: a candidate is the white space
    and commas skipped (``[\\s,]*``), a URL to the next white space (``\\S+``), and a descriptor
    to the next comma (``[^,]*``); a descriptor of ASCII is read here (``\\d+(\\.\\d+)?[wx]\\b``
    after stripping), any other by `page_media._DESCRIPTOR` itself."""
    cdef Py_ssize_t position = 0, length = len(srcset), start, url_end, end, low, high, cursor
    cdef Py_ssize_t number_end
    cdef double best_score = -1.0, score
    cdef Py_UCS4 char, unit
    cdef bint ascii
    cdef unsigned int kind = PyUnicode_KIND(srcset)
    cdef void* data = PyUnicode_DATA(srcset)
    best = None
    while position < length:
        while position < length:
            char = PyUnicode_READ(kind, data, position)
            if not (Py_UNICODE_ISSPACE(char) or char == u","):
                break
            position += 1
        start = position
        while position < length and not Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, position)):
            position += 1
        if position == start:
            break  # only white space and commas were left: no candidate
        url_end = position
        while position < length and PyUnicode_READ(kind, data, position) != u",":
            position += 1
        end = position
        if PyUnicode_READ(kind, data, url_end - 1) == u",":
            url = srcset[start:url_end].rstrip(",")
            low = high = url_end
            position = url_end
        else:
            url = srcset[start:url_end]
            low, high = url_end, end
        if not url or url[:5].lower() == "data:":
            continue
        score = 0.0
        ascii = True
        for cursor in range(low, high):
            if PyUnicode_READ(kind, data, cursor) > 0x7F:
                ascii = False
                break
        if not ascii:
            found = _descriptor.match(srcset[low:high].strip())
            if found is not None:
                score = float(found.group(1))
                if found.group(2) == "w":
                    score = score + 1e9
        else:
            while low < high and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, low)):
                low += 1
            while high > low and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, high - 1)):
                high -= 1
            cursor = low
            while cursor < high and u"0" <= PyUnicode_READ(kind, data, cursor) <= u"9":
                cursor += 1
            if cursor > low:
                if (
                    cursor + 1 < high
                    and PyUnicode_READ(kind, data, cursor) == u"."
                    and u"0" <= PyUnicode_READ(kind, data, cursor + 1) <= u"9"
                ):
                    cursor += 1
                    while cursor < high and u"0" <= PyUnicode_READ(kind, data, cursor) <= u"9":
                        cursor += 1
                number_end = cursor
                if cursor < high and (PyUnicode_READ(kind, data, cursor) == u"w" or PyUnicode_READ(kind, data, cursor) == u"x"):
                    unit = PyUnicode_READ(kind, data, cursor)
                    cursor += 1
                    if cursor == high or not (
                        Py_UNICODE_ISALNUM(PyUnicode_READ(kind, data, cursor)) or PyUnicode_READ(kind, data, cursor) == u"_"
                    ):
                        score = float(srcset[low:number_end])
                        if unit == u"w":
                            score = score + 1e9
        if score > best_score:
            best, best_score = url, score
    return best


def srcset_best(str srcset):
    """`_srcset_best_c` (for tests: page_media.srcset_best is the reference)."""
    return _srcset_best_c(srcset)


cdef inline bint _plain_untricky(str value):
    """page_media's ``_plain(value) and not _has_any(value, _TRICKY)``: printable ASCII without
    spaces, brackets or backslashes."""
    cdef Py_UCS4 char
    if not value:
        return False
    for char in value:
        if char <= 0x20 or char >= 0x7F or char == u"[" or char == u"]" or char == u"\\":
            return False
    return True


# --- the output tree --------------------------------------------------------------------------

cdef class _Node:
    """article_html._Node."""

    cdef public str tag
    cdef public object attrs
    cdef public str text
    cdef public str tail
    cdef public list children

    def __init__(self, str tag, attrs):
        self.tag = tag
        self.attrs = attrs
        self.text = ""
        self.tail = ""
        self.children = []


cdef inline _Node _node(str tag, object attrs):
    cdef _Node node = _Node.__new__(_Node)
    node.tag = tag
    node.attrs = attrs
    node.text = ""
    node.tail = ""
    node.children = []
    return node


cdef inline _Node _sub(_Node parent, str tag, object attrs):
    cdef _Node node = _node(tag, attrs)
    parent.children.append(node)
    return node


cdef int _remove(_Node parent, _Node child) except -1:
    cdef list children = parent.children
    cdef Py_ssize_t index
    for index in range(len(children) - 1, -1, -1):
        if children[index] is child:
            del children[index]
            return 0
    raise ValueError("not a child")


# The writer's deepest output element (the renderer's trees are far shallower; a deeper one is
# declined and lxml writes it).
cdef enum:
    MAX_WRITE_DEPTH = 4000

cdef const char* _HEX = b"0123456789ABCDEF"

# The characters below 256 a text (and a URI attribute's value) is written with as they are:
# the printable ASCII ones but ``&``, ``<`` and ``>``, tab and newline, and (in a text) Latin-1
# past DEL (space, tab, newline and everything past ASCII are percent-encoded in a URI).
cdef unsigned char _PLAIN_TEXT[256]
cdef unsigned char _PLAIN_URI[256]
for _code in range(256):
    _PLAIN_TEXT[_code] = (
        0x20 <= _code < 0x7F or _code in (0x09, 0x0A) or _code >= 0x80
    ) and _code not in (0x26, 0x3C, 0x3E)
    _PLAIN_URI[_code] = 0x20 < _code < 0x7F and _code not in (0x26, 0x3C, 0x3E)


cdef class _Writer:
    """`article_html._serialize` in one pass over each text: the output is put together in a
    buffer of code points, each text escaped (``&``, ``<``, ``>``, CR; URI attributes
    percent-encoded past ASCII and for spaces, tabs and newlines) and tested for what lxml
    refuses or writes otherwise (`_doubtful`: C0 controls, DEL, surrogates, non-characters) as
    it is copied, where the Python writer joined strings, encoded the result and translated
    its bytes."""

    cdef Py_UCS4* data
    cdef Py_ssize_t length, capacity
    cdef bint doubtful

    def __dealloc__(self):
        free(self.data)

    cdef inline int reserve(self, Py_ssize_t extra) except -1:
        if self.length + extra <= self.capacity:
            return 0
        return self.grow(extra)

    cdef int grow(self, Py_ssize_t extra) except -1:
        cdef Py_ssize_t capacity
        cdef Py_UCS4* grown
        # 16,384 code points to start: most articles' HTML fits without a copy.
        capacity = self.capacity * 2 if self.capacity else 16384
        while capacity < self.length + extra:
            capacity *= 2
        grown = <Py_UCS4*> realloc(self.data, capacity * sizeof(Py_UCS4))
        if grown is NULL:
            raise MemoryError()
        self.data = grown
        self.capacity = capacity
        return 0

    cdef inline int literal(self, const char* text) except -1:
        cdef Py_ssize_t index, size = strlen(text)
        self.reserve(size)
        for index in range(size):
            self.data[self.length + index] = <unsigned char> text[index]
        self.length += size
        return 0

    cdef int name(self, str text) except -1:
        cdef Py_ssize_t index, size = len(text)
        self.reserve(size)
        for index in range(size):
            self.data[self.length + index] = text[index]
        self.length += size
        return 0

    cdef int escaped(self, str text, bint uri) except -1:
        """Copy ``text`` escaped (a URI attribute's value percent-encoded too). The characters
        written as they are go through one table test (ASCII) or range test; the others to
        `special`."""
        cdef Py_ssize_t index, size = PyUnicode_GET_LENGTH(text), length
        cdef unsigned int kind = PyUnicode_KIND(text)
        cdef void* source = PyUnicode_DATA(text)
        cdef const unsigned char* plain = &_PLAIN_URI[0] if uri else &_PLAIN_TEXT[0]
        cdef Py_UCS4 char
        cdef Py_UCS4* out
        cdef const Py_UCS1* latin1
        self.reserve(size)
        out = self.data
        length = self.length
        if kind == PyUnicode_1BYTE_KIND:
            # Latin-1 storage (most pages' text): one table test a character.
            latin1 = <const Py_UCS1*> source
            for index in range(size):
                char = latin1[index]
                if plain[char]:
                    out[length] = char
                    length += 1
                else:
                    self.length = length
                    self.special(char, uri, size - index)
                    out = self.data
                    length = self.length
            self.length = length
            return 0
        for index in range(size):
            char = PyUnicode_READ(kind, source, index)
            if char < 0x80:
                if plain[char]:
                    out[length] = char
                    length += 1
                    continue
            elif not uri and char < 0xD800:
                out[length] = char
                length += 1
                continue
            self.length = length
            self.special(char, uri, size - index)
            out = self.data
            length = self.length
        self.length = length
        return 0

    cdef int special(self, Py_UCS4 char, bint uri, Py_ssize_t remaining) except -1:
        """One character `escaped` does not copy as it is: an entity, a percent-encoding, or
        the character itself (and, for a character lxml refuses or writes otherwise, the
        mark that lxml writes this output)."""
        cdef unsigned int code = char
        cdef unsigned char utf8[4]
        cdef int count, byte
        # At most 12 code points for the character (4 UTF-8 bytes as %XX), then the rest.
        self.reserve(remaining + 12)
        if code == 0x0D:
            self.literal(b"&#13;")
        elif code == 0x26:
            self.literal(b"&amp;")
        elif code == 0x3C:
            self.literal(b"&lt;")
        elif code == 0x3E:
            self.literal(b"&gt;")
        elif uri and code == 0x20:
            self.literal(b"%20")
        elif uri and code == 0x09:
            self.literal(b"%09")
        elif uri and code == 0x0A:
            self.literal(b"%0A")
        elif code < 0x20 or code == 0x7F or 0xD800 <= code <= 0xDFFF or code == 0xFFFE or code == 0xFFFF:
            self.doubtful = True
            self.data[self.length] = char
            self.length += 1
        elif uri and code > 0x7F:
            if code < 0x800:
                utf8[0] = 0xC0 | (code >> 6)
                utf8[1] = 0x80 | (code & 0x3F)
                count = 2
            elif code < 0x10000:
                utf8[0] = 0xE0 | (code >> 12)
                utf8[1] = 0x80 | ((code >> 6) & 0x3F)
                utf8[2] = 0x80 | (code & 0x3F)
                count = 3
            else:
                utf8[0] = 0xF0 | (code >> 18)
                utf8[1] = 0x80 | ((code >> 12) & 0x3F)
                utf8[2] = 0x80 | ((code >> 6) & 0x3F)
                utf8[3] = 0x80 | (code & 0x3F)
                count = 4
            for byte in range(count):
                self.data[self.length] = 0x25  # %
                self.data[self.length + 1] = <unsigned char> _HEX[utf8[byte] >> 4]
                self.data[self.length + 2] = <unsigned char> _HEX[utf8[byte] & 0x0F]
                self.length += 3
        else:
            self.data[self.length] = char
            self.length += 1
        return 0

    cdef int node(self, _Node node, int depth) except -1:
        """Write ``node`` and its tail: 0, or 1 when it must be left to lxml."""
        cdef str tag = node.tag, name, value
        cdef list children = node.children
        cdef dict attrs
        cdef _Node child
        if depth > MAX_WRITE_DEPTH:
            return 1
        self.literal(b"<")
        self.name(tag)
        if node.attrs:
            attrs = <dict> node.attrs
            for name, value in attrs.items():
                if '"' in value:
                    return 1
                self.literal(b" ")
                self.name(name)
                self.literal(b'="')
                self.escaped(value, name == "href" or name == "src")
                self.literal(b'"')
        self.literal(b">")
        if tag == "br" or tag == "img":
            if children or node.text:
                return 1  # never made by the renderer
        elif not (tag == "li" and not children and not node.text):
            if node.text:
                self.escaped(node.text, False)
            for child in children:
                if self.node(child, depth + 1):
                    return 1
            self.literal(b"</")
            self.name(tag)
            self.literal(b">")
        if node.tail:
            self.escaped(node.tail, False)
        return 0


cdef object _serialize(list nodes):
    """article_html._serialize: ``nodes`` (with their tails) as ``etree.tostring(method="html")``
    writes them, or None when a value holds what only lxml should judge."""
    cdef _Writer writer = _Writer()
    cdef _Node node
    for node in nodes:
        if writer.node(node, 1):
            return None
    if writer.doubtful:
        return None
    return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, writer.data, writer.length)


cdef str _lxml_html(_Node root):
    """article_html._lxml_html."""
    cdef list stack
    cdef _Node node, child
    built = etree.Element(root.tag)
    stack = [(root, built)]
    while stack:
        node, element = stack.pop()
        if node.text:
            element.text = node.text
        for child in node.children:
            attrs = child.attrs
            made = (
                etree.SubElement(element, child.tag, attrs)
                if attrs
                else etree.SubElement(element, child.tag)
            )
            if child.tail:
                made.tail = child.tail
            stack.append((child, made))
    html = etree.tostring(built, method="html", encoding="unicode")
    return html[html.index(">") + 1 : html.rindex("<")]


def serialize(list nodes):
    """`_serialize` (for tests)."""
    return _serialize(nodes)


def lxml_html(_Node root):
    """`_lxml_html` (for tests)."""
    return _lxml_html(root)


def new_node(str tag, attrs):
    return _node(tag, attrs)


def sub(_Node parent, str tag, attrs):
    return _sub(parent, tag, attrs)


cdef bint _writer_agrees():
    cdef _Node root = _node("div", None)
    cdef _Node paragraph = _sub(root, "p", None)
    cdef _Node link, cell, pre
    cdef Py_ssize_t index
    paragraph.text = "a & b < c > d\r é\u00a0"
    link = _sub(paragraph, "a", {"href": "https://x.test/a b/é?q=1&r=<2>'"})
    link.text = "e"
    link.tail = "f"
    _sub(paragraph, "br", None).tail = "g"
    _sub(paragraph, "img", {"src": "https://x.test/i\tj.png", "alt": "it's <x>"})
    _sub(_sub(root, "ul", None), "li", None)
    cell = _sub(_sub(_sub(root, "table", None), "tr", None), "td", {"colspan": "2"})
    cell.text = "h"
    pre = _sub(root, "pre", None)
    pre.text = "\n  i\n"
    for index in range(len(root.children) - 1):
        (<_Node> root.children[index]).tail = "\n"
    try:
        return _serialize(root.children) == _lxml_html(root)
    except ValueError:
        return False


cdef bint _WRITER_AGREES = _writer_agrees()
WRITER_AGREES = _WRITER_AGREES


# --- the walk's frames --------------------------------------------------------------------------

cdef class _Frame:
    cdef int kind
    cdef int block  # block id, or -1 for an inline element
    cdef object tag  # output tag; None: transparent (block) or unwrapped (inline)
    cdef object attrs
    cdef _Frame parent  # the enclosing block frame
    cdef _Node out
    cdef bint media_ok
    cdef bint pre
    cdef int ordinal  # runs with text seen so far (blocks)
    cdef list inlines  # open inline frames (blocks)
    cdef bint scope  # a figure: the captions inside belong to its images
    cdef list caption
    cdef Py_ssize_t first_image


cdef _Frame _frame(int kind, int block, object tag, object attrs, _Frame parent):
    cdef _Frame frame = _Frame.__new__(_Frame)
    frame.kind = kind
    frame.block = block
    frame.tag = tag
    frame.attrs = attrs
    frame.parent = parent
    frame.inlines = []
    frame.caption = None  # a list once the frame is a scope
    return frame


cdef _Frame _IGNORED_FRAME = _frame(IGNORED, -1, None, None, None)
cdef _Frame _SKIPPED_INLINE = _frame(SKIP, -1, None, None, None)
cdef _Frame _SKIPPED_BLOCK = _frame(SKIP, 0, None, None, None)
cdef _Frame _UNWRAPPED = _frame(INLINE, -1, None, None, None)


cdef class _Image:
    cdef str url
    cdef object alt
    cdef object caption


cdef _Image _image(str url, object alt):
    cdef _Image image = _Image.__new__(_Image)
    image.url = url
    image.alt = alt
    image.caption = None
    return image


cdef inline bint _is_blank(str text):
    """``text.isspace()`` (both test `Py_UNICODE_ISSPACE`), without a method call."""
    cdef Py_UCS4 char
    if not text:
        return False
    for char in text:
        if not Py_UNICODE_ISSPACE(char):
            return False
    return True


cdef inline bint _spaced(str text) except -1:
    """``"  " in text or "\\n" in text or "\\t" in text or "\\r" in text`` (searches in C)."""
    cdef Py_ssize_t size = PyUnicode_GET_LENGTH(text)
    return (
        PyUnicode_FindChar(text, u"\n", 0, size, 1) >= 0
        or PyUnicode_FindChar(text, u"\t", 0, size, 1) >= 0
        or PyUnicode_FindChar(text, u"\r", 0, size, 1) >= 0
        or "  " in text
    )


cdef str _collapse_spaces(str text):
    cdef str inner = " ".join(text.split())
    if not inner:
        return " " if text else ""
    if text[0].isspace():
        inner = " " + inner
    if text[len(text) - 1].isspace():
        inner += " "
    return inner


cdef object _number(object value):
    if value is None:
        return None
    value = value.strip()
    if not value.isdigit() or not value.isascii():
        return None
    number = int(value)
    return str(number) if 0 < number <= _max_number else None


# --- the renderer ---------------------------------------------------------------------------

cdef class _Renderer:
    cdef object page
    cdef cetree._Document doc
    cdef int container
    cdef set kept, captions
    cdef object embeds_found
    cdef object resolver
    cdef str origin, scheme  # the resolver's, for its fast paths
    cdef _Node root_out
    cdef _Frame top, block
    cdef list frames
    cdef bint writing
    cdef int run_segment
    cdef _Node point, holder, run_base, holder_parent, tail_of
    cdef Py_ssize_t run_first
    cdef list buffer, media, pending, images, scopes
    cdef bint has_text, has_media, has_image
    cdef int pre_depth
    cdef Py_ssize_t emitted
    cdef unsigned char* live  # per block: holds a kept segment (below the region's top)
    cdef unsigned char* texty  # per block: holds a segment of the region
    # Per segment: KEPT_FLAG, CAPTION_FLAG. Per block: its runs (the segments of the region
    # it owns), run_list[run_first_of[block]:][:run_count[block]].
    cdef unsigned char* flags
    cdef int* run_first_of
    cdef int* run_count
    cdef int* run_list
    cdef int anchor, anchor_end
    cdef set holds_media  # node addresses
    cdef list block_signals, block_captions
    # Tag names by libxml2 name pointer (`tag_of`); `tag_refs` owns the strings.
    cdef const tree.xmlChar* tag_names[TAG_SLOTS]
    cdef PyObject* tag_values[TAG_SLOTS]
    cdef list tag_refs

    def __init__(self, page, selection, media, base):
        self.page = page
        self.container = selection.container
        self.kept = set(selection.segment_ids)
        self.captions = set(selection.caption_ids)
        self.kept.update(self.captions)
        self.embeds_found = media
        self.resolver = _Resolver(base)
        self.origin = self.resolver.origin
        self.scheme = self.resolver.scheme
        self.root_out = _node("div", None)
        self.top = _frame(LIVE, -1, None, None, None)
        self.top.out = self.root_out
        self.block = self.top
        self.frames = []
        self.writing = False
        self.run_segment = -1
        self.point = self.holder = self.run_base = self.holder_parent = self.tail_of = None
        self.run_first = 0
        self.buffer = []
        self.media = []
        self.has_text = self.has_media = self.has_image = False
        self.pending = []
        self.images = []
        self.scopes = []
        self.pre_depth = 0
        self.emitted = 0
        self.anchor = -1
        self.anchor_end = -1
        self.holds_media = set()
        self.block_signals = page.block_signals
        self.block_captions = page.block_captions
        self.tag_refs = []

    # --- the region and its blocks ------------------------------------------------------------

    def __dealloc__(self):
        free(self.live)
        free(self.texty)
        free(self.flags)
        free(self.run_first_of)
        free(self.run_count)
        free(self.run_list)

    cdef int region(self) except -2:
        """`_Renderer.region`: the lowest block holding every kept segment; fills `live`,
        `texty` (flags in C arrays) and `owned`."""
        page = self.page
        cdef list owners = page.segment_owners
        cdef list parents = page.block_parents
        cdef list ends = page.block_ends
        cdef Py_ssize_t blocks = len(parents), segments = len(owners)
        cdef Py_ssize_t index = 0, first = -1, last = -1
        cdef int low = -1, high = -1, top, block, owner, end, anchor, container
        cdef unsigned char* live
        cdef unsigned char* texty
        cdef unsigned char* flags
        cdef int* run_first
        cdef int* run_count
        cdef int* run_list
        cdef int placed
        cdef cetree._Element element
        for item in self.kept:
            index = item
            if not 0 <= index < segments:
                raise IndexError("segment out of range")
            owner = owners[index]
            if not 0 <= owner < blocks:
                raise IndexError("block out of range")
            if low < 0 or owner < low:
                low = owner
            if owner > high:
                high = owner
            if first < 0 or index < first:
                first = index
            if index > last:
                last = index
        top = low
        while <int> ends[top] < high:
            top = parents[top]
            if top < 0:
                raise _Mismatch("no block holds every kept segment")
        live = self.live = <unsigned char*> calloc(blocks, 1)
        texty = self.texty = <unsigned char*> calloc(blocks, 1)
        if live is NULL or texty is NULL:
            raise MemoryError()
        for item in self.kept:
            block = owners[<Py_ssize_t> item]
            while block >= top and not live[block]:
                live[block] = 1
                block = parents[block]
        end = ends[top]
        while first > 0 and top <= <int> owners[first - 1] <= end:
            first -= 1
        while last + 1 < segments and top <= <int> owners[last + 1] <= end:
            last += 1
        # Each live block's runs: the region's segments it owns, in order (counted, then
        # placed: one array for all blocks).
        flags = self.flags = <unsigned char*> calloc(segments, 1)
        run_first = self.run_first_of = <int*> calloc(blocks, sizeof(int))
        run_count = self.run_count = <int*> calloc(blocks, sizeof(int))
        run_list = self.run_list = <int*> calloc(last - first + 1, sizeof(int))
        if flags is NULL or run_first is NULL or run_count is NULL or run_list is NULL:
            raise MemoryError()
        for item in self.kept:
            flags[<Py_ssize_t> item] = KEPT_FLAG
        for item in self.captions:
            flags[<Py_ssize_t> item] |= CAPTION_FLAG
        for index in range(first, last + 1):
            owner = owners[index]
            if live[owner]:
                run_count[owner] += 1
            block = owner
            while block >= top and not texty[block]:
                texty[block] = 1
                block = parents[block]
        placed = 0
        for block in range(top, end + 1):
            run_first[block] = placed
            placed += run_count[block]
            run_count[block] = 0
        for index in range(first, last + 1):
            owner = owners[index]
            if live[owner]:
                run_list[run_first[owner] + run_count[owner]] = <int> index
                run_count[owner] += 1
        element = page.block_elements[top]
        if element._c_node is NULL:
            raise ValueError("invalid element")
        self.doc = element._doc
        self.mark_media(element._c_node)
        container = self.container
        if 0 <= container < blocks and <int> parents[container] >= 0:
            anchor = parents[container]
            self.anchor, self.anchor_end = anchor, ends[anchor]
        return top

    cdef int mark(self, xmlNode* start, xmlNode* top) except -1:
        cdef set marked = self.holds_media
        cdef xmlNode* c_node = start
        while c_node is not NULL and <uintptr_t> c_node not in marked:
            marked.add(<uintptr_t> c_node)
            if c_node is top:
                break
            c_node = _parent_element(c_node)
        return 0

    cdef int mark_media(self, xmlNode* top) except -1:
        """`_Renderer.mark_media`: images below ``top`` found by walking libxml2's nodes."""
        cdef xmlNode* c_node = top
        cdef xmlNode* following
        cdef list starts = []
        cdef cetree._Element element
        # Every element below top in document order (top.iter("img")).
        while True:
            if _named(c_node, "img"):
                starts.append(<uintptr_t> c_node)
            following = c_node.children
            while following is not NULL and following.type != tree.XML_ELEMENT_NODE:
                following = following.next
            while following is NULL and c_node is not top:
                following = c_node.next
                while following is not NULL and following.type != tree.XML_ELEMENT_NODE:
                    following = following.next
                if following is NULL:
                    c_node = c_node.parent
            if following is NULL:
                break
            c_node = following
        media = self.embeds_found
        if media is not None:
            for key in media.first:
                element = key
                starts.append(<uintptr_t> element._c_node)
            for key in media.after:
                element = key
                c_node = _parent_element(element._c_node)
                if c_node is not NULL:
                    starts.append(<uintptr_t> c_node)
        for address in starts:
            self.mark(<xmlNode*> <uintptr_t> address, top)
        return 0

    cdef inline bint media_allowed(self, int block):
        return self.anchor < 0 or self.anchor < block <= self.anchor_end

    # --- libxml2 reads ------------------------------------------------------------------------

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

    cdef str tag_of(self, xmlNode* c_node):
        """The element's tag as lxml gives it. Names are interned in the page's dictionary, so
        each is decoded once: a small open-addressing table by name pointer (a table that
        fills up decodes the rest each time)."""
        cdef const tree.xmlChar* name = c_node.name
        cdef size_t slot = (<uintptr_t> name >> 4) & (TAG_SLOTS - 1)
        cdef int probe
        cdef str tag
        if c_node.ns is not NULL:
            return cetree.elementFactory(self.doc, c_node).tag
        for probe in range(TAG_SLOTS):
            if self.tag_names[slot] is name:
                return <str> self.tag_values[slot]
            if self.tag_names[slot] is NULL:
                break
            slot = (slot + 1) & (TAG_SLOTS - 1)
        tag = PyUnicode_DecodeUTF8(<const char*> name, strlen(<const char*> name), NULL)
        if self.tag_names[slot] is NULL:
            self.tag_refs.append(tag)  # the table's reference
            self.tag_names[slot] = name
            self.tag_values[slot] = <PyObject*> tag
        return tag

    # --- the walk ---------------------------------------------------------------------------

    cdef int walk(self, int top) except -1:
        page = self.page
        cdef list elements = page.block_elements
        cdef list ends = page.block_ends
        cdef Py_ssize_t count = len(elements)
        cdef Py_ssize_t next_block = top
        cdef Py_ssize_t block_id
        cdef list frames = self.frames
        cdef xmlNode* root = (<cetree._Element> elements[top])._c_node
        cdef xmlNode* c_node = root
        cdef xmlNode* following
        cdef _Frame frame
        cdef bint descend
        cdef str tag
        cdef dict embeds_first = None, embeds_after = None
        cdef cetree._Element element
        cdef unsigned int entered = 0
        media = self.embeds_found
        if media is not None and media.first:
            embeds_first = {}
            for key, found in media.first.items():
                element = key
                embeds_first[<uintptr_t> element._c_node] = found
        if media is not None and media.after:
            embeds_after = {}
            for key, found in media.after.items():
                element = key
                embeds_after[<uintptr_t> element._c_node] = found
        while True:
            # The start of c_node.
            descend = False
            entered += 1
            if entered & YIELD_EVERY == 0:
                _yield_point()
            if c_node.type != tree.XML_ELEMENT_NODE:
                frames.append(_IGNORED_FRAME)
            else:
                tag = self.tag_of(c_node)
                if (
                    next_block < count
                    and c_node is (<cetree._Element> elements[next_block])._c_node
                ):
                    block_id = next_block
                    next_block += 1
                    frame = self.enter_block(<int> block_id, tag, c_node)
                    frames.append(frame)
                    if frame.kind == SKIP:
                        next_block = <Py_ssize_t> ends[block_id] + 1
                    else:
                        descend = True
                else:
                    frame = self.enter_inline(tag, c_node)
                    frames.append(frame)
                    descend = frame.kind != SKIP
                if descend:
                    if self.wants_text():
                        text = _collect_text(c_node.children)
                        if text:
                            self.text(text)
                    if embeds_first is not None:
                        found = embeds_first.get(<uintptr_t> c_node)
                        if found is not None:
                            self.embeds(found)
            # On to the next start, through the ends on the way.
            while True:
                if descend:
                    following = item_from(c_node.children)
                    if following is not NULL:
                        c_node = following
                        break
                frame = <_Frame> frames.pop()
                if frame.kind != IGNORED:
                    if frame.block >= 0:
                        if frame.kind != SKIP:
                            self.leave_block(frame)
                    elif frame.kind != SKIP:
                        self.leave_inline()
                    if embeds_after is not None:
                        found = embeds_after.get(<uintptr_t> c_node)
                        if found is not None:
                            self.embeds(found)
                    if self.wants_text():
                        tail = _collect_text(c_node.next)
                        if tail:
                            self.text(tail)
                if c_node is root:
                    return 0
                following = item_from(c_node.next)
                if following is not NULL:
                    c_node = following
                    break
                c_node = c_node.parent
                descend = False

    cdef _Frame enter_block(self, int block_id, str tag, xmlNode* c_node):
        cdef _Frame parent, frame
        cdef int kind
        cdef bint media_ok, captioned, scope
        cdef object out_tag
        self.flush()
        parent = self.block
        if self.live[block_id]:
            kind = LIVE
            media_ok = self.media_allowed(block_id)
        elif (
            parent.kind != SKIP
            and parent.media_ok
            and <long> self.block_signals[block_id] >= 0
            and (not self.texty[block_id] or self.block_captions[block_id])
        ):
            kind, media_ok = MEDIA, True
        else:
            return _SKIPPED_BLOCK
        if kind == MEDIA and <uintptr_t> c_node not in self.holds_media:
            return _SKIPPED_BLOCK  # no image or embed anywhere below: nothing to write
        captioned = self.block_captions[block_id]
        scope = tag == "figure" or (
            captioned and not (parent.block >= 0 and self.block_captions[parent.block])
        )
        out_tag = tag if tag in _block_output else None
        if out_tag is None and scope:
            out_tag = "figure"
        frame = _frame(kind, block_id, out_tag, self.block_attrs(tag, c_node), parent)
        frame.media_ok = media_ok
        if scope:
            frame.scope = True
            frame.caption = []
            frame.first_image = len(self.images)
            self.scopes.append(frame)
        if tag == "pre":
            frame.pre = True
            self.pre_depth += 1
        self.block = frame
        self.start_run()
        return frame

    cdef object block_attrs(self, str tag, xmlNode* c_node):
        cdef dict attrs
        if tag == "td" or tag == "th":
            attrs = {}
            number = _number(self.attribute(c_node, b"colspan"))
            if number is not None and number != "1":
                attrs["colspan"] = number
            number = _number(self.attribute(c_node, b"rowspan"))
            if number is not None and number != "1":
                attrs["rowspan"] = number
            return attrs or None
        if tag == "ol":
            number = _number(self.attribute(c_node, b"start"))
            return {"start": number} if number is not None and number != "1" else None
        return None

    cdef int leave_block(self, _Frame frame) except -1:
        cdef _Image image
        self.flush()
        if frame.pre:
            self.pre_depth -= 1
        if frame.scope:
            self.scopes.pop()
            caption = " ".join(frame.caption) if frame.caption else None
            if caption is not None:
                for image in self.images[frame.first_image :]:
                    if image.caption is None:
                        image.caption = caption
        self.block = frame.parent if frame.parent is not None else self.top
        self.start_run()
        return 0

    cdef _Frame enter_inline(self, str tag, xmlNode* c_node):
        cdef _Frame block = self.block, frame
        cdef object out_tag = None, attrs = None
        if tag != "a" and tag != "br":
            # The segment walk's test for inline elements hidden by their style or class.
            style = self.attribute(c_node, b"style")
            classes = self.attribute(c_node, b"class")
            if (style is not None and _hidden_style(style)) or (
                classes is not None and _hidden_inline_class(classes)
            ):
                return _SKIPPED_INLINE
        if tag == "a":
            if self.writing:
                href = self.resolve(self.attribute(c_node, b"href"), _link_schemes)
                if href is not None:
                    out_tag, attrs = "a", {"href": href}
        elif tag == "br":
            if self.point is not None:  # a break before any content is dropped
                self.tail_of = self.child("br", None)
        elif tag == "img":
            self.image(c_node)
        else:
            out_tag = _inline_output.get(tag)
        if out_tag is None or not self.writing:
            block.inlines.append(_UNWRAPPED)
            return _UNWRAPPED
        frame = _frame(INLINE, -1, out_tag, attrs, block)
        if self.point is not None:
            frame.out = self.point = self.child(out_tag, attrs)
            self.tail_of = None
        block.inlines.append(frame)
        return frame

    cdef int leave_inline(self) except -1:
        cdef _Frame frame = <_Frame> self.block.inlines.pop(), other
        cdef _Node out = frame.out, point
        if out is not None and self.point is not None:
            self.write_buffer()
            point = self.holder if self.holder is not None else self.run_base
            for other in self.block.inlines:
                if other.out is not None:
                    point = other.out
            self.point = point
            self.tail_of = out
        return 0

    # --- content ----------------------------------------------------------------------------

    cdef inline int run_of(self, _Frame block) noexcept:
        """The block's next run's segment (`owned[block][ordinal]`), or -1."""
        if block.block >= 0 and block.ordinal < self.run_count[block.block]:
            return self.run_list[self.run_first_of[block.block] + block.ordinal]
        return -1

    cdef int start_run(self) except -1:
        cdef _Frame block = self.block
        cdef int segment = -1
        if block.kind == LIVE:
            segment = self.run_of(block)
        self.writing = segment >= 0 and self.flags[segment] & KEPT_FLAG
        self.run_segment = segment
        return 0

    cdef _Node ensure_point(self):
        cdef _Node point = self.point, out
        cdef _Frame block, frame
        cdef bint caption
        if point is not None:
            return point
        block = self.block
        out = self.materialize(block)
        if block.tag in _direct:
            self.holder = None
            self.run_base = point = out
            self.run_first = len(out.children)
            self.tail_of = out.children[self.run_first - 1] if self.run_first else None
        else:
            # A figure's text is its caption (or, rarely, text beside the picture).
            caption = (
                block.tag == "figure"
                and self.run_segment >= 0
                and self.flags[self.run_segment] & CAPTION_FLAG
            )
            self.holder = point = _sub(out, "figcaption" if caption else "p", None)
            self.holder_parent = out
            self.run_base = None
            self.tail_of = None
        for frame in block.inlines:
            if frame.tag is not None:
                frame.out = point = _sub(point, frame.tag, frame.attrs)
                self.tail_of = None
        self.point = point
        return point

    cdef _Node child(self, str tag, object attrs):
        self.write_buffer()
        return _sub(self.ensure_point(), tag, attrs)

    cdef int write_buffer(self) except -1:
        cdef list buffer = self.buffer
        cdef str text, tail, existing
        cdef _Node point, target
        if not buffer:
            return 0
        text = buffer[0] if len(buffer) == 1 else "".join(buffer)
        buffer.clear()
        point = self.ensure_point()
        target = self.tail_of
        if target is not None:
            tail = target.tail
            target.tail = tail + text if tail else text
        else:
            existing = point.text
            point.text = existing + text if existing else text
        return 0

    cdef inline bint wants_text(self) noexcept:
        """Would `text` do anything? Not in a media block, nor in a run that is not written and
        already holds text: its texts are not decoded then."""
        return self.block.kind == LIVE and (self.writing or not self.has_text)

    cdef int text(self, str text) except -1:
        cdef bint blank
        if self.block.kind != LIVE:
            return 0  # a media block's text is not the article's
        blank = _is_blank(text)
        if blank and not (self.has_text or self.pre_depth):
            return 0
        if not blank:
            self.has_text = True
        if not self.writing:
            return 0
        if not self.pre_depth and (blank or _spaced(text)):
            text = _collapse_spaces(text)
        if self.point is None:
            self.ensure_point()
        self.buffer.append(text)
        return 0

    cdef object resolve(self, object value, object schemes):
        """`page_media.Resolver.resolve`: its fast paths (plain absolute, protocol-relative
        and root-relative URLs against a plain origin) here, as there; any other value by the
        resolver (its cache, then `safe_url`)."""
        cdef str text
        if not value:
            return None
        text = value
        if self.origin and _plain_untricky(text):
            if text.startswith("http://") or text.startswith("https://"):
                return text if len(text) <= _max_url_chars else None
            if text.startswith("//"):
                return self.scheme + ":" + text if len(text) <= _max_url_chars else None
            if text.startswith("/") and "/." not in text:
                return self.origin + text if len(text) <= _max_url_chars else None
        return self.resolver.resolve(text, schemes)

    cdef object image_source(self, xmlNode* c_node):
        """page_media.image_source read from the node; the ``<picture>`` case by it."""
        cdef int index
        cdef bytes name
        cdef xmlNode* picture
        for name in _SRCSET_NAMES:
            value = self.attribute(c_node, name)
            if value:
                best = _srcset_best_c(value)
                if best is not None:
                    return best
        for name in _SRC_NAMES:
            value = self.attribute(c_node, name)
            if value and not value.lstrip().lower().startswith("data:"):
                return value
        picture = _parent_element(c_node)
        for index in range(_picture_levels):
            if picture is NULL or _named(picture, "picture"):
                break
            picture = _parent_element(picture)
        if picture is not NULL and _named(picture, "picture"):
            return _image_source(cetree.elementFactory(self.doc, c_node))
        return None

    cdef bint is_tiny(self, xmlNode* c_node) except -1:
        width = self.attribute(c_node, b"width")
        height = self.attribute(c_node, b"height")
        if not width or not height:
            return False
        try:
            return float(width) <= _tiny_image and float(height) <= _tiny_image
        except ValueError:
            return False

    cdef int image(self, xmlNode* c_node) except -1:
        if self.is_tiny(c_node):
            return 0
        url = self.resolve(self.image_source(c_node), _image_schemes)
        if url is None:
            return 0
        alt = " ".join((self.attribute(c_node, b"alt") or "").split())[:_max_alt_chars] or None
        if self.writing:
            self.tail_of = self.child("img", {"src": url, "alt": alt} if alt else {"src": url})
        else:
            self.media.append(("img", url, alt))
        self.has_media = self.has_image = True
        self.pending.append(_image(url, alt))
        return 0

    cdef int embeds(self, list found) except -1:
        cdef _Node link
        if self.block.kind == SKIP:
            return 0
        for embed in found:
            text = embed.title or embed.url
            if self.writing:
                link = self.child("a", {"href": embed.url})
                link.text = text
                self.tail_of = link
            else:
                self.media.append(("a", embed.url, text))
            self.has_media = True
        return 0

    cdef int flush(self) except -1:
        cdef _Frame block, frame
        cdef list runs
        cdef int segment
        cdef bint kept
        if not (self.has_text or self.has_media or self.point is not None):
            return 0  # nothing in it (most runs between blocks): the next run is the same
        block = self.block
        if self.has_text:
            segment = self.run_of(block)
            if segment < 0:
                raise _Mismatch(f"block {block.block}: more runs than segments")
            block.ordinal += 1
            kept = self.flags[segment] & KEPT_FLAG
            if kept != self.writing:
                raise _Mismatch(f"segment {segment}: run and page model disagree")
            if kept:
                self.write_buffer()
                self.emitted += 1
                self.images.extend(self.pending)
                if self.flags[segment] & CAPTION_FLAG and self.scopes:
                    (<_Frame> self.scopes[len(self.scopes) - 1]).caption.append(
                        " ".join(self.page.segment_lines[segment])
                    )
        elif self.has_media and block.media_ok:
            if self.writing:
                self.write_buffer()
                if self.holder is not None and self.has_image and block.tag != "figure":
                    self.holder.tag = "figure"
            else:
                self.write_media(block)
            self.images.extend(self.pending)
        elif self.writing and self.point is not None:
            self.discard()  # written, but no text and no media it may keep
        self.point = self.holder = self.run_base = self.tail_of = None
        self.has_text = self.has_media = self.has_image = False
        if self.buffer:
            self.buffer.clear()
        if self.pending:
            self.pending = []
        if self.media:
            self.media = []
        for frame in block.inlines:
            frame.out = None
        self.start_run()
        return 0

    cdef int discard(self) except -1:
        cdef _Node holder = self.holder
        if holder is not None:
            if self.holder_parent is not None:
                _remove(self.holder_parent, holder)
        elif self.run_base is not None:
            del self.run_base.children[self.run_first :]
        return 0

    cdef int write_media(self, _Frame block) except -1:
        cdef _Node out = self.materialize(block), target, link
        target = (
            out
            if block.tag in _direct or block.tag == "figure"
            else _sub(out, "figure" if self.has_image else "p", None)
        )
        for tag, url, text in self.media:
            if tag == "img":
                _sub(target, "img", {"src": url, "alt": text} if text else {"src": url})
            else:
                link = _sub(target, "a", {"href": url})
                link.text = text or ""
        return 0

    cdef _Node materialize(self, _Frame frame):
        cdef list chain = []
        cdef _Frame current = frame, pending
        cdef _Node out
        cdef Py_ssize_t index
        while current is not None and current.out is None:
            chain.append(current)
            current = current.parent
        out = current.out if current is not None and current.out is not None else self.root_out
        for index in range(len(chain) - 1, -1, -1):
            pending = <_Frame> chain[index]
            if pending.tag is not None:
                out = _sub(out, pending.tag, pending.attrs)
            pending.out = out
        return out

    cdef tuple result(self):
        cdef list children
        cdef set seen
        cdef list images
        cdef _Image image
        cdef Py_ssize_t index
        if self.emitted != len(self.kept):
            raise _Mismatch(f"{self.emitted} of {len(self.kept)} kept segments written")
        children = self.root_out.children
        if not children:
            html = ""
        else:
            # The blocks one per line, the wrapper left out.
            for index in range(len(children) - 1):
                (<_Node> children[index]).tail = "\n"
            written = _serialize(children) if _WRITER_AGREES else None
            html = written if written is not None else _lxml_html(self.root_out)
        seen = set()
        images = []
        for image in self.images:
            if image.url not in seen:
                seen.add(image.url)
                images.append((image.url, image.alt, image.caption))
        return html, tuple(images)


def render(page, selection, media, base):
    """`_Renderer` (article_html) compiled: (`body_html`, images) for ``selection``, or the
    page model mismatch (`_Mismatch`) the Python renderer would raise."""
    cdef _Renderer renderer = _Renderer(page, selection, media, base)
    renderer.walk(renderer.region())
    return renderer.result()

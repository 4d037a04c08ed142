# cython: language_level=3, boundscheck=False, wraparound=False
"""The metadata's scans of the tree in C: `page_scan.scan_page`'s walk (the same tags, in the
same order, read the same way), `authors`' search for byline candidates, `record_fields`'
search for a breadcrumb trail, `dates`' walks of the body (its date-like text runs, its classed
elements, its text in pieces), `continuation`'s reading of the head's and the article's links,
and `title`'s bigram similarity (no tree: its sets as sorted numbers).

`page_scan.scan_page_python`, `authors._byline_candidates_python` and the other functions
named ``*_python`` beside each caller are the references and every rule here mirrors a line
there; tests/test_compiled_scan.py and tests/test_compiled_meta_walks.py assert identical
results on fixtures and on generated markup.
The Python scan costs more than half of the metadata's instructions' worth of lxml calls: an
element proxy, its ``tag`` and one or two ``get()`` or ``items()`` calls for each of the page's
~100 ``<meta>``, ``<link>`` and ``<script>`` elements. Here the walk reads libxml2's node structs
through lxml's public C API (as `_segments_c` does) and makes a proxy only for what the scan
keeps (``<time>``, ``<h1>``, ``<title>``).
"""

from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport strcmp, strlen

cimport lxml.includes.etreepublic as cetree
from lxml.includes cimport tree
from lxml.includes.tree cimport xmlAttr, xmlNode

from newsspider.extraction.common._lxml_nodes cimport (
    element_from,
    item_from,
    next_element,
    plain_attribute,
    single_text_value,
)

cetree.import_lxml__etree()

from lxml.etree import tostring as _tostring

# The tags the scan reads (page_scan._SCAN_TAGS); OTHER: one of their names in the empty
# namespace, which lxml's iter() matches but whose ``tag`` ("{}meta") is none of them.
cdef enum:
    NOT_SCANNED = 0
    META = 1
    LINK = 2
    SCRIPT = 3
    TIME = 4
    H1 = 5
    TITLE = 6
    OTHER = 7

# page_scan's limits and keys, in its order.
cdef enum:
    MAX_TIMES = 40
    MAX_H1S = 5

cdef frozenset _LINK_RELS = frozenset({"canonical", "image_src"})


cdef int _kind(xmlNode* c_node) noexcept:
    cdef const char* name = <const char*> c_node.name
    cdef int kind
    if name is NULL:
        return NOT_SCANNED
    # The first letter settles most elements (div, span, a, p) without a string comparison.
    if name[0] == c"m" and strcmp(name, "meta") == 0:
        kind = META
    elif name[0] == c"l" and strcmp(name, "link") == 0:
        kind = LINK
    elif name[0] == c"s" and strcmp(name, "script") == 0:
        kind = SCRIPT
    elif name[0] == c"t" and strcmp(name, "time") == 0:
        kind = TIME
    elif name[0] == c"h" and strcmp(name, "h1") == 0:
        kind = H1
    elif name[0] == c"t" and strcmp(name, "title") == 0:
        kind = TITLE
    else:
        return NOT_SCANNED
    if c_node.ns is NULL or c_node.ns.href is NULL:
        return kind
    # iter("meta") matches no namespace or the empty one, whose tag "{}meta" is no scanned name.
    return OTHER if c_node.ns.href[0] == 0 else NOT_SCANNED


cdef object _value(cetree._Document doc, xmlNode* c_node, xmlAttr* attribute):
    """The attribute's value as lxml gives it."""
    value = single_text_value(attribute)
    if value is not None:
        return value
    # Entity references or several nodes: lxml puts the value together.
    name = PyUnicode_DecodeUTF8(
        <const char*> attribute.name, strlen(<const char*> attribute.name), NULL
    )
    return cetree.elementFactory(doc, c_node).get(name)


cdef object _get(cetree._Document doc, xmlNode* c_node, const char* name):
    """element.get(name)."""
    cdef xmlAttr* attribute = plain_attribute(c_node, name)
    return None if attribute is NULL else _value(doc, c_node, attribute)


cdef bint _may_hold(xmlAttr* attribute, const char* word) noexcept:
    """Whether the value's text holds `word` (lower-case ASCII) in any ASCII case, when it is
    one text node: what ``value.lower()`` needs to contain it (no other character lowers to
    these letters). A value of several nodes is read by lxml: True."""
    cdef xmlNode* child = attribute.children
    cdef const unsigned char* text
    cdef unsigned char c
    cdef Py_ssize_t i, k
    if child is NULL:
        return False
    if child.next is not NULL or child.type != tree.XML_TEXT_NODE or child.content is NULL:
        return True
    text = <const unsigned char*> child.content
    i = 0
    while text[i] != 0:
        k = 0
        while word[k] != 0:
            c = text[i + k]
            if 65 <= c <= 90:  # A-Z
                c += 32
            if c != word[k]:
                break
            k += 1
        if word[k] == 0:
            return True
        i += 1
    return False


cdef int _read_meta(cetree._Document doc, xmlNode* c_node, dict meta) except -1:
    # dict(element.items()).get(key) in the Python scan: the first value of that name, as
    # lxml reads each item's value by its name.
    content = _get(doc, c_node, "content") or _get(doc, c_node, "value") or _get(
        doc, c_node, "datetime"
    )
    if not content:
        return 0
    content = content.strip()
    if not content:
        return 0
    # page_scan._META_KEY_ATTRS, in its order.
    _add_keys(doc, c_node, "property", content, meta)
    _add_keys(doc, c_node, "name", content, meta)
    _add_keys(doc, c_node, "itemprop", content, meta)
    _add_keys(doc, c_node, "http-equiv", content, meta)
    return 0


cdef int _add_keys(
    cetree._Document doc, xmlNode* c_node, const char* name, str content, dict meta
) except -1:
    key = _get(doc, c_node, name)
    if key:
        # One element may carry several space-separated properties.
        for k in key.lower().split():
            meta_values = meta.get(k)
            if meta_values is None:
                meta[k] = [content]
            else:
                meta_values.append(content)
    return 0


def scan(root, element_text):
    """(meta, links, JSON-LD texts, times, h1s, title) as `page_scan._scan_page_python` finds
    them; `element_text` is `title.element_text`."""
    cdef cetree._Element element = root
    cdef cetree._Document doc
    cdef xmlNode* top
    cdef xmlNode* c_node
    cdef int kind
    cdef xmlAttr* attribute
    cdef dict meta = {}
    cdef dict links = {}
    cdef list jsonld = []
    cdef list times = []
    cdef list h1s = []
    title = ""
    if element._c_node is NULL:
        raise ValueError("invalid element")
    doc = element._doc
    top = element._c_node
    if top.type != tree.XML_ELEMENT_NODE:
        # A comment or processing instruction: iter() with tags yields nothing.
        return meta, links, jsonld, times, h1s, title
    c_node = top
    while c_node is not NULL:
        kind = _kind(c_node)
        if kind == META:
            _read_meta(doc, c_node, meta)
        elif kind == SCRIPT:
            attribute = plain_attribute(c_node, "type")
            if attribute is NULL or not _may_hold(attribute, "ld+json"):
                pass  # most scripts: no string made for their type
            elif _value(doc, c_node, attribute).strip().lower() == "application/ld+json":
                text = cetree.textOf(c_node)
                if text:
                    jsonld.append(text)
        elif kind == LINK:
            attribute = plain_attribute(c_node, "rel")
            if attribute is NULL or not (
                _may_hold(attribute, "canonical") or _may_hold(attribute, "image_src")
            ):
                pass  # a stylesheet, an icon: no rel the scan keeps
            else:
                href = _get(doc, c_node, "href")
                if href:
                    for rel in _value(doc, c_node, attribute).lower().split():
                        if rel in _LINK_RELS and rel not in links:
                            links[rel] = href
        elif kind == TIME:
            if len(times) < MAX_TIMES:
                times.append(cetree.elementFactory(doc, c_node))
        elif kind == H1:
            if len(h1s) < MAX_H1S:
                h1s.append(cetree.elementFactory(doc, c_node))
        elif kind != NOT_SCANNED and not title:
            title = element_text(cetree.elementFactory(doc, c_node))
        c_node = next_element(c_node, top)
    return meta, links, jsonld, times, h1s, title


cdef bint _holds_at(const unsigned char* text, const char* word) noexcept:
    """Whether `text` starts with `word` (lower-case ASCII) in any ASCII case."""
    cdef Py_ssize_t k = 0
    cdef unsigned char c
    while word[k] != 0:
        c = text[k]
        if 65 <= c <= 90:  # A-Z
            c += 32
        if c != word[k]:
            return False
        k += 1
    return True


cdef bint _ascii_without_author_words(xmlAttr* attribute) noexcept:
    """Whether the value is ASCII text (one text node) without any of `authors`'
    _AUTHOR_CLASS_ASCII_RE words in any case: `author_class` says False for it (ASCII values
    are searched lower-cased for those words), so it is not asked. Any other value is."""
    cdef xmlNode* child = attribute.children
    cdef const unsigned char* text
    cdef Py_ssize_t i = 0
    if child is NULL:
        return True  # "": no word in it
    if child.next is not NULL or child.type != tree.XML_TEXT_NODE or child.content is NULL:
        return False
    text = <const unsigned char*> child.content
    while text[i] != 0:
        if text[i] >= 128:
            return False  # not ASCII: case folding may make a word ("wrİter")
        i += 1
    i = 0
    while text[i] != 0:
        if (
            _holds_at(text + i, "byline")
            or _holds_at(text + i, "author")
            or _holds_at(text + i, "writer")
            or _holds_at(text + i, "reporter")
            or _holds_at(text + i, "journalist")
            or _holds_at(text + i, "autor")
        ):
            return False
        i += 1
    return True


def byline_candidates(container, Py_ssize_t budget, author_class):
    """The elements `authors._byline_candidates_python` finds among the first `budget` of
    ``container.iter(etree.Element)``: those with rel or itemprop author, or a class value
    `author_class` (the cached `authors._author_class`) says is an author's."""
    cdef cetree._Element element = container
    cdef cetree._Document doc
    cdef xmlNode* top
    cdef xmlNode* c_node
    cdef xmlAttr* attribute
    cdef const char* name
    cdef Py_ssize_t seen = 0
    cdef list found = []
    if element._c_node is NULL:
        raise ValueError("invalid element")
    doc = element._doc
    top = element._c_node
    if top.type != tree.XML_ELEMENT_NODE:
        return found  # a comment or processing instruction: iter(etree.Element) yields nothing
    c_node = top
    while c_node is not NULL and seen < budget:
        seen += 1
        # Any attribute that names an author marks the element, as in the Python loop over
        # items(); lxml reads an item's value by its name (the first attribute so named).
        attribute = c_node.properties
        while attribute is not NULL:
            if attribute.ns is NULL:
                name = <const char*> attribute.name
                if (
                    (
                        strcmp(name, "class") == 0
                        and not _ascii_without_author_words(plain_attribute(c_node, name))
                        and author_class(_get(doc, c_node, name))
                    )
                    or (strcmp(name, "rel") == 0 and _get(doc, c_node, name) == "author")
                    or (
                        strcmp(name, "itemprop") == 0
                        and _get(doc, c_node, name) in ("author", "creator")
                    )
                ):
                    found.append(cetree.elementFactory(doc, c_node))
                    break
            attribute = attribute.next
        c_node = next_element(c_node, top)
    return found


cdef bint _says_breadcrumb(cetree._Document doc, xmlNode* c_node, const char* name) except -1:
    """``"breadcrumb" in element.get(name).lower()`` for a class or aria-label: lxml's value
    made only when its text may hold the word."""
    cdef xmlAttr* attribute = plain_attribute(c_node, name)
    if attribute is NULL or not _may_hold(attribute, "breadcrumb"):
        return False
    return "breadcrumb" in _value(doc, c_node, attribute).lower()


def first_breadcrumb(top_element, Py_ssize_t budget):
    """(the first element among the first `budget` of ``top_element.iter(etree.Element)`` that
    `record_fields._is_breadcrumb` accepts, or None; how many elements were looked at), as
    `record_fields._first_breadcrumb_python` finds it."""
    cdef cetree._Element element = top_element
    cdef cetree._Document doc
    cdef xmlNode* top
    cdef xmlNode* c_node
    cdef xmlAttr* attribute
    cdef Py_ssize_t seen = 0
    if element._c_node is NULL:
        raise ValueError("invalid element")
    doc = element._doc
    top = element._c_node
    if top.type != tree.XML_ELEMENT_NODE:
        return None, 0  # a comment or processing instruction: iter(etree.Element) yields nothing
    c_node = top
    while c_node is not NULL and seen < budget:
        seen += 1
        if _says_breadcrumb(doc, c_node, "class") or _says_breadcrumb(doc, c_node, "aria-label"):
            return cetree.elementFactory(doc, c_node), seen
        attribute = plain_attribute(c_node, "itemtype")
        if attribute is not NULL and _value(doc, c_node, attribute).endswith("BreadcrumbList"):
            return cetree.elementFactory(doc, c_node), seen
        c_node = next_element(c_node, top)
    return None, seen


cdef bint _skipped(xmlNode* c_node) noexcept:
    """``element.tag in dates._SKIP_TAGS``: a name of the set without a namespace (a namespaced
    element's tag is "{...}name", never one of them)."""
    cdef const char* name = <const char*> c_node.name
    if c_node.ns is not NULL or name is NULL:
        return False
    return (
        strcmp(name, "script") == 0
        or strcmp(name, "style") == 0
        or strcmp(name, "noscript") == 0
        or strcmp(name, "textarea") == 0
        or strcmp(name, "option") == 0
        or strcmp(name, "select") == 0
        or strcmp(name, "svg") == 0
    )


cdef bint _dateish_run(run, dateish) except -1:
    """`dates._dateish_run`: a text run worth a date read."""
    if not run or run.isspace():
        return False
    return dateish(run if len(run) <= 160 else run[:40]) is not None


cdef bint _may_hold_digit(xmlNode* c_node) noexcept:
    """Whether the run of text nodes from `c_node` (lxml's text or tail: text and CDATA nodes,
    XInclude markers skipped) may hold a digit: an ASCII digit or any non-ASCII character (a
    date pattern's digit is any decimal digit). A run of ASCII without one holds no date (a
    blank one neither): no string is made for it."""
    cdef const unsigned char* text
    cdef Py_ssize_t i
    while c_node is not NULL:
        if c_node.type == tree.XML_TEXT_NODE or c_node.type == tree.XML_CDATA_SECTION_NODE:
            if c_node.content is not NULL:
                text = <const unsigned char*> c_node.content
                i = 0
                while text[i] != 0:
                    if text[i] >= 128 or 48 <= text[i] <= 57:
                        return True
                    i += 1
        elif c_node.type != tree.XML_XINCLUDE_START and c_node.type != tree.XML_XINCLUDE_END:
            return False
        c_node = c_node.next
    return False


def body_date_runs(scope, Py_ssize_t budget, dateish, Py_ssize_t most):
    """[(index, element, run)] as `dates._body_date_runs_python` finds them among the first
    `budget` of ``scope.iter(etree.Element)``: a proxy only for the elements that hold one."""
    cdef cetree._Element element = scope
    cdef cetree._Document doc
    cdef xmlNode* top
    cdef xmlNode* c_node
    cdef Py_ssize_t seen = 0
    cdef list found = []
    if element._c_node is NULL:
        raise ValueError("invalid element")
    doc = element._doc
    top = element._c_node
    if top.type != tree.XML_ELEMENT_NODE:
        return found  # a comment or processing instruction: iter(etree.Element) yields nothing
    c_node = top
    while c_node is not NULL and seen < budget:
        if not _skipped(c_node):
            proxy = None
            if _may_hold_digit(c_node.children):
                text = cetree.textOf(c_node)
                if _dateish_run(text, dateish):
                    proxy = cetree.elementFactory(doc, c_node)
                    found.append((seen, proxy, text))
            if _may_hold_digit(c_node.next):
                tail = cetree.tailOf(c_node)
                if _dateish_run(tail, dateish):
                    if proxy is None:
                        proxy = cetree.elementFactory(doc, c_node)
                    found.append((seen, proxy, tail))
            if len(found) >= most:
                break
        seen += 1
        c_node = next_element(c_node, top)
    return found


cdef bint _filled(cetree._Document doc, xmlNode* c_node, xmlAttr* attribute) except -1:
    """Whether the attribute's value is not empty (one text node read without a string)."""
    cdef xmlNode* child = attribute.children
    if child is NULL:
        return False
    if child.next is NULL and child.type == tree.XML_TEXT_NODE and child.content is not NULL:
        return child.content[0] != 0
    return bool(_value(doc, c_node, attribute))


def classed_elements(scope, Py_ssize_t budget):
    """[(index, element)] as `dates._classed_elements_python` finds them: the elements among
    the first `budget` of ``scope.iter(etree.Element)`` whose class is not empty."""
    cdef cetree._Element element = scope
    cdef cetree._Document doc
    cdef xmlNode* top
    cdef xmlNode* c_node
    cdef xmlAttr* attribute
    cdef Py_ssize_t seen = 0
    cdef list found = []
    if element._c_node is NULL:
        raise ValueError("invalid element")
    doc = element._doc
    top = element._c_node
    if top.type != tree.XML_ELEMENT_NODE:
        return found
    c_node = top
    while c_node is not NULL and seen < budget:
        attribute = plain_attribute(c_node, "class")
        if attribute is not NULL and _filled(doc, c_node, attribute):
            found.append((seen, cetree.elementFactory(doc, c_node)))
        seen += 1
        c_node = next_element(c_node, top)
    return found


def head_links(head):
    """(next, prev, first) as `continuation._head_page_links_python` reads them from the
    ``<link>`` elements below `head`: the rel and href of each read without a proxy."""
    cdef cetree._Element element = head
    cdef cetree._Document doc
    cdef xmlNode* top
    cdef xmlNode* c_node
    cdef xmlAttr* rel_attribute
    cdef xmlAttr* href_attribute
    cdef const char* name
    cdef dict found = {}
    if element._c_node is NULL:
        raise ValueError("invalid element")
    doc = element._doc
    top = element._c_node
    if top.type != tree.XML_ELEMENT_NODE:
        return None, None, None
    c_node = top
    while c_node is not NULL:
        name = <const char*> c_node.name
        # iter("link"): the name in no namespace or the empty one.
        if (
            name is not NULL
            and strcmp(name, "link") == 0
            and (c_node.ns is NULL or c_node.ns.href is NULL or c_node.ns.href[0] == 0)
        ):
            rel_attribute = plain_attribute(c_node, "rel")
            href_attribute = plain_attribute(c_node, "href")
            # No rel: no word to read; no href: skipped (an empty href too, below). A rel
            # without "next", "prev" or "first" in any ASCII case holds none of the words
            # ("previous" holds "prev"): only those letters in ASCII lower to them as a whole
            # word (tests/test_compiled_meta_walks.py checks every character).
            if (
                rel_attribute is not NULL
                and href_attribute is not NULL
                and (
                    _may_hold(rel_attribute, "next")
                    or _may_hold(rel_attribute, "prev")
                    or _may_hold(rel_attribute, "first")
                )
            ):
                href = _value(doc, c_node, href_attribute)
                if href:
                    for word in _value(doc, c_node, rel_attribute).lower().split():
                        rel = "prev" if word == "previous" else word
                        if rel == "next" or rel == "prev" or rel == "first":
                            found.setdefault(rel, str(href))
        c_node = next_element(c_node, top)
    return found.get("next"), found.get("prev"), found.get("first")


cdef bint _has_child_items(xmlNode* c_node) noexcept:
    """``len(element) != 0``: a child element, comment, entity reference or processing
    instruction (what lxml counts)."""
    return item_from(c_node.children) is not NULL


cdef str _whole_text(xmlNode* c_node, element):
    """``etree.tostring(element, method="text", encoding="unicode", with_tail=False)``: the
    content of the subtree's text and CDATA nodes in document order, as libxml2's node content
    (xmlBufGetNodeContent) gathers them; lxml itself for a subtree with an entity reference."""
    cdef xmlNode* node = c_node.children
    cdef list parts = []
    while node is not NULL and node is not c_node:
        if node.type == tree.XML_TEXT_NODE or node.type == tree.XML_CDATA_SECTION_NODE:
            if node.content is not NULL:
                parts.append(
                    PyUnicode_DecodeUTF8(
                        <const char*> node.content, strlen(<const char*> node.content), NULL
                    )
                )
        elif node.type == tree.XML_ENTITY_REF_NODE:
            return _tostring(element, method="text", encoding="unicode", with_tail=False)
        # The next node in document order below c_node: the first child, else the next
        # sibling of the node or of its nearest ancestor below c_node.
        if node.children is not NULL and node.type != tree.XML_ENTITY_REF_NODE:
            node = node.children
            continue
        while node is not c_node and node.next is NULL:
            node = node.parent
        if node is not c_node:
            node = node.next
    return "".join(parts)


def link_facts(list links):
    """[(rel, text)] as `continuation._link_facts_python` reads them from the ``<a>`` elements
    `links`: the rel attribute (None when absent) and the whole text."""
    cdef cetree._Element element
    cdef xmlNode* c_node
    cdef list found = []
    for link in links:
        element = link
        c_node = element._c_node
        if c_node is NULL:
            raise ValueError("invalid element")
        if _has_child_items(c_node):
            text = _whole_text(c_node, link)
        else:
            text = cetree.textOf(c_node) or ""
        found.append((_get(element._doc, c_node, "rel"), text))
    return found


def text_pieces(scope, Py_ssize_t piece):
    """`dates._text_pieces_python`: ``scope.itertext()`` joined `piece` characters or a little
    more at a time, read without lxml's walk (an ``iterwalk`` with a proxy per node). The
    same texts in the same order: an element's text when entering it, an entity reference's
    ``&name;``, then each item's tail (but the scope's own) after it."""
    cdef cetree._Element element = scope
    cdef xmlNode* top
    cdef xmlNode* parent
    cdef xmlNode* cur
    cdef list pieces = []
    cdef Py_ssize_t size = 0
    if element._c_node is NULL:
        raise ValueError("invalid element")
    top = element._c_node
    if top.type != tree.XML_ELEMENT_NODE:
        raise TypeError("text_pieces walks an element")
    text = cetree.textOf(top)
    if text is not None:
        pieces.append(text)
        size += len(text)
    parent = top
    cur = item_from(top.children)
    while True:
        if size >= piece:
            yield "".join(pieces)
            pieces = []
            size = 0
        if cur is NULL:
            # The parent's items are done: its tail (not the scope's), then its next sibling.
            if parent is top:
                break
            text = cetree.tailOf(parent)
            if text is not None:
                pieces.append(text)
                size += len(text)
            cur = item_from(parent.next)
            parent = parent.parent
            continue
        if cur.type == tree.XML_ELEMENT_NODE:
            text = cetree.textOf(cur)
            if text is not None:
                pieces.append(text)
                size += len(text)
            parent = cur
            cur = item_from(cur.children)
            continue
        if cur.type == tree.XML_ENTITY_REF_NODE:
            text = "&" + PyUnicode_DecodeUTF8(
                <const char*> cur.name, strlen(<const char*> cur.name), NULL
            ) + ";"
            pieces.append(text)
            size += len(text)
            if size >= piece:
                yield "".join(pieces)
                pieces = []
                size = 0
        text = cetree.tailOf(cur)
        if text is not None:
            pieces.append(text)
            size += len(text)
        cur = item_from(cur.next)
    if pieces:
        yield "".join(pieces)


# --- title similarity -------------------------------------------------------------------------

cdef void _sort_codes(uint64_t* codes, Py_ssize_t n) noexcept nogil:
    """Heap sort in place (O(n log n) on any text, the comparisons inline: glibc's qsort
    called a comparison function per step)."""
    cdef Py_ssize_t start = n // 2, end = n, root, child
    cdef uint64_t swap
    while end > 1:
        if start > 0:
            start -= 1
        else:
            end -= 1
            swap = codes[end]
            codes[end] = codes[0]
            codes[0] = swap
        root = start
        while True:
            child = 2 * root + 1
            if child >= end:
                break
            if child + 1 < end and codes[child] < codes[child + 1]:
                child += 1
            if codes[root] < codes[child]:
                swap = codes[root]
                codes[root] = codes[child]
                codes[child] = swap
                root = child
            else:
                break


cdef Py_ssize_t _bigram_codes(str text, uint64_t* out) except -1:
    """The distinct character bigrams of `text`, sorted, as numbers (first code point, then
    the second in the low 21 bits); a text shorter than two characters is its own one member
    (a code no bigram has). Returns how many."""
    cdef Py_ssize_t n = len(text)
    cdef Py_ssize_t i, k
    cdef Py_UCS4 previous, current
    if n == 0:
        out[0] = 0xFFFFFFFFFFFFFFFF
        return 1
    previous = text[0]
    if n == 1:
        out[0] = ((<uint64_t> previous) << 21) | 0x1FFFFF
        return 1
    for i in range(1, n):
        current = text[i]
        out[i - 1] = ((<uint64_t> previous) << 21) | (<uint64_t> current)
        previous = current
    _sort_codes(out, n - 1)
    k = 1
    for i in range(1, n - 1):
        if out[i] != out[k - 1]:
            out[k] = out[i]
            k += 1
    return k


def bigram_dice(str a, str b):
    """``title._bigram_dice_python(a, b)``: the Dice similarity of the two texts' sets of
    character bigrams, by sorted arrays of numbers instead of two sets of 2-character
    strings."""
    cdef uint64_t* codes_a = <uint64_t*> malloc((len(a) + 1) * sizeof(uint64_t))
    cdef uint64_t* codes_b = <uint64_t*> malloc((len(b) + 1) * sizeof(uint64_t))
    cdef Py_ssize_t size_a, size_b, i = 0, j = 0, common = 0
    if codes_a is NULL or codes_b is NULL:
        free(codes_a)
        free(codes_b)
        raise MemoryError()
    try:
        size_a = _bigram_codes(a, codes_a)
        size_b = _bigram_codes(b, codes_b)
        while i < size_a and j < size_b:
            if codes_a[i] == codes_b[j]:
                common += 1
                i += 1
                j += 1
            elif codes_a[i] < codes_b[j]:
                i += 1
            else:
                j += 1
    finally:
        free(codes_a)
        free(codes_b)
    # Both counts are exact in a double: the one correctly rounded quotient, as Python's
    # int / int gives it.
    return <double> (2 * common) / <double> (size_a + size_b)

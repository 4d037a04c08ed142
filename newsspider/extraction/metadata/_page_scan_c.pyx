# cython: language_level=3, boundscheck=False, wraparound=False
"""The metadata's scans of the tree in C: `page_scan.scan_page`'s walk (the same tags, in the
same order, read the same way), `authors`' search for byline candidates and `record_fields`'
search for a breadcrumb trail.

`page_scan.scan_page_python` and `authors._byline_candidates_python` are the references and
every rule here mirrors a line there; tests/test_compiled_scan.py asserts identical results on
every fixture and on generated markup.
The Python scan costs more than half of the metadata's instructions' worth of lxml calls: an
element proxy, its ``tag`` and one or two ``get()`` or ``items()`` calls for each of the page's
~100 ``<meta>``, ``<link>`` and ``<script>`` elements. Here the walk reads libxml2's node structs
through lxml's public C API (as `_segments_c` does) and makes a proxy only for what the scan
keeps (``<time>``, ``<h1>``, ``<title>``).
"""

from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.string cimport strcmp, strlen

cimport lxml.includes.etreepublic as cetree
from lxml.includes cimport tree
from lxml.includes.tree cimport xmlAttr, xmlNode

cetree.import_lxml__etree()

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


cdef inline xmlNode* _element_from(xmlNode* c_node) noexcept:
    """`c_node` or its first following sibling that is an element, or NULL."""
    while c_node is not NULL and c_node.type != tree.XML_ELEMENT_NODE:
        c_node = c_node.next
    return c_node


cdef inline xmlNode* _next_element(xmlNode* c_node, xmlNode* top) noexcept:
    """The element after `c_node` in document order, as iter() walks below `top`: its first
    child element, else the next element after it or after its nearest ancestor below `top`
    that has one; NULL at the end."""
    cdef xmlNode* following = _element_from(c_node.children)
    while following is NULL and c_node is not top:
        following = _element_from(c_node.next)
        c_node = c_node.parent
    return following


cdef object _value(cetree._Document doc, xmlNode* c_node, xmlAttr* attribute):
    """The attribute's value as lxml gives it."""
    cdef xmlNode* child = attribute.children
    if child is NULL:
        return ""
    if child.next is NULL and child.type == tree.XML_TEXT_NODE and child.content is not NULL:
        return PyUnicode_DecodeUTF8(
            <const char*> child.content, strlen(<const char*> child.content), NULL
        )
    # Entity references or several nodes: lxml puts the value together.
    name = PyUnicode_DecodeUTF8(
        <const char*> attribute.name, strlen(<const char*> attribute.name), NULL
    )
    return cetree.elementFactory(doc, c_node).get(name)


cdef xmlAttr* _attribute(xmlNode* c_node, const char* name) noexcept:
    """The first attribute of that name without a namespace (xmlGetNoNsProp's rule), or NULL."""
    cdef xmlAttr* attribute = c_node.properties
    while attribute is not NULL:
        if attribute.ns is NULL and strcmp(<const char*> attribute.name, name) == 0:
            return attribute
        attribute = attribute.next
    return NULL


cdef object _get(cetree._Document doc, xmlNode* c_node, const char* name):
    """element.get(name)."""
    cdef xmlAttr* attribute = _attribute(c_node, name)
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
            attribute = _attribute(c_node, "type")
            if attribute is NULL or not _may_hold(attribute, "ld+json"):
                pass  # most scripts: no string made for their type
            elif _value(doc, c_node, attribute).strip().lower() == "application/ld+json":
                text = cetree.textOf(c_node)
                if text:
                    jsonld.append(text)
        elif kind == LINK:
            attribute = _attribute(c_node, "rel")
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
        c_node = _next_element(c_node, top)
    return meta, links, jsonld, times, h1s, title


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
                    (strcmp(name, "class") == 0 and author_class(_get(doc, c_node, name)))
                    or (strcmp(name, "rel") == 0 and _get(doc, c_node, name) == "author")
                    or (
                        strcmp(name, "itemprop") == 0
                        and _get(doc, c_node, name) in ("author", "creator")
                    )
                ):
                    found.append(cetree.elementFactory(doc, c_node))
                    break
            attribute = attribute.next
        c_node = _next_element(c_node, top)
    return found


cdef bint _says_breadcrumb(cetree._Document doc, xmlNode* c_node, const char* name) except -1:
    """``"breadcrumb" in element.get(name).lower()`` for a class or aria-label: lxml's value
    made only when its text may hold the word."""
    cdef xmlAttr* attribute = _attribute(c_node, name)
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
        attribute = _attribute(c_node, "itemtype")
        if attribute is not NULL and _value(doc, c_node, attribute).endswith("BreadcrumbList"):
            return cetree.elementFactory(doc, c_node), seen
        c_node = _next_element(c_node, top)
    return None, seen

# cython: language_level=3, boundscheck=False, wraparound=False
"""The page classifier's reads of the tree in C: a block's first link
(`page_features._first_href`'s compiled twin) and the body container's links, images, code and
definition terms (`page_features._container_counts`').

The template features read each teaser's first link: ``next(block.iter("a"))`` and its
``get("href")``, an iterator with a tag matcher and an element proxy per teaser (about 6,000
instructions each, a fifth of the features' cost on a listing page). Here the walk reads
libxml2's node structs through lxml's public C API, as `_page_scan_c` does, with the same
rules: elements only, in document order from the block itself, named ``a`` in no namespace or
the empty one (what ``iter("a")`` matches), and the ``href`` attribute without a namespace
(``get``'s rule), its value as lxml gives it. The container's counts are
``iter("a", "img", "code", "kbd", "dt")`` read by each element's ``tag``: an element of these
names in the empty namespace is matched, and its tag ("{}a") counts it as code, as the Python
code's last branch does. `tests/test_page_features_twin.py` compares both on every element of
generated and fixture pages.
"""

from libc.string cimport strcmp

cimport lxml.includes.etreepublic as cetree
from lxml.includes cimport tree
from lxml.includes.tree cimport xmlAttr, xmlNode

from newsspider.extraction.common._lxml_nodes cimport (
    element_from,
    next_element,
    plain_attribute,
    single_text_value,
)

cetree.import_lxml__etree()


cdef inline bint _is_link(xmlNode* c_node) noexcept:
    """Named ``a`` in no namespace or the empty one (``iter("a")``'s match)."""
    cdef const char* name = <const char*> c_node.name
    if name is NULL or name[0] != c"a" or name[1] != 0:
        return False
    return c_node.ns is NULL or c_node.ns.href is NULL or c_node.ns.href[0] == 0


cdef object _href(cetree._Document doc, xmlNode* c_node):
    """``element.get("href")``: the first ``href`` attribute without a namespace."""
    cdef xmlAttr* attribute = plain_attribute(c_node, "href")
    if attribute is NULL:
        return None
    value = single_text_value(attribute)
    if value is not None:
        return value
    # Entity references or several nodes: lxml puts the value together.
    return cetree.elementFactory(doc, c_node).get("href")


def first_href(element):
    """The ``href`` of the first ``a`` element at or below ``element`` in document order (None
    when there is none or it has no ``href``)."""
    cdef cetree._Element root = element
    cdef xmlNode* top
    cdef xmlNode* c_node
    if root._c_node is NULL:
        raise ValueError("invalid element")
    top = root._c_node
    if top.type != tree.XML_ELEMENT_NODE:
        return None  # a comment or processing instruction: iter("a") yields nothing
    c_node = top
    while c_node is not NULL:
        if _is_link(c_node):
            return _href(root._doc, c_node)
        c_node = next_element(c_node, top)
    return None


cdef enum:
    NOT_COUNTED = 0
    ANCHOR = 1
    IMAGE = 2
    CODE = 3
    TERM = 4


cdef inline int _counted(xmlNode* c_node) noexcept:
    cdef const char* name = <const char*> c_node.name
    cdef int kind
    if name is NULL:
        return NOT_COUNTED
    if strcmp(name, "a") == 0:
        kind = ANCHOR
    elif strcmp(name, "img") == 0:
        kind = IMAGE
    elif strcmp(name, "dt") == 0:
        kind = TERM
    elif strcmp(name, "code") == 0 or strcmp(name, "kbd") == 0:
        kind = CODE
    else:
        return NOT_COUNTED
    if c_node.ns is NULL or c_node.ns.href is NULL:
        return kind
    # Matched in the empty namespace, where its tag ("{}a") is none of the names: code.
    return CODE if c_node.ns.href[0] == 0 else NOT_COUNTED


def container_counts(element):
    """(anchors, images, code, terms) at or below ``element``, as
    `page_features._container_counts_python` counts them."""
    cdef cetree._Element root = element
    cdef xmlNode* top
    cdef xmlNode* c_node
    cdef Py_ssize_t anchors = 0, images = 0, code = 0, terms = 0
    cdef int kind
    if root._c_node is NULL:
        raise ValueError("invalid element")
    top = root._c_node
    if top.type != tree.XML_ELEMENT_NODE:
        return 0, 0, 0, 0
    c_node = top
    while c_node is not NULL:
        kind = _counted(c_node)
        if kind == ANCHOR:
            anchors += 1
        elif kind == IMAGE:
            images += 1
        elif kind == TERM:
            terms += 1
        elif kind == CODE:
            code += 1
        c_node = next_element(c_node, top)
    return anchors, images, code, terms

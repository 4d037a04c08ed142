# cython: language_level=3
"""libxml2's nodes as lxml reads them, shared by the compiled twins that walk the tree through
lxml's public C API (`_segments_c`, `_article_html_c`, `_page_scan_c`, `_page_features_c`,
`_threads_c`, `_cleaning_c`). Inline functions only, so cimporting this adds no module to
import at run time. Only node structs are read; no libxml2 function is called.
"""

from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.string cimport strcmp, strlen
from lxml.includes cimport tree
from lxml.includes.tree cimport xmlAttr, xmlNode


cdef inline bint is_item(xmlNode* c_node) noexcept:
    """What lxml iterates and counts as a child (its ``_isElement``): an element, comment,
    entity reference or processing instruction."""
    return (
        c_node.type == tree.XML_ELEMENT_NODE
        or c_node.type == tree.XML_COMMENT_NODE
        or c_node.type == tree.XML_ENTITY_REF_NODE
        or c_node.type == tree.XML_PI_NODE
    )


cdef inline xmlNode* item_from(xmlNode* c_node) noexcept:
    """`c_node` or its first following sibling that is an item, or NULL."""
    while c_node is not NULL and not is_item(c_node):
        c_node = c_node.next
    return c_node


cdef inline xmlAttr* plain_attribute(xmlNode* c_node, const char* name) noexcept:
    """The first attribute of that name without a namespace (xmlGetNoNsProp's rule), or NULL."""
    cdef xmlAttr* attribute = c_node.properties
    while attribute is not NULL:
        if attribute.ns is NULL and strcmp(<const char*> attribute.name, name) == 0:
            return attribute
        attribute = attribute.next
    return NULL


cdef inline object single_text_value(xmlAttr* attribute):
    """The value of an attribute libxml2 holds as one text node, or "" for none; None when it
    holds entity references or several nodes (then lxml puts the value together: the caller
    asks it)."""
    cdef xmlNode* child = attribute.children
    if child is NULL:
        return ""
    if child.next is NULL and child.type == tree.XML_TEXT_NODE and child.content is not NULL:
        return PyUnicode_DecodeUTF8(<const char*> child.content, strlen(<const char*> child.content), NULL)
    return None


cdef inline xmlNode* element_from(xmlNode* c_node) noexcept:
    """`c_node` or its first following sibling that is an element, or NULL."""
    while c_node is not NULL and c_node.type != tree.XML_ELEMENT_NODE:
        c_node = c_node.next
    return c_node


cdef inline xmlNode* next_element(xmlNode* c_node, xmlNode* top) noexcept:
    """The element after `c_node` in document order, as iter() walks below `top`: its first
    child element, else the next element after it or after its nearest ancestor below `top`
    that has one; NULL at the end."""
    cdef xmlNode* following = element_from(c_node.children)
    while following is NULL and c_node is not top:
        following = element_from(c_node.next)
        c_node = c_node.parent
    return following


cdef inline xmlNode* text_node_or_skip(xmlNode* c_node) noexcept:
    """lxml's _textNodeOrSkip: .text and .tail are the run of text and CDATA nodes (XInclude
    marks skipped) that starts at the first child, or right after the element."""
    while c_node is not NULL:
        if c_node.type == tree.XML_TEXT_NODE or c_node.type == tree.XML_CDATA_SECTION_NODE:
            return c_node
        if c_node.type == tree.XML_XINCLUDE_START or c_node.type == tree.XML_XINCLUDE_END:
            c_node = c_node.next
        else:
            return NULL
    return NULL

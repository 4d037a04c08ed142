# cython: language_level=3, boundscheck=False, wraparound=False
"""`cleaning._box_around` in C: the same box and the same nodes counted, read from libxml2's
nodes without an lxml proxy or a Python string per node.

The Python code reads each node of a form's surroundings as an lxml element (a proxy made and
freed per node) and its text and tail as new strings; this walk reads the same text nodes in
place and makes a string only for a text that is not ASCII (`str.strip` then decides what is
whitespace, as in Python). It reads elements only: a comment, processing instruction or entity
reference on the way (the parser drops the first two; HTML has no third) returns None, and the
caller runs the Python code for that field. `tests/test_cleaning_twin.py` holds both equal on
generated pages.
"""

from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.string cimport strcmp, strlen

cimport lxml.includes.etreepublic as cetree
from lxml.includes cimport tree
from lxml.includes.tree cimport xmlNode

from newsspider.extraction.common._lxml_nodes cimport element_from, item_from

cetree.import_lxml__etree()

# What a walk found: the Python code must read this field (a node kind this walk does not
# read), or the bounds were passed.
cdef enum:
    OVER = -1
    UNREAD = -2


cdef class _Walk:
    cdef Py_ssize_t chars, nodes, spent, max_chars, max_nodes

    cdef int add(self, xmlNode* c_node) except -3:
        """`_Count.add` of the text collected from `c_node` on (lxml's ``_collectText``: the
        run of text nodes there): 1 within the bound, 0 over it, UNREAD."""
        cdef xmlNode* c_text = c_node
        cdef const unsigned char* content
        cdef Py_ssize_t length, start, end, runs = 0
        cdef bint ascii = True
        cdef bytes joined
        while c_text is not NULL and (
            c_text.type == tree.XML_TEXT_NODE or c_text.type == tree.XML_CDATA_SECTION_NODE
        ):
            runs += 1
            c_text = c_text.next
        if c_text is not NULL and (
            c_text.type == tree.XML_XINCLUDE_START or c_text.type == tree.XML_XINCLUDE_END
        ):
            return UNREAD
        if runs == 1:
            content = <const unsigned char*> c_node.content
            length = strlen(<const char*> content) if content is not NULL else 0
        elif runs > 1:
            joined = b""
            c_text = c_node
            while runs:
                if c_text.content is not NULL:
                    joined += <bytes> (<const char*> c_text.content)
                c_text = c_text.next
                runs -= 1
            content = <const unsigned char*> joined
            length = len(joined)
        else:
            length = 0
        if length:
            for start in range(length):
                if content[start] >= 0x80:
                    ascii = False
                    break
            if ascii:
                # str.strip's whitespace below 0x80: \t \n \v \f \r, \x1c-\x1f and space.
                start, end = 0, length
                while start < end and _ascii_space(content[start]):
                    start += 1
                while end > start and _ascii_space(content[end - 1]):
                    end -= 1
                self.chars += end - start
            else:
                self.chars += len(
                    PyUnicode_DecodeUTF8(<const char*> content, length, NULL).strip()
                )
        return self.chars <= self.max_chars

    cdef int subtree(self, xmlNode* top) except -3:
        """`_Count.subtree`: 1 within the bounds, 0 over them, UNREAD."""
        cdef xmlNode* c_node = top
        cdef xmlNode* c_next
        cdef int fits
        while True:
            if c_node.type != tree.XML_ELEMENT_NODE:
                return UNREAD
            self.nodes += 1
            self.spent += 1
            if self.nodes > self.max_nodes:
                return 0
            fits = self.add(c_node.children)
            if fits == UNREAD:
                return UNREAD
            if fits and c_node is not top:
                fits = self.add(c_node.next)
                if fits == UNREAD:
                    return UNREAD
            if not fits:
                return 0
            # The next node in document order within `top` (elements only: text is read
            # with its element).
            c_next = item_from(c_node.children)
            if c_next is NULL:
                while c_node is not top:
                    c_next = item_from(c_node.next)
                    if c_next is not NULL:
                        break
                    c_node = c_node.parent
                if c_next is NULL:
                    return 1
            c_node = c_next


cdef inline bint _ascii_space(unsigned char c) noexcept:
    return c == 32 or (9 <= c <= 13) or (28 <= c <= 31)


cdef str _tag(xmlNode* c_node):
    cdef const char* name = <const char*> c_node.name
    return PyUnicode_DecodeUTF8(name, strlen(name), NULL)


def box_around(
    cetree._Element field,
    Py_ssize_t spent,
    frozenset not_a_box,
    frozenset block_tags,
    int max_levels,
    Py_ssize_t max_nodes,
    Py_ssize_t max_chars,
):
    """(`cleaning._box_around`'s box or None, the page's nodes read after it), or None when
    the field's surroundings hold a node kind this walk does not read (the Python code reads
    that field instead; nothing was changed)."""
    cdef _Walk walk = _Walk()
    cdef xmlNode* child = field._c_node
    cdef xmlNode* element
    cdef xmlNode* sibling
    cdef xmlNode* box = NULL
    cdef int fits, level
    walk.spent = spent
    walk.max_chars = max_chars
    walk.max_nodes = max_nodes
    if walk.subtree(child) == UNREAD:
        return None
    element = child.parent
    for level in range(max_levels):
        if element is NULL:
            break
        if element.type != tree.XML_ELEMENT_NODE:
            if item_from(element) is element:  # lxml's parent: a node this walk does not read
                return None
            break  # the document: no parent
        if element.ns is not NULL:  # a namespaced tag ("{...}name")
            return None
        if _tag(element) in not_a_box:
            break
        fits = walk.add(element.children)
        if fits == UNREAD:
            return None
        if not fits:
            break
        sibling = item_from(element.children)
        while sibling is not NULL:
            fits = walk.add(sibling.next)
            if fits == UNREAD:
                return None
            if fits and sibling is not child:
                fits = walk.subtree(sibling)
                if fits == UNREAD:
                    return None
            if not fits:
                return _found(field, box), walk.spent
            sibling = item_from(sibling.next)
        if _tag(element) in block_tags:
            box = element
        child, element = element, element.parent
    return _found(field, box), walk.spent


cdef object _found(cetree._Element field, xmlNode* box):
    if box is NULL:
        return None
    return cetree.elementFactory(field._doc, box)


def ids_named(cetree._Element root, set names):
    """The elements of ``root``'s tree (document order) whose ``id`` attribute is one of
    ``names``: `visibility.reveal_controlled`'s ``//@id`` read in C, which makes a string per
    id rather than a node set of every node. None when an id is held in more than one node
    (entity references: the Python code reads that page)."""
    # ``//@id`` reads the whole document, from its node down, whichever element it is given.
    cdef xmlNode* top = <xmlNode*> root._c_node.doc
    cdef xmlNode* c_node
    cdef xmlNode* c_next
    cdef tree.xmlAttr* attribute
    cdef xmlNode* value
    cdef const char* content
    cdef list found = []
    c_node = element_from(top.children)
    if c_node is NULL:
        return found
    while True:
        attribute = c_node.properties
        while attribute is not NULL:
            if attribute.ns is NULL and strcmp(<const char*> attribute.name, "id") == 0:
                value = attribute.children
                if value is NULL:
                    content = b""
                elif value.next is NULL and value.type == tree.XML_TEXT_NODE:
                    content = <const char*> value.content
                    if content is NULL:
                        content = b""
                else:
                    return None
                if PyUnicode_DecodeUTF8(content, strlen(content), NULL) in names:
                    found.append(cetree.elementFactory(root._doc, c_node))
            attribute = attribute.next
        # The next element in document order within the tree.
        c_next = element_from(c_node.children)
        if c_next is NULL:
            while c_node is not top:
                c_next = element_from(c_node.next)
                if c_next is not NULL:
                    break
                c_node = c_node.parent
            if c_next is NULL:
                return found
        c_node = c_next

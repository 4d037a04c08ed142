# cython: language_level=3, boundscheck=False, wraparound=False
"""`threads._signature`'s attribute reads in C: a block's template word read from libxml2's
attributes in place, where each ``element.get`` makes lxml parse and encode the name, search
and decode (about 1,400 instructions a read, two reads a block). `tests/test_cleaning_twin.py`
holds it equal to the Python reads on generated pages.
"""

cimport lxml.includes.etreepublic as cetree
from lxml.includes cimport tree
from lxml.includes.tree cimport xmlAttr, xmlNode

from newsspider.extraction.common._lxml_nodes cimport plain_attribute, single_text_value

cetree.import_lxml__etree()

# An attribute this module does not read (a value held in several nodes): the Python reads.
cdef object _UNREAD = object()


cdef object _attribute(xmlNode* c_node, const char* name):
    """``element.get(name)`` for a name without namespace, or `_UNREAD`."""
    cdef xmlAttr* attribute = plain_attribute(c_node, name)
    if attribute is NULL:
        return None
    value = single_text_value(attribute)
    return _UNREAD if value is None else value


# Post numbers out of a word: ASCII digits only, as `threads._DIGITS`.
_DIGITS = str.maketrans("", "", "0123456789")


cdef str _without_digits(str word):
    """``word`` without its ASCII digits (`threads._signature`'s test and translate, with a
    loop over the characters for the test where Python runs a regular expression)."""
    cdef Py_UCS4 character
    for character in word:
        if 48 <= character <= 57:
            return word.translate(_DIGITS)
    return word


def template_word(cetree._Element element):
    """The element's first class name, else its id, else "", without ASCII digits (the word
    of `threads._signature`), or None when the Python reads must decide."""
    cdef xmlNode* c_node = element._c_node
    cdef object classes, identifier
    if c_node.type != tree.XML_ELEMENT_NODE:
        return None
    classes = _attribute(c_node, "class")
    if classes is _UNREAD:
        return None
    if classes:
        words = (<str> classes).split()
        if words:
            return _without_digits(words[0])
    identifier = _attribute(c_node, "id")
    if identifier is _UNREAD:
        return None
    return _without_digits(identifier) if identifier else ""

"""Is an element shown to readers? The one hidden-element test every stage uses.

Only what the markup itself says is read (an inline style, the ``hidden`` attribute, the class
names every CSS framework uses for text meant for screen readers or kept hidden): stylesheets
are never evaluated.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final

from lxml import etree

from newsspider.core_loader import CompiledTwin

#: Whole class names (not words inside one: "hidden-xs" hides only on small screens) that hide
#: an element from sighted readers: screen-reader labels ("Opens in a new window") and blocks a
#: script reveals or keeps closed (a subscription wall's ".hidden" copy); the CSS frameworks'
#: display:none utilities (Bootstrap's "hide", "d-none" and "invisible", Bulma's "is-hidden").
HIDDEN_CLASS_NAMES: Final = frozenset(
    """hidden sr-only visually-hidden visuallyhidden screen-reader-text screen-reader-only
    screenreader-only is-screenreader-only u-visually-hidden a11y-hidden element-invisible
    offscreen hide d-none is-hidden invisible""".split()
)


# Every name holds one of these: substring tests on the lower-cased value rule out most values
# before any splitting (five times cheaper than one case-blind search for all the names).
HIDDEN_KEYS: Final = ("hidden", "sr-only", "screen", "invisible", "hide", "d-none")


def hidden_style(style: str) -> bool:
    """An inline style that hides the element from readers."""
    style = style.replace(" ", "").lower()
    return "display:none" in style or "visibility:hidden" in style


#: Utility classes that show an element from some screen width on ("hidden md:block" in
#: Tailwind): the element is hidden on phones only, and a desktop reader sees it.
_SHOWN_FROM_A_WIDTH: Final = re.compile(
    r"(?:(?:sm|md|lg|xl|2xl):|d-(?:sm|md|lg|xl|xxl)-)(?:block|flex|grid|inline|table|contents)"
)


def hidden_class(classes: str) -> bool:
    """Does one of the class names hide the element (`HIDDEN_CLASS_NAMES`)?"""
    lower = classes.lower()
    for key in HIDDEN_KEYS:  # a loop, not any() over a generator: this runs per class value
        if key in lower:
            break
    else:
        return False
    names = lower.split()
    if HIDDEN_CLASS_NAMES.isdisjoint(names):
        return False
    return not any(_SHOWN_FROM_A_WIDTH.match(name) for name in names)


def hidden_attributes(element: etree._Element) -> bool:
    """Hidden by its ``hidden`` attribute or its inline style (not by its class)."""
    if element.get("hidden") is not None:
        return True
    style = element.get("style")
    return style is not None and hidden_style(style)


def hidden_in_tree(element: etree._Element) -> bool:
    """Is the element hidden, or inside a hidden element? The tests above on it and each of
    its ancestors (its ``hidden`` attribute, a hiding inline style or class name), plus
    ``aria-hidden="true"`` and ``<template>`` (content a script may copy into the page, never
    shown itself): a sign-in popup kept closed until a click. A walk up the ancestors: for the
    few elements one asks about (a page's password fields), not for every element."""
    node: etree._Element | None = element
    while node is not None:
        if not isinstance(node.tag, str):  # a comment or processing instruction
            node = node.getparent()
            continue
        if node.tag == "template" or node.get("aria-hidden") == "true":
            return True
        if hidden_attributes(node):
            return True
        classes = node.get("class")
        if classes is not None and hidden_class(classes):
            return True
        node = node.getparent()
    return False


# The id attributes of the page, found by libxml2 in C (a Python loop over every element costs
# 5-8% of an extraction); the few elements the page's controls name are picked in Python and get
# the walk's own hiding tests (case-blind, as the walk reads them). A prefilter on the hiding
# values inside the XPath cost more than the walk it saved, and was case-sensitive. The
# attributes rather than their elements (``//*[@id]``): about half the instructions, a string
# per id instead of an element object, and the element reached from the few that match.
_IDS: Final = etree.XPath("//@id")
_IdsNamed = Callable[[etree._Element, set[str]], list[etree._Element] | None]
_compiled_ids: _IdsNamed | None = None
try:
    from newsspider.extraction.page import _cleaning_c
except ImportError:  # not built (no compiler at install time): the XPath
    pass
else:
    _compiled_ids = _cleaning_c.ids_named
#: The elements whose id is named, read in C (`_cleaning_c.ids_named`: a string per id, where
#: the XPath's node set holds every node of the page); `active` when not switched off.
IDS_NAMED: Final[CompiledTwin[_IdsNamed]] = CompiledTwin(_compiled_ids)


def _elements_named(root: etree._Element, controlled: set[str]) -> list[etree._Element]:
    """The elements whose id is in ``controlled``, in document order."""
    compiled = IDS_NAMED.active
    if compiled is not None:
        named = compiled(root, controlled)
        if named is not None:
            return named
    found: Any = _IDS(root)  # smart strings: each knows its element (getparent)
    if not isinstance(found, list):  # a node-set expression: always a list
        return []
    elements: list[etree._Element] = []
    for value in found:
        if value in controlled:
            element = value.getparent()
            if isinstance(element, etree._Element):
                elements.append(element)
    return elements


def reveal_controlled(root: etree._Element, controlled: set[str]) -> None:
    """Show what a control on the page opens: a hidden element whose id a button names in
    ``aria-controls`` (``controlled``: an accordion's panel, a tab's panel, an FAQ answer, a
    "read more" expander) is content collapsed behind that control, not hidden from the
    reader. Its own hiding (the ``hidden`` attribute, a hiding inline style or class name) is
    removed, in place."""
    for element in _elements_named(root, controlled):
        attributes = element.attrib
        if "hidden" in attributes:
            del attributes["hidden"]
        style = attributes.get("style")
        if style is not None and hidden_style(style):
            del attributes["style"]
        classes = attributes.get("class")
        if classes is not None and hidden_class(classes):
            attributes["class"] = " ".join(
                name for name in classes.split() if name.lower() not in HIDDEN_CLASS_NAMES
            )

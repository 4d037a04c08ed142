"""React's streamed server rendering: content sent after the place it belongs in, put back there.

A page rendered with streaming (React 18 `renderToPipeableStream`, Next.js's app router) sends
each part that was still loading as ``<template id="B:n">`` where it belongs, and the part
itself later, at the end of the document, as ``<div hidden id="S:n">…</div>`` with a script
call (``$RC("B:n", "S:n")``) that moves it into place. Without scripts the part stays hidden and
out of order: an article's body can be one of them. The move is done here, as the script would.
"""

from __future__ import annotations

from typing import Final

from lxml import etree

_BOUNDARY: Final = "B:"
_SEGMENT: Final = "S:"
# The hidden parts, found by libxml2 in C, and only on pages that have a boundary template.
_STREAMED_PARTS: Final = etree.XPath("//div[@hidden][starts-with(@id, 'S:')]")


def place_streamed_parts(root: etree._Element) -> None:
    """Move each hidden ``S:n`` part to its ``B:n`` template's place, shown, in place."""
    boundaries = {
        ident[len(_BOUNDARY) :]: template
        for template in root.iter("template")
        if (ident := template.get("id") or "").startswith(_BOUNDARY)
    }
    if not boundaries:
        return
    parts = _STREAMED_PARTS(root)
    if not isinstance(parts, list):  # a node-set expression: always a list
        return
    for part in parts:
        if not isinstance(part, etree._Element):
            continue
        template = boundaries.pop((part.get("id") or "")[len(_SEGMENT) :], None)
        parent = template.getparent() if template is not None else None
        if template is None or parent is None:
            continue
        # lxml moves an element with its tail: the text after the part stays where it was.
        tail, previous, holder = part.tail, part.getprevious(), part.getparent()
        template_tail = template.tail or ""
        part.tail = None
        try:
            parent.replace(template, part)
        except ValueError:  # the template sits inside its own part (checked in C): broken
            part.tail = tail
            continue
        if tail and previous is template:  # they were neighbours: both tails follow the part
            template_tail += tail
        elif tail and previous is not None:
            previous.tail = (previous.tail or "") + tail
        elif tail and holder is not None:
            holder.text = (holder.text or "") + tail
        part.tail = template_tail or None
        del part.attrib["hidden"]

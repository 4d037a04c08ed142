"""Remove what is never article text before the density pass (all C-level lxml operations)."""

from __future__ import annotations

from lxml import etree

# Elements whose content is code, controls or embedded documents, never prose.
_NEVER_TEXT = (
    "script",
    "style",
    "noscript",
    "template",
    "svg",
    "math",
    "iframe",
    "object",
    "embed",
    "canvas",
    "select",
    "option",
    "button",
    "textarea",
    "input",
    "link",
    "meta",
    "head",
    "video",
    "audio",
    "map",
)


def clean_tree(root: etree._Element) -> None:
    """Strip elements that never hold prose, in place. (Hidden elements are skipped by the
    segment walk, which sees every attribute anyway, instead of a costly XPath here.)"""
    etree.strip_elements(root, *_NEVER_TEXT, with_tail=False)

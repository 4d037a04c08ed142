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


#: A button holding one of these is not a control: an unclosed <div> inside it made the parser
#: put the rest of the page in there (browsers close the button at </button>).
_NOT_IN_A_BUTTON = ("p", "article", "main", "section", "h1", "h2", "h3", "li", "table")


def clean_tree(root: etree._Element) -> None:
    """Strip elements that never hold prose, in place. (Hidden elements are skipped by the
    segment walk, which sees every attribute anyway, instead of a costly XPath here.)"""
    for button in root.iter("button"):
        if len(button) and next(button.iter(*_NOT_IN_A_BUTTON), None) is not None:
            # Kept as a plain block: stripping it would take the page with it.
            button.tag = "div"
    etree.strip_elements(root, *_NEVER_TEXT, with_tail=False)

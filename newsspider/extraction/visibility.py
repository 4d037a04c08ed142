"""Is an element shown to readers? The one hidden-element test every stage uses.

Only what the markup itself says is read (an inline style, the ``hidden`` attribute, the class
names every CSS framework uses for text meant for screen readers or kept hidden): stylesheets
are never evaluated.
"""

from __future__ import annotations

from collections.abc import Mapping

#: Whole class names (not words inside one: "hidden-xs" hides only on small screens) that hide
#: an element from sighted readers: screen-reader labels ("Opens in a new window") and blocks a
#: script reveals or keeps closed (a subscription wall's ".hidden" copy).
HIDDEN_CLASS_NAMES = frozenset(
    """hidden sr-only visually-hidden visuallyhidden screen-reader-text screen-reader-only
    screenreader-only is-screenreader-only u-visually-hidden a11y-hidden element-invisible
    offscreen""".split()
)


def hidden_style(style: str) -> bool:
    """An inline style that hides the element from readers."""
    style = style.replace(" ", "").lower()
    return "display:none" in style or "visibility:hidden" in style


def hidden_class(classes: str) -> bool:
    """Does one of the class names hide the element (`HIDDEN_CLASS_NAMES`)?"""
    return not HIDDEN_CLASS_NAMES.isdisjoint(classes.lower().split())


def hidden_attributes(attributes: Mapping[str, str]) -> bool:
    """Hidden by its ``hidden`` attribute or its inline style (not by its class)."""
    if "hidden" in attributes:
        return True
    style = attributes.get("style")
    return style is not None and hidden_style(style)

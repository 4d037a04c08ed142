"""What class and id words say about a block: furniture, article, or nothing."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from newsspider import extract
from newsspider.extraction.page.class_words import (
    STRONG_FURNITURE,
    WEAK_FURNITURE,
    attribute_tokens,
    class_meaning,
    signal_without,
)
from newsspider.extraction.page.visibility import HIDDEN_CLASS_NAMES, hidden_class


def test_camel_case_and_squashed_words() -> None:
    assert {"article", "body", "articlebody"} <= attribute_tokens("articleBody")


def test_related_run_together_is_related() -> None:
    assert "related" in attribute_tokens("relatedpoststitle")
    assert class_meaning("relatedpoststitle", None)[0] == STRONG_FURNITURE


def test_bem_element_says_what_the_node_is() -> None:
    # A recommend element inside a "detail-content" block: the block's "content" word used to
    # make it weak furniture only, and the recommended story won over the article.
    assert class_meaning("detail-content__recommend", None)[0] == STRONG_FURNITURE
    assert class_meaning("c-article__body--wide", None)[0] == 1
    # Without the BEM element, the article word still wins over the region word.
    assert class_meaning("content-recommend", None)[0] == WEAK_FURNITURE


def test_css_module_hashes_are_not_bem_elements() -> None:
    assert "newsletter" in attribute_tokens("styles_Newsletter__x4Uq2")
    assert class_meaning("styles_Newsletter__x4Uq2", None)[0] == STRONG_FURNITURE


def test_every_hiding_class_name_passes_the_quick_test() -> None:
    # `hidden_class` rules values out by a few substrings: each name must hold one of them.
    for name in HIDDEN_CLASS_NAMES:
        assert hidden_class(f"card {name.upper()} wide"), name
    assert not hidden_class("hidden-xs card")  # a part of a name is not the name
    assert not hidden_class("hidden md:block")  # shown from a screen width on
    assert not hidden_class("d-none d-md-block")  # the same in Bootstrap's words
    assert not hidden_class("hidden-desktop hide-on-print")  # parts of names


def test_a_main_region_hidden_by_a_framework_class_is_not_the_article() -> None:
    # Bootstrap's "hide" is display:none: a <main> carrying it holds a copy the reader never
    # sees, not the page's main content (the main-region weight must not pull the choice in).
    visible = "".join(
        f"<p>{n}. The harbour wall plan was approved after a decade of storms and a long public "
        "consultation, and work on its first section will begin next spring.</p>"
        for n in range(1, 4)
    )
    hidden = "<p>Old draft of the page, kept for the editors and never shown to readers.</p>"
    html = (
        f'<html><body><main class="post-main hide">{hidden * 3}</main>'
        f'<div class="content">{visible}</div></body></html>'
    )
    body = extract(html).body
    assert "harbour wall" in body
    assert "Old draft" not in body


CLASS_CHARACTERS = st.text(alphabet="aAbBzZ019-_ é", max_size=40)


@given(CLASS_CHARACTERS)
def test_words_are_letters_and_digits_and_the_value_squashed_is_one(value: str) -> None:
    tokens = attribute_tokens(value)
    assert all(re.fullmatch("[a-z0-9]*", token) for token in tokens)
    if "__" not in value:  # a BEM value keeps its element only
        assert re.sub("[^a-z0-9]", "", value.lower()) in tokens


@given(st.lists(st.sampled_from(["sidebar", "ads", "has", "with", "no", "x", "Main"]), max_size=4))
def test_modifier_parts_only_cancel_furniture_words_in_their_own_name(parts: list[str]) -> None:
    # "has-sidebar" describes the layout; a separate "sidebar" name still names furniture.
    modifier = "-".join(["has", *parts])
    assert class_meaning(modifier, None)[0] >= 0
    assert signal_without(f"{modifier} sidebar", None, frozenset()) < 0

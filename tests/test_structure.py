"""Page structure the extractor reads beyond word lists (issue 12, patterns 2-5): layout words
used by a page builder, modifiers, heading anchors, visibility, lead paragraphs, split articles.

Each page here is written for the test: a few paragraphs of article text between site chrome.
"""

from __future__ import annotations

from newsspider import extract
from newsspider.extraction.class_words import STRONG_FURNITURE, class_meaning

PARAGRAPHS = [
    "The harbour authority approved the new sea wall on Tuesday, after a decade of storms "
    "that flooded the lower town twice a year and closed the ferry terminal for weeks.",
    "Engineers expect the work to take three years. The first section, along the fish market, "
    "will be built next spring, when the tides are at their lowest and the boats are ashore.",
    "Residents who spoke at the meeting welcomed the decision, though several asked why the "
    "northern beach, where the worst damage happened last winter, comes last in the plan.",
    "The council will publish the full schedule next month, together with the road closures "
    "the construction traffic will need and a number residents can call with complaints.",
]
CHROME_TOP = """<header><nav><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li>
<li><a href="/sport">Sport</a></li><li><a href="/weather">Weather</a></li></ul></nav></header>"""
CHROME_BOTTOM = """<footer><p>Copyright 2026 The Courier. All rights reserved.</p>
<ul><li><a href="/about">About us</a></li><li><a href="/contact">Contact</a></li></ul></footer>"""


def page(body: str) -> str:
    return (
        "<html><head><title>Sea wall approved</title></head><body>"
        f"{CHROME_TOP}{body}{CHROME_BOTTOM}</body></html>"
    )


def paragraphs(template: str = "<p>{}</p>") -> str:
    return "".join(template.format(text) for text in PARAGRAPHS)


def assert_all_paragraphs(body: str) -> None:
    lines = body.split("\n")
    for text in PARAGRAPHS:
        assert text in lines, f"missing: {text[:50]!r}"


def test_page_builder_widget_wrappers_around_every_block_are_layout() -> None:
    # Elementor and its kind wrap every block in "widget" classes: furniture words by name,
    # the page's layout here, since they hold all of its prose.
    widget = (
        '<div class="elementor-element elementor-widget elementor-widget-text-editor">'
        '<div class="elementor-widget-container"><p>{}</p></div></div>'
    )
    html = page(
        '<div class="elementor"><div class="elementor-column">'
        f'<div class="elementor-widget-wrap">{paragraphs(widget)}</div></div></div>'
    )
    assert_all_paragraphs(extract(html).body)


def test_component_prefix_that_reads_as_a_consent_platform_is_layout() -> None:
    # AEM names its components "cmp-*"; "cmp" is also a consent-management platform.
    component = '<div class="cmp-container"><div class="cmp-text"><p>{}</p></div></div>'
    html = page(f'<main><div class="cmp-container">{paragraphs(component)}</div></main>')
    assert_all_paragraphs(extract(html).body)


def test_a_real_widget_sidebar_stays_furniture() -> None:
    sidebar = (
        '<div class="widget"><h3>Popular</h3><ul><li><a href="/a">Storm closes road</a></li>'
        '<li><a href="/b">Ferry fares rise</a></li></ul></div>'
    )
    html = page(f"<article>{paragraphs()}</article><div>{sidebar * 3}</div>")
    body = extract(html).body
    assert_all_paragraphs(body)
    assert "Storm closes road" not in body


def test_layout_modifiers_do_not_make_a_column_furniture() -> None:
    assert class_meaning("with-sidebar-layout", None).signal == 0
    assert class_meaning("content has-ads", None).signal == 1
    assert class_meaning("sidebar", None).signal == STRONG_FURNITURE
    html = page(f'<div class="layout with-sidebar-layout has-ads"><div>{paragraphs()}</div></div>')
    assert_all_paragraphs(extract(html).body)


def test_heading_ids_made_from_the_heading_text_are_anchors() -> None:
    # "social-media-marketing" holds the furniture word "social", but it is the section's
    # anchor, and the section is part of the article.
    html = page(
        f"<article><p>{PARAGRAPHS[0]}</p><p>{PARAGRAPHS[1]}</p>"
        '<h2 id="social-media-marketing">Social media marketing</h2>'
        f"<div><p>{PARAGRAPHS[2]}</p><p>{PARAGRAPHS[3]}</p></div></article>"
    )
    body = extract(html).body
    assert_all_paragraphs(body)
    assert "Social media marketing" in body.split("\n")


def test_screen_reader_labels_are_not_body_text() -> None:
    label = '<span class="sr-only">(opens in a new window)</span>'
    html = page(
        f'<article><p>{PARAGRAPHS[0]} <a href="/plan">The plan{label}</a></p>'
        f'{paragraphs().split("</p>", 1)[1]}'
        '<div class="visually-hidden"><p>Skip to the comments below this article.</p></div>'
        "</article>"
    )
    body = extract(html).body
    assert "opens in a new window" not in body
    assert "Skip to the comments" not in body
    assert PARAGRAPHS[1] in body


def test_a_button_left_open_does_not_swallow_the_page() -> None:
    # An unclosed <div> inside a <button> makes the parser nest everything after it inside
    # the button, which cleaning used to strip with the whole article.
    html = (
        "<html><body><header><button class='menu'><div>Menu</button></header>"
        f"<article>{paragraphs()}</article></body></html>"
    )
    assert_all_paragraphs(extract(html).body)


def test_a_list_that_a_sentence_introduces_belongs_to_the_article() -> None:
    # A changelog of linked items: link text all through, but the article's own content.
    items = "".join(
        f'<li><a href="/patch/{n}">libfoo: fix the parser for case {n}</a></li>' for n in range(12)
    )
    html = page(
        f"<article><p>{PARAGRAPHS[0]}</p><p>Many patches were sent for review this month:</p>"
        f"<ul>{items}</ul><p>{PARAGRAPHS[1]}</p><p>{PARAGRAPHS[2]}</p></article>"
    )
    body = extract(html).body
    assert "libfoo: fix the parser for case 7" in body
    assert PARAGRAPHS[0] in body and PARAGRAPHS[2] in body


def test_a_menu_without_an_introducing_sentence_stays_out() -> None:
    menu = "".join(f'<li><a href="/s/{n}">Section number {n}</a></li>' for n in range(12))
    html = page(f"<div><ul>{menu}</ul></div><article>{paragraphs()}</article>")
    body = extract(html).body
    assert "Section number 3" not in body
    assert_all_paragraphs(body)


def test_the_lead_and_the_closing_line_beside_the_text_column_join_it() -> None:
    # The standfirst sits beside the text column; the closing line after it. Each is a small
    # share of the text column's score, and the share bar and tag footer inside the article
    # pull the <article> below the text column.
    lead = "A decade of floods ends with a vote: the harbour gets its wall."
    closing = "Work starts in March."
    # The tag footer inside the article costs more than the lead and the closing line add.
    tags = "".join(f'<li><a href="/topic/{n}">Coastal topic {n}</a></li>' for n in range(8))
    html = page(
        f'<article><div class="intro"><p>{lead}</p></div>'
        f'<div class="text">{paragraphs()}</div>'
        f'<div class="outro"><p>The council meets again on the first Monday of May. {closing}'
        "</p></div>"
        '<div class="share"><a href="/s">Share</a> <a href="/t">Tweet</a></div>'
        f'<div class="topics"><ul>{tags}</ul></div>'
        '<div class="more"><h3><a href="/x">Ferry fares rise</a></h3></div></article>'
    )
    body = extract(html).body
    assert body.split("\n")[0] == lead
    assert closing in body
    assert_all_paragraphs(body)
    assert "Ferry fares rise" not in body

"""Page structure the extractor reads beyond word lists (issue 12, patterns 2-5): layout words
used by a page builder, modifiers, heading anchors, visibility, lead paragraphs, split articles.

Each page here is written for the test: a few paragraphs of article text between site chrome.
"""

from __future__ import annotations

import pytest
from lxml import html as lxml_html
from support.articles import SEA_WALL_PARAGRAPHS

from newsspider import extract
from newsspider.extraction.page import cleaning
from newsspider.extraction.page.class_words import STRONG_FURNITURE, class_meaning
from newsspider.extraction.page.segments import segment_page, url_section_words

PARAGRAPHS = SEA_WALL_PARAGRAPHS
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
    assert class_meaning("with-sidebar-layout", None)[0] == 0
    assert class_meaning("content has-ads", None)[0] == 1
    assert class_meaning("sidebar", None)[0] == STRONG_FURNITURE
    html = page(f'<div class="layout with-sidebar-layout has-ads"><div>{paragraphs()}</div></div>')
    assert_all_paragraphs(extract(html).body)


def test_ids_made_from_a_heading_text_are_anchors() -> None:
    # "social-media-marketing-for-small-ports" holds the furniture word "social", but it is
    # the heading's anchor, and the heading is part of the article; so is a section whose id
    # ("h-menu-...") was made from its first heading.
    heading = "Social media marketing for small ports"
    html = page(
        f"<article><p>{PARAGRAPHS[0]}</p>"
        f'<h2 id="social-media-marketing-for-small-ports">{heading}</h2><p>{PARAGRAPHS[1]}</p>'
        '<div id="h-menu-of-options-the-council-weighed"><h2>Menu of options the council '
        f"weighed</h2><p>{PARAGRAPHS[2]}</p><p>{PARAGRAPHS[3]}</p></div></article>"
    )
    body = extract(html).body
    assert_all_paragraphs(body)
    assert heading in body.split("\n")


def test_ids_a_generator_made_from_headings_behind_a_word_marker_are_anchors() -> None:
    # "1-heading-<slug>" and a counted "4-heading-more-0" on a section opened by "More":
    # the marker is a word and the slug may be one word, but the counter says generated.
    html = page(
        f"<article><p>{PARAGRAPHS[0]}</p>"
        '<div id="1-heading-how-popular-are-harbour-tours"><h2>How popular are harbour tours?'
        f"</h2><p>{PARAGRAPHS[1]}</p></div>"
        f'<div id="4-heading-more-0"><h3>More</h3><p>{PARAGRAPHS[2]}</p><p>{PARAGRAPHS[3]}</p>'
        "</div></article>"
    )
    assert_all_paragraphs(extract(html).body)


def test_a_furniture_id_without_a_counter_is_not_taken_for_its_heading() -> None:
    related = (
        '<div id="section-related"><h3>Related</h3><p>Ferry timetable changes announced for the '
        "winter season on every line of the harbour network.</p></div>"
    )
    body = extract(page(f"<article>{paragraphs()}{related}</article>")).body
    assert_all_paragraphs(body)
    assert "Ferry timetable" not in body


def test_a_section_named_more_is_text_a_read_more_label_is_not() -> None:
    # "more" names a control's label ("read-more"); as a modifier it names a part of the text
    # ("more-on-lists" in the docs, "more-details"): a block with a paragraph's prose.
    label = '<div class="read-more-button">Read the full plan</div>'
    more = f'<div id="more-details"><p>{PARAGRAPHS[2]}</p><p>{PARAGRAPHS[3]}</p></div>'
    html = page(f"<article><p>{PARAGRAPHS[0]}</p>{label}<p>{PARAGRAPHS[1]}</p>{more}</article>")
    body = extract(html).body
    assert_all_paragraphs(body)
    assert "Read the full plan" not in body


def test_a_short_furniture_id_on_a_section_is_still_furniture() -> None:
    comments = (
        '<section id="comments"><h2>Comments (2)</h2><p>I have lived on the front for forty '
        "years and never seen the water so high, and the council knew it.</p></section>"
    )
    html = page(f"<article>{paragraphs()}{comments}</article>")
    body = extract(html).body
    assert_all_paragraphs(body)
    assert "forty years" not in body


def test_screen_reader_labels_are_not_body_text() -> None:
    label = '<span class="sr-only">(opens in a new window)</span>'
    html = page(
        f'<article><p>{PARAGRAPHS[0]} <a href="/plan">The plan{label}</a></p>'
        f"{paragraphs().split('</p>', 1)[1]}"
        '<div class="visually-hidden"><p>Skip to the comments below this article.</p></div>'
        "</article>"
    )
    body = extract(html).body
    assert "opens in a new window" not in body
    assert "Skip to the comments" not in body
    assert PARAGRAPHS[1] in body


def test_what_a_button_opens_is_content_a_hidden_block_it_does_not_open_is_not() -> None:
    # An accordion: each question is a button naming its answer's panel in aria-controls; the
    # panels are hidden until opened (attribute, inline style or class), but they are text.
    panels = [
        ("hidden", PARAGRAPHS[1]),
        ('style="display: none"', PARAGRAPHS[2]),
        ('class="panel hidden"', PARAGRAPHS[3]),
    ]
    accordion = "".join(
        f'<h3><button aria-expanded="false" aria-controls="answer-{i}">Question {i}</button>'
        f'</h3><div id="answer-{i}" {hiding}><p>{text}</p></div>'
        for i, (hiding, text) in enumerate(panels)
    )
    wall = '<div id="wall" hidden><p>Subscribe to read the rest of this story today.</p></div>'
    body = extract(page(f"<article><p>{PARAGRAPHS[0]}</p>{accordion}{wall}</article>")).body
    assert_all_paragraphs(body)
    assert "Subscribe to read" not in body


def test_every_panel_a_button_names_is_opened_and_only_those() -> None:
    # Two panels sharing the id a button names (duplicate ids are common) both open; a panel
    # whose id holds two of the names side by side ("more extra") is named by no button.
    from lxml import etree

    from newsspider.extraction.page.visibility import reveal_controlled

    root = etree.fromstring(
        "<html><body><div id='more' hidden>a</div><div id='more' style='display:none'>b</div>"
        "<div id='extra' class='panel hidden'>c</div><div id='more extra' hidden>d</div>"
        "<div id='other' hidden>e</div></body></html>",
        etree.HTMLParser(),
    )
    reveal_controlled(root, {"more", "extra"})
    panels = root.findall(".//div")
    assert [panel.get("hidden") for panel in panels[:2]] == [None, None]
    assert panels[1].get("style") is None
    assert panels[2].get("class") == "panel"
    assert panels[3].get("hidden") is not None and panels[4].get("hidden") is not None


def test_a_panel_hidden_in_capitals_is_opened_too() -> None:
    # The walk reads hiding case-blind ("Display: None" hides); what a button opens is shown
    # whatever the case it was hidden in.
    panel = (
        '<h3><button aria-controls="more">Read more</button></h3><div id="more" '
        'style="Display: None"><p>The council will publish the full survey of the sea wall '
        "in the spring, with the costs of each repair.</p></div>"
    )
    body = extract(page(f"<article>{paragraphs()}{panel}</article>")).body
    assert "publish the full survey of the sea wall" in body


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


def test_an_article_split_across_repeated_rows_is_joined() -> None:
    # Each row is a text column beside an aside; the last row holds one short paragraph, a
    # small share of the first row's score. The share bar and tag footer inside the article
    # pull the <article> itself below the first row.
    tags = "".join(f'<li><a href="/topic/{n}">Coastal topic {n}</a></li>' for n in range(8))
    closing = "Work starts in March, the council said."
    rows = (
        f'<div class="row"><div class="text"><p>{PARAGRAPHS[0]}</p><p>{PARAGRAPHS[1]}</p>'
        f"<p>{PARAGRAPHS[2]}</p></div><aside>Advert</aside></div>"
        f'<div class="row"><div class="text"><p>{PARAGRAPHS[3]}</p></div></div>'
        f'<div class="row"><div class="text"><p>{closing}</p></div></div>'
    )
    html = page(
        f"<article>{rows}"
        '<div class="share"><a href="/s">Share</a> <a href="/t">Tweet</a></div>'
        f'<div class="topics"><ul>{tags}</ul></div>'
        '<div class="more"><h3><a href="/x">Ferry fares rise</a></h3></div></article>'
    )
    body = extract(html).body
    assert_all_paragraphs(body)
    assert closing in body
    assert "Coastal topic" not in body


def test_hidden_on_phones_only_is_visible() -> None:
    # Tailwind's "hidden md:block" shows the element from tablet width on.
    html = page(
        f'<article><div class="hidden md:block"><p>{PARAGRAPHS[0]}</p></div>'
        f"{paragraphs().split('</p>', 1)[1]}</article>"
    )
    assert_all_paragraphs(extract(html).body)


def test_sign_up_and_comment_boxes_around_text_fields_are_not_body() -> None:
    sign_up = (
        '<div class="box"><h3>Join our mailing list</h3>'
        "<p>The week's best stories, delivered every Friday.</p>"
        '<form><input type="email" placeholder="Email"><button>Subscribe</button></form></div>'
    )
    reply = (
        "<div><h3>Leave a reply</h3><p>Your email address will not be published.</p>"
        '<form><label>Comment</label><textarea></textarea><label>Name</label><input name="n">'
        "</form></div>"
    )
    body = extract(page(f"<article><h1>Sea wall</h1>{paragraphs()}{sign_up}{reply}</article>")).body
    assert_all_paragraphs(body)
    for line in ("Join our mailing list", "delivered every Friday", "Leave a reply", "Comment"):
        assert line not in body


def test_a_page_wrapped_in_one_form_keeps_its_article() -> None:
    # ASP.NET pages put everything in one <form>: the box around a field stays small.
    search = '<div class="search"><input type="search"><button>Go</button></div>'
    html = page(f"<form>{search}<article><h1>Sea wall</h1>{paragraphs()}</article></form>")
    assert_all_paragraphs(extract(html).body)


def test_a_quantity_field_does_not_make_a_product_text_a_form() -> None:
    card = (
        "<div><p>The Nature Station invites pollinators to your yard: a water dish, a bee house "
        'and a seed tray on one pole.</p><input type="number" value="1"></div>'
    )
    body = extract(page(f"<article><h1>Sea wall</h1>{paragraphs()}{card}</article>")).body
    assert "invites pollinators" in body


@pytest.mark.spies_on_core
def test_form_boxes_read_a_bounded_number_of_nodes(monkeypatch: pytest.MonkeyPatch) -> None:
    # Fuzzing found 20 kB of fields in deep boxes costing 0.1 s: every level re-read its subtree
    # for each of 64 fields. Now no node is read twice per field, and a page reads at most
    # `_MAX_PAGE_NODES` (plus one field's worth).
    budgets: list[cleaning._Budget] = []

    class Recorded(cleaning._Budget):
        def __init__(self) -> None:
            super().__init__()
            budgets.append(self)

    monkeypatch.setattr(cleaning, "_Budget", Recorded)
    box = "<div><div><div><div><div>" + "<p>x</p>" * 300 + "<input></div></div></div></div></div>"
    root = lxml_html.fromstring(f"<html><body>{box * 64}</body></html>")
    cleaning.mark_form_boxes(root)
    assert budgets[0].spent <= cleaning._MAX_PAGE_NODES + cleaning._MAX_NODES


NEWSLETTER_SIGNUP = (
    '<div class="newsletter-signup"><h3>Get the next issue</h3><p>Join 80,000 readers who '
    "receive the harbour letter every month, free of charge.</p></div>"
)


READER_QUOTES = "".join(
    f"<blockquote><p>{quote}</p></blockquote>"
    for quote in (
        "The letter is the one email I read from top to bottom every month, and the only one "
        "that has ever made me change how I plan my week at the harbour.",
        "Clear, careful and never in a hurry: I forward every issue to my parents, who have run "
        "the fish market stall by the ferry terminal for thirty years.",
        "I found it through a friend last winter and now I keep a folder of old issues, which "
        "my students use when they write about the town and its coast.",
    )
)


def newsletter_issue() -> str:
    # A newsletter site's issue page: its article is named after what the page is, and
    # readers' quotes beside it read well enough to be taken for the article.
    return page(
        '<div class="newsletter-wrapper"><article class="newsletter-content">'
        f"<h1>Sea wall approved</h1>{paragraphs()}</article>{NEWSLETTER_SIGNUP}</div>"
        f'<section class="reader-quotes">{READER_QUOTES}</section>'
    )


def test_a_block_named_after_the_pages_own_url_section_is_its_content() -> None:
    html = newsletter_issue()
    body = extract(html, url="https://letters.example/newsletter/sea-wall-approved").body
    assert_all_paragraphs(body)
    assert "Join 80,000 readers" not in body


def test_without_that_url_section_the_same_words_stay_furniture() -> None:
    # The class words alone still name a newsletter box: the URL is what says otherwise.
    body = extract(newsletter_issue(), url="https://letters.example/news/sea-wall").body
    assert PARAGRAPHS[0] not in body.split("\n")
    body = extract(newsletter_issue()).body
    assert PARAGRAPHS[0] not in body.split("\n")


def test_a_url_section_word_does_not_promote_a_small_box() -> None:
    html = page(f"<article><h1>Sea wall approved</h1>{paragraphs()}</article>{NEWSLETTER_SIGNUP}")
    body = extract(html, url="https://letters.example/newsletter/sea-wall-approved").body
    assert_all_paragraphs(body)
    assert "Join 80,000 readers" not in body


def test_url_section_words_are_whole_path_parts_that_name_furniture() -> None:
    assert url_section_words("https://a.example/newsletter/issue-12") == {"newsletter"}
    assert url_section_words("https://a.example/r/x/comments/1ab/title/") == {"comments"}
    assert url_section_words("https://a.example/how-to-build-a-sidebar") == frozenset()
    assert url_section_words("https://newsletter.example/story") == frozenset()
    assert url_section_words("http://[::1") == frozenset()
    assert url_section_words(None) == frozenset()


def _drupal_like(headline: str) -> str:
    """A theme that puts its layout's name, "sidebar-first-only", on the heading row and on the
    content column, beside a real sidebar of links, under a big site menu and over a footer
    with prose of its own: the column holds neither most of the page's blocks nor three
    quarters of its prose, so it is no layout wrapper by size."""
    menu = "".join(f'<li><a href="/m/{i}">Section {i}</a></li>' for i in range(40))
    sidebar = (
        '<aside class="col-sm-3 sidebar"><ul class="menu"><li><a href="/a">Admissions</a></li>'
        '<li><a href="/b">Campus life and housing</a></li></ul></aside>'
    )
    footer = "".join(
        f"<p>The campus office {i} is open on weekdays from nine to five, except on public "
        "holidays, and answers questions about admissions, fees and housing.</p>"
        for i in range(3)
    )
    return page(
        f'<ul class="site-menu">{menu}</ul><div class="row">'
        f'<div id="heading" class="col-sm-12 sidebar-first-only">{headline}</div>{sidebar}'
        '<section class="col-sm-9 sidebar-first-only"><div class="region">'
        f'<article class="node"><div class="field">{paragraphs()}</div></article></div>'
        f'</section></div><div class="campus-footer">{footer}</div>'
    )


def test_region_words_around_the_only_headline_are_this_pages_layout() -> None:
    body = extract(_drupal_like("<h1>Sea wall approved</h1>")).body
    assert_all_paragraphs(body)
    assert "Campus life and housing" not in body


def _content_column_signal(headline: str) -> int:
    root = lxml_html.document_fromstring(_drupal_like(headline))
    page_segments = segment_page(root)
    column = next(
        block_id
        for block_id, element in enumerate(page_segments.block_elements)
        if element.tag == "section"
    )
    return page_segments.block_signals[column]


def test_a_linked_logo_headline_frees_no_region_word() -> None:
    # The site's logo in an h1 linking home says nothing about the layout: "sidebar" stays a
    # furniture word on the column; the page's own headline frees it.
    assert _content_column_signal('<h1><a href="/">The Courier</a></h1>') == STRONG_FURNITURE
    assert _content_column_signal("<h1>Sea wall approved</h1>") == 0


def test_a_formula_is_text_its_tex_source_is_not() -> None:
    # MathJax renders a formula twice: drawn glyphs (no text) and MathML for screen readers,
    # inside custom elements whose class reads as a menu ("CtxtMenu_Attached_0").
    formula = (
        '<mjx-container class="MathJax CtxtMenu_Attached_0" jax="CHTML">'
        '<mjx-math aria-hidden="true"><mjx-mi><mjx-c class="mjx-c1D44E"></mjx-c></mjx-mi>'
        '</mjx-math><mjx-assistive-mml display="inline"><math><semantics><mrow><mi>a</mi>'
        "<mo>≠</mo><mn>0</mn></mrow>"
        '<annotation encoding="application/x-tex">a \\neq 0</annotation></semantics></math>'
        "</mjx-assistive-mml></mjx-container>"
    )
    html = page(
        f"<article><h1>Sea wall approved</h1><p>{PARAGRAPHS[0]} When {formula}, the wall "
        f"holds.</p>{paragraphs().split('</p>', 1)[1]}</article>"
    )
    body = extract(html).body
    assert "When a ≠ 0 , the wall holds." in body
    assert "neq" not in body
    assert PARAGRAPHS[1] in body


FEATURES = [
    (
        "Page Inspector",
        "Examine the markup and styles of any page, and change its structure and layout as you go.",
    ),
    (
        "Web Console",
        "See what a page logs as it runs, and talk to the page with a few lines "
        "of script of your own.",
    ),
    (
        "Debugger",
        "Step through the code of a page and look at its state as it runs, to "
        "find where the bugs are.",
    ),
    (
        "Network Monitor",
        "See every request a page makes, how long each one takes and what the server sent back.",
    ),
    (
        "Style Editor",
        "View and edit the styles of a page, add new ones of your own and apply them to any page.",
    ),
]


def test_a_list_of_features_each_closed_by_a_link_belongs_to_the_page() -> None:
    # Each item: its name, a sentence, and a "Learn more" link to its documentation. The
    # links are calls to action, not a menu: the list stays with the intro above it.
    items = "".join(
        f'<li class="feature"><h2>{name}</h2><p>{text}</p>'
        f'<a href="/docs/{name}" class="more">Learn more about {name}</a></li>'
        for name, text in FEATURES
    )
    html = page(
        f'<main><section class="intro"><h1>Welcome to the developer edition</h1>'
        f"<p>{PARAGRAPHS[0]}</p><p>{PARAGRAPHS[1]}</p></section>"
        f'<section class="features"><header><h2>Features and tools</h2></header>'
        f'<ul class="features">{items}</ul></section></main>'
    )
    body = extract(html).body
    assert PARAGRAPHS[1] in body
    for _, text in FEATURES:
        assert text in body


def test_a_custom_element_inside_a_paragraph_is_part_of_its_sentence() -> None:
    # A paragraph holds only phrasing content (the parser closes it before a block), so a
    # custom element there is inline, whatever its class says: not a block of its own, cut
    # out of the sentence as a "menu".
    sentence = (
        "Shares of the harbour company "
        '<fin-streamer class="price-menu" data-symbol="HBR">12.40</fin-streamer>'
        " rose after the council's vote on the new sea wall."
    )
    html = page(f"<article><h1>Sea wall approved</h1><p>{sentence}</p>{paragraphs()}</article>")
    lines = extract(html).body.split("\n")
    assert (
        "Shares of the harbour company 12.40 rose after the council's vote on the new sea wall."
        in lines
    )
    assert PARAGRAPHS[1] in lines


def test_a_table_in_a_figure_is_the_articles_data_its_caption_is_not() -> None:
    # WordPress wraps every table in <figure class="wp-block-table">: the cells are the
    # article's data; only the figcaption is a caption (kept in body_html, not in the text).
    rows = "".join(
        f"<tr><td>{rank}</td><td>{town}</td><td>{score}</td></tr>"
        for rank, town, score in ((1, "Harbourside", "82.0"), (2, "Northbeach", "80.8"))
    )
    table = (
        '<figure class="wp-block-table"><table><thead><tr><th>Rank</th><th>Town</th>'
        f"<th>Score</th></tr></thead><tbody>{rows}</tbody></table>"
        "<figcaption>Source: the council's flood survey</figcaption></figure>"
    )
    first, rest = paragraphs().split("</p>", 1)
    html = page(f"<article><h1>Sea wall approved</h1>{first}</p>{table}{rest}</article>")
    article = extract(html)
    assert "Harbourside" in article.body and "80.8" in article.body
    assert "flood survey" not in article.body
    assert "flood survey" in (article.body_html or "")


def test_a_sentence_that_links_what_it_names_stays_a_related_link_line_does_not() -> None:
    # Most of the sentence is link text, but it ends a sentence and has words of its own.
    cited = (
        "<p>The engineers copied two older walls: "
        '<a href="/walls/harbourside">the sea wall that Harbourside built along its quay in '
        '2019</a> and <a href="/walls/northbeach">the breakwater that has kept Northbeach dry '
        "since 1960</a>.</p>"
    )
    related = (
        '<p>Related: <a href="/news/ferry">Ferry terminal reopens after storm repairs</a>.</p>'
    )
    first, rest = paragraphs().split("</p>", 1)
    html = page(f"<article><h1>Sea wall approved</h1>{first}</p>{cited}{related}{rest}</article>")
    body = extract(html).body
    assert "The engineers copied two older walls: the sea wall that Harbourside" in body
    assert "Ferry terminal reopens" not in body


def test_author_boxes_and_a_call_to_action_inside_the_article_are_not_body() -> None:
    bio = (
        '<div class="author-bio"><p>Sam Reed is a staff reporter who has covered the coast '
        "for the Courier since 2015, writing about storms, harbours and the towns along them."
        "</p></div>"
    )
    cta = (
        '<div class="cta"><p>Need help planning your own flood defences? Our advisers '
        "will walk you through every step of the process, so book a free call today.</p></div>"
    )
    card = (
        '<div class="author-card"><p>Written by Sam Reed, who reports on the coast, its storms '
        "and its harbours, and lives in the town the wall will protect.</p></div>"
    )
    body = extract(page(f'<article class="story">{paragraphs()}{bio}{cta}{card}</article>')).body
    assert_all_paragraphs(body)
    assert "Sam Reed is a staff reporter" not in body
    assert "book a free call" not in body
    assert "Written by Sam Reed" not in body
    # The same words on the article's own wrapper are layout, not a box: the text stays.
    wrapped = extract(page(f'<div class="bio-page"><article>{paragraphs()}</article></div>'))
    assert_all_paragraphs(wrapped.body)


def test_a_form_inside_the_article_is_a_box_a_form_around_the_page_is_not() -> None:
    labels = "".join(
        f"<label>Your answer to question {n} about the programme you are interested in</label>"
        for n in range(8)
    )
    form = (
        '<form action="/request"><h3>Request information about our degree programmes</h3>'
        f"<p>Fill out the form below and an adviser will contact you.</p>{labels}</form>"
    )
    body = extract(page(f"<article>{paragraphs()}{form}</article>")).body
    assert_all_paragraphs(body)
    assert "Request information" not in body and "Your answer to question" not in body
    wrapped = extract(page(f'<form action="/postback"><article>{paragraphs()}</article></form>'))
    assert_all_paragraphs(wrapped.body)


@pytest.mark.parametrize("buttons", [3, 200])
def test_buttons_holding_a_block_are_found_alone_and_in_one_pass(buttons: int) -> None:
    # Few buttons are read one by one; many (beyond `_BUTTONS_READ_ALONE`) in one pass over the
    # page's blocks. Both must name the same buttons: the nested ones above a paragraph, not
    # the ones beside it or the ones after it.
    from newsspider.extraction.parse.parsing import parse_html

    nested = "<div>x <button>OK" * buttons + "<p>Inside them all</p>" + "</button></div>" * buttons
    beside = "<button><span>Menu</span><b>x</b></button>" * buttons
    after = "<section><button><i>Share</i></button><h2>Next</h2></section>"
    root = parse_html(f"<html><body>{beside}{nested}{after}</body></html>")
    assert root is not None
    with_children = [button for button in root.iter("button") if len(button)]
    expected = [
        button
        for button in with_children
        if next(
            button.iter("p", "article", "main", "section", "h1", "h2", "h3", "li", "table"), None
        )
        is not None
    ]
    found = cleaning._buttons_holding_blocks(root, with_children)
    assert found == expected
    assert len(found) == buttons

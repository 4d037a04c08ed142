"""Segment values and the container choice: what counts as article prose."""

from __future__ import annotations

from dataclasses import replace

from lxml import html as lxml_html

from newsspider import extract
from newsspider.extraction.body.assembly import body_text
from newsspider.extraction.body.scoring import best_child_run, segment_value
from newsspider.extraction.page.cleaning import clean_tree
from newsspider.extraction.page.page_model import Segment
from newsspider.extraction.page.segments import segment_page
from newsspider.extraction.stages import StageRecord

# Encyclopedic prose: about a quarter of each paragraph's characters are citation links.
CITED_PARAGRAPHS = [
    "The harbour wall was <a href='/w/1854'>first built in 1854</a> after a storm destroyed the "
    "old pier and <a href='/w/raise'>was raised twice</a> in the following century as the port "
    "grew.",
    "Engineers <a href='/w/survey'>surveyed the wall</a> again in 2019 and found that the "
    "foundations laid by the first <a href='/w/board'>harbour board</a> were still sound.",
    "A small museum now occupies the <a href='/w/customs'>former customs house</a> beside the "
    "quay and tells the story of the <a href='/w/storm'>great storm of 1853</a> in old "
    "photographs.",
]


def _segments(markup: str) -> list[Segment]:
    root = lxml_html.fromstring(f"<html><body>{markup}</body></html>")
    clean_tree(root)
    return segment_page(root).segments


def _value(segment: Segment) -> float:
    return segment_value(
        segment.chars, segment.link_chars, segment.punctuation, segment.dense_chars, segment.tag
    )


def _linking_cost(segment: Segment) -> float:
    """What the segment's links cost it: its value were the same characters plain text, minus
    its value."""
    return _value(replace(segment, link_chars=0)) - _value(segment)


def test_links_inside_a_sentence_cost_less_than_the_same_links_in_a_list() -> None:
    (cited,) = _segments(f"<p>{CITED_PARAGRAPHS[0]}</p>")
    assert 0 < cited.link_chars < 0.3 * cited.chars and cited.punctuation > 0
    listed = replace(cited, punctuation=0)  # the same words and links, no sentence
    assert _linking_cost(cited) < _linking_cost(listed)
    assert _value(cited) > 0


def test_link_heavy_sentences_still_pay_the_full_cost() -> None:
    (teaser,) = _segments(
        "<p><a href='/a'>Harbour wall survey finds sound foundations</a> and "
        "<a href='/b'>museum opens</a>.</p>"
    )
    assert teaser.link_chars > 0.3 * teaser.chars
    assert _linking_cost(teaser) == _linking_cost(replace(teaser, punctuation=0))


def test_an_article_citing_its_sources_inline_beats_its_list_of_notes() -> None:
    # The notes are plain, punctuated lines without a single link; the article's paragraphs
    # link a quarter of their words. The notes must not pass for the article.
    paragraphs = "".join(f"<p>{p}</p>" for p in CITED_PARAGRAPHS * 3)
    notes = "".join(
        f"<li>Port records, vol. {n}, p. {n * 7}. Harbour Board, {1900 + n}.</li>" for n in range(5)
    )
    page = (
        "<html><body><div class='page'>"
        f"<div class='text'>{paragraphs}</div><ol class='notes'>{notes}</ol>"
        "</div></body></html>"
    )
    body = extract(page).body
    assert body.startswith("The harbour wall was first built in 1854")


def test_the_pages_main_region_holds_the_article_against_a_longer_text_outside() -> None:
    # A consent notice rendered after the footer, its classes hashed, outweighs the short
    # report; the page's <main> says where the content is.
    report = [
        "The home side won the pairs final on Saturday night without losing a single heat.",
        "Their riders beat the defending champions by four points in the last race.",
    ]
    notice = "".join(
        f"<p>We and our {n} trusted partners store and read information on your device, measure "
        "the performance of content and advertising, and build profiles to personalise both.</p>"
        for n in range(2)
    )
    menu = "".join(f"<li><a href='/s{n}'>Speedway section {n}</a></li>" for n in range(12))
    page = (
        f"<html><body><div class='layout'><header><ul>{menu}</ul></header>"
        "<main><article><h1>Pairs final</h1>"
        + "".join(f"<p>{line}</p>" for line in report)
        + f"</article></main><footer><ul>{menu}</ul></footer></div>"
        + "<div class='x7f2q'><div class='k2m9a'><h3>We value your privacy</h3>"
        + f"{notice}</div></div>"
        + "</body></html>"
    )
    assert extract(page).body.splitlines() == report


def test_blocks_beside_the_main_region_do_not_join_it() -> None:
    # <main> is the container: a long text beside it (a sibling under <body>) is outside the
    # page's content by the page's own account, however well it scores.
    article = "".join(f"<p>{CITED_PARAGRAPHS[n].split('<a')[0]}and more.</p>" for n in range(3))
    aside_text = "".join(
        f"<p>Paragraph {n} of a long essay that the page shows beside its main content.</p>"
        for n in range(2)
    )
    page = (
        f"<html><body><main>{article * 2}</main><div class='k2m9a'>{aside_text}</div></body></html>"
    )
    body = extract(page).body
    assert body.startswith("The harbour wall was")
    assert "long essay" not in body


def _roundup_page(items: str) -> str:
    menu = "".join(f"<li><a href='/s{n}'>Section {n}</a></li>" for n in range(10))
    return (
        f"<html><body><nav><ul>{menu}</ul></nav><div class='post'><h1>Five things today</h1>"
        "<p>Good morning! This is the harbour news you need to know this Tuesday.</p>"
        f"<ol>{items}</ol>"
        "<p>Have a smart speaker? Now you can hear the morning briefing read aloud.</p>"
        f"</div><footer><ul>{menu}</ul></footer></body></html>"
    )


def test_a_roundup_list_between_the_texts_paragraphs_stays_in_the_body() -> None:
    # Each item leads with a link to the full story, then says what happened in a sentence
    # of its own: the links outweigh nothing, yet as navigation they pulled the container
    # down to the closing paragraph.
    items = "".join(
        f"<li><strong><a href='/story/{n}'>The harbour board has approved the new pier "
        f"extension plan number {n}</a>.</strong> Work starts in spring and the old quay "
        "stays open.</li>"
        for n in range(6)
    )
    body = extract(_roundup_page(items)).body
    assert body.startswith("Good morning!")
    assert body.count("Work starts in spring") == 6
    assert body.endswith("read aloud.")


def test_bare_links_between_the_texts_paragraphs_do_not_enter_the_body() -> None:
    items = "".join(
        f"<li><a href='/story/{n}'>Another story about the harbour number {n}</a></li>"
        for n in range(6)
    )
    # The article's assembly leaves them out. (This two-sentence page scores under the crawl's
    # drop line as a listing, so the returned body is the page's content, links and all:
    # tests/test_page_content.py.)
    record = StageRecord()
    extract(_roundup_page(items), record=record)
    assert record.page is not None and record.untrimmed is not None
    body = body_text(record.page, record.untrimmed)
    assert "Another story" not in body
    assert body.startswith("Good morning!")


def test_an_article_of_sibling_paragraphs_beside_heavy_link_boxes_is_one_run() -> None:
    # An encyclopedia layout: one wrapper holds an infobox, the article's paragraphs (a
    # quarter of each a citation link), a navigation box and a long reference list. The
    # boxes outweigh the paragraphs together, so no single block is the article; the run of
    # paragraphs between them is.
    infobox = "".join(
        f"<tr><th>Field {n}</th><td><a href='/w/i{n}'>Linked value {n}</a></td></tr>"
        for n in range(12)
    )
    navbox = "".join(f"<li><a href='/w/n{n}'>Related article {n}</a></li>" for n in range(60))
    references = "".join(
        f"<li><a href='/w/r{n}'>Harbour Board annual report {1900 + n}</a>, "
        f"<a href='/w/p{n}'>p. {n}</a></li>"
        for n in range(40)
    )
    # One long paragraph and many short ones: none of the short ones scores a quarter of the
    # long one, so they would not join it as siblings.
    short = "".join(
        f"<p>The pier was repainted in {1950 + n}, and the lamps were replaced.</p>"
        for n in range(16)
    )
    paragraphs = f"<p>{' '.join(CITED_PARAGRAPHS * 3)}</p>{short}"
    page = (
        "<html><body><div class='content'><div class='parser-output'>"
        f"<table class='box'>{infobox}</table>{paragraphs}"
        f"<div class='box'><ul>{navbox}</ul></div><ol class='refs'>{references}</ol>"
        "</div></div></body></html>"
    )
    body = extract(page).body
    assert body.startswith("The harbour wall was first built in 1854")
    assert body.count("The pier was repainted") == 16
    assert "Related article" not in body
    assert "annual report" not in body


def test_a_box_of_links_between_paragraphs_does_not_end_the_run() -> None:
    # Scores as an encyclopedia page gives them: two lead paragraphs, a paragraph of links
    # and a table of contents (both below zero, together more than the lead), then sections.
    # The boxes of links are left out by assembly; they used to cut the lead off the run.
    links = "".join(f"<a href='/w/{n}'>Linked term {n}</a> " for n in range(12))
    contents = "".join(f"<li><a href='#s{n}'>Section {n} of the article</a></li>" for n in range(9))
    prose = "<p>The pier was repainted, and the lamps were replaced by the harbour board.</p>"
    root = lxml_html.fromstring(
        "<html><body><div id='wrap'>"
        f"{prose}{prose}<p>{links}</p><div id='toc'><ul>{contents}</ul></div>"
        f"{prose}{prose}{prose}<div id='refs'>{prose}</div></div></body></html>"
    )
    clean_tree(root)
    page = segment_page(root)
    wrap = page.block_tags.index("div")
    children = [b for b, parent in enumerate(page.block_parents) if parent == wrap]
    values = [1421.0, 917.0, -1162.0, -1707.0, 396.0, 579.0, 2754.0, 700.0]
    scores = dict(zip(children, values, strict=True))
    weighed = [scores.get(b, 0.0) for b in range(len(page.block_parents))]
    refs = children[-1]
    run = best_child_run(page, weighed, refs, [False] * len(weighed))
    assert run[:2] == children[:2]  # the lead is in
    assert run[-1] in children[-2:]


def test_a_blocks_ancestors_are_the_blocks_around_it_up_to_the_root() -> None:
    root = lxml_html.fromstring(
        "<html><body><div><section><p>One</p></section><p>Two</p></div></body></html>"
    )
    page = segment_page(root)
    ids = {tag: [i for i, t in enumerate(page.block_tags) if t == tag] for tag in page.block_tags}
    first_p, second_p = ids["p"]
    around_first = {ids["html"][0], ids["body"][0], ids["div"][0], ids["section"][0]}
    assert page.ancestors(first_p) == around_first
    assert page.ancestors(second_p) == around_first - set(ids["section"])
    assert page.ancestors(ids["html"][0]) == set()

"""Segment values and the container choice: what counts as article prose."""

from __future__ import annotations

from dataclasses import replace

from lxml import html as lxml_html

from newsspider import extract
from newsspider.extraction.cleaning import clean_tree
from newsspider.extraction.scoring import segment_value
from newsspider.extraction.segments import Segment, segment_page

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


def _linking_cost(segment: Segment) -> float:
    """What the segment's links cost it: its value were the same characters plain text, minus
    its value."""
    return segment_value(replace(segment, link_chars=0)) - segment_value(segment)


def test_links_inside_a_sentence_cost_less_than_the_same_links_in_a_list() -> None:
    (cited,) = _segments(f"<p>{CITED_PARAGRAPHS[0]}</p>")
    assert 0 < cited.link_chars < 0.3 * cited.chars and cited.punctuation > 0
    listed = replace(cited, punctuation=0)  # the same words and links, no sentence
    assert _linking_cost(cited) < _linking_cost(listed)
    assert segment_value(cited) > 0


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

"""Confidence features: the measures of the body that `confidence` is computed from."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lxml import html as lxml_html

from newsspider.extraction.classify.confidence import (
    FEATURE_NAMES,
    PRESENCE_MODEL,
    QUALITY_MODEL,
    confidence_features,
    page_evidence,
    score_confidence,
    text_agreement,
)
from newsspider.extraction.classify.pagetype import BodyShape, body_shape, tag_ratio_agreement
from newsspider.extraction.common.smoothing import gaussian_smooth
from newsspider.extraction.page.cleaning import clean_tree
from newsspider.extraction.page.page_model import PageSegments
from newsspider.extraction.page.segments import segment_page

PARAGRAPH = (
    "The council voted on Tuesday to extend the tram line by four kilometres, a decision "
    "that residents of the northern districts had campaigned for since the last election."
)


def _page(markup: str) -> PageSegments:
    root = lxml_html.fromstring(f"<html><body>{markup}</body></html>")
    clean_tree(root)
    return segment_page(root)


def _ids_containing(page: PageSegments, needle: str) -> tuple[int, ...]:
    return tuple(i for i, s in enumerate(page.segments) if needle in s.text)


def test_skipped_inside_counts_segments_left_out_between_kept_ones() -> None:
    page = _page(
        f"<div><p>{PARAGRAPH} one</p><p>advert</p><p>{PARAGRAPH} two</p>"
        f"<p>teaser</p><p>promo</p><p>{PARAGRAPH} three</p><p>footer text</p></div>"
    )
    kept = _ids_containing(page, PARAGRAPH)
    shape = body_shape(page, kept, container=0)
    # advert, teaser, promo lie between the first and last kept paragraph; the footer doesn't.
    assert shape.skipped_inside == 3


def test_contiguous_body_skips_nothing() -> None:
    page = _page(f"<div><p>{PARAGRAPH} a</p><p>{PARAGRAPH} b</p></div><p>after</p>")
    shape = body_shape(page, _ids_containing(page, PARAGRAPH), container=0)
    assert shape.skipped_inside == 0


def test_heading_share_counts_subheadings_among_kept_segments() -> None:
    page = _page(
        f"<div><h2>First story</h2><p>{PARAGRAPH}</p><h3>Second story</h3><p>{PARAGRAPH}</p></div>"
    )
    everything = tuple(range(len(page.segments)))
    shape = body_shape(page, everything, container=0)
    assert shape.heading_share == 0.5


def test_weights_match_features() -> None:
    for model in (PRESENCE_MODEL, QUALITY_MODEL):
        assert len(model.columns) == len(model.weights) > 0
        assert all(0 <= c < len(FEATURE_NAMES) for c in model.columns)


def _shape(**changes: float) -> BodyShape:
    base = BodyShape(
        chars=3000,
        paragraphs=8,
        punctuation=90,
        body_share=0.7,
        page_link_density=0.2,
        container_link_density=0.05,
    )
    return dataclasses.replace(base, **changes)


def _confidence(shape: BodyShape) -> float:
    return score_confidence(confidence_features(shape, None, None, 0.3, "article"), "article")


def test_a_body_stitched_around_many_gaps_is_trusted_less() -> None:
    assert _confidence(_shape(skipped_inside=40)) < _confidence(_shape(skipped_inside=0))


def test_a_body_of_headings_is_trusted_less() -> None:
    assert _confidence(_shape(heading_share=0.5)) < _confidence(_shape(heading_share=0.0))


def test_a_body_that_agrees_with_the_dense_lines_is_trusted_more() -> None:
    assert _confidence(_shape(tag_ratio_agreement=0.9)) > _confidence(
        _shape(tag_ratio_agreement=0.2)
    )


def _article_with_furniture() -> PageSegments:
    story = "".join(f"<p>{PARAGRAPH} {n}</p>" for n in range(6))
    menu = "".join(f'<li><a href="/s{n}">Section {n}</a></li>' for n in range(12))
    return _page(f"<ul>{menu}</ul><div>{story}</div><p>Copyright notice</p>")


def test_tag_ratio_agreement_is_high_for_the_running_text() -> None:
    page = _article_with_furniture()
    shape = body_shape(page, _ids_containing(page, PARAGRAPH), container=0)
    assert shape.tag_ratio_agreement > 0.9


def test_tag_ratio_agreement_is_low_for_a_fragment_of_the_text() -> None:
    page = _article_with_furniture()
    fragment = _ids_containing(page, f"{PARAGRAPH} 5")
    assert body_shape(page, fragment, container=0).tag_ratio_agreement < 0.3
    menu = _ids_containing(page, "Section")
    # Smoothing may lift the menu item next to the story, hardly more.
    assert body_shape(page, menu, container=0).tag_ratio_agreement < 0.05


def test_tag_ratio_agreement_on_a_one_segment_page() -> None:
    page = _page(f"<p>{PARAGRAPH}</p>")
    assert tag_ratio_agreement(page, (0,), 100) >= 0.0
    assert tag_ratio_agreement(page, (), 0) == 0.0


def test_error_and_login_pages_are_capped() -> None:
    for page_type in ("error", "login"):
        features = confidence_features(_shape(), True, 1.0, 0.0, page_type)
        assert score_confidence(features, page_type) <= 0.15


def test_a_listing_or_other_page_type_is_evidence_not_a_cap() -> None:
    article = score_confidence(confidence_features(_shape(), True, 1.0, 0.0, "article"), "article")
    for page_type in ("listing", "other"):
        features = confidence_features(_shape(), True, 1.0, 0.0, page_type)
        assert 0.15 < score_confidence(features, page_type) < article


def test_a_body_of_short_lines_is_trusted_less() -> None:
    assert _confidence(_shape(short_line_share=0.6)) < _confidence(_shape(short_line_share=0.0))


def test_br_separated_lines_count_as_paragraphs() -> None:
    lines = "<br><br>".join(f"{PARAGRAPH} {n}" for n in range(5))
    page = _page(f"<div class='post'>{lines}</div>")
    shape = body_shape(page, tuple(range(len(page.segments))), container=0)
    assert (shape.lines, shape.paragraphs) == (5, 5)


def test_short_date_lines_and_cells_are_measured() -> None:
    rows = "".join(
        f"<tr><td>2024-05-{n:02d}</td><td>{PARAGRAPH}</td></tr><tr><td>by user{n}</td></tr>"
        for n in range(1, 5)
    )
    page = _page(f"<table>{rows}</table>")
    shape = body_shape(page, tuple(range(len(page.segments))), container=0)
    assert shape.lines == 12
    assert shape.short_line_share == 8 / 12
    assert shape.date_line_share == 4 / 12
    assert shape.cell_share == 1.0


def test_gaussian_smoothing_keeps_constants_and_spreads_a_spike() -> None:
    assert gaussian_smooth([], 2) == []
    assert all(abs(v - 3.0) < 1e-12 for v in gaussian_smooth([3.0] * 7, 3))
    spike = gaussian_smooth([0.0, 0.0, 0.0, 9.0, 0.0, 0.0, 0.0], 2)
    assert spike[3] > spike[2] == spike[4] > spike[1] == spike[5] > spike[0] == spike[6] == 0.0


def test_gaussian_smoothing_radius_two_slides_the_same_sums() -> None:
    """The radius-2 window (one value read a step) gives bit for bit the sums the five-value
    window (`_window_sum`) gives, the ends renormalised alike."""
    import math
    import random

    from newsspider.extraction.common.smoothing import _end_weight, _window_sum

    rng = random.Random(7)
    kernel = [math.exp(-(k * k) / 2.0) for k in range(3)]
    full = kernel[0] + 2 * (kernel[1] + kernel[2])
    for count in (*range(7), 50):
        values = [rng.random() * rng.choice((1.0, 90.0, 1e6)) for _ in range(count)]
        padded = [0.0, 0.0, *values, 0.0, 0.0]
        expected = [_window_sum(padded, i, kernel[1], kernel[2]) / full for i in range(count)]
        for index in {*range(min(2, count)), *range(max(0, count - 2), count)}:
            expected[index] = _window_sum(padded, index, kernel[1], kernel[2]) / _end_weight(
                kernel, 2, index, count
            )
        assert gaussian_smooth(values, 2) == expected


def test_text_agreement_is_the_share_of_the_reference_found_in_the_body() -> None:
    # Words in another order: the grams across the word joins are missing, the rest found.
    reordered = text_agreement(PARAGRAPH, "Council voted to extend the tram line", 8)
    assert reordered is not None and 0.5 < reordered < 1.0
    assert text_agreement(PARAGRAPH, "To extend the tram line", 8) == 1.0
    assert text_agreement(PARAGRAPH, "Zebra quokka xylophone", 8) == 0.0
    half = text_agreement(PARAGRAPH, "tram line zzzz qqqq", 8)
    assert half is not None and 0.2 < half < 0.8
    # Missing or too short to say anything: no evidence either way.
    assert text_agreement(PARAGRAPH, None, 8) is None
    assert text_agreement(PARAGRAPH, "Tram", 8) is None


def test_text_agreement_on_cjk_counts_character_pairs() -> None:
    body = "本地茶农今年春茶丰收，茶叶价格比去年上涨两成，合作社计划扩大种植面积。"
    # The headline's words recur in the article, not its 4-character runs.
    headline = text_agreement(body, "本地茶农迎来春茶丰收", 8)
    assert headline is not None and headline > 0.5
    assert text_agreement(body, "股市今日大幅下跌走低", 8) == 0.0


def test_text_agreement_of_a_long_reference_counts_the_same_way() -> None:
    # Past a few hundred grams the share is counted from a set of the body's grams instead of
    # one search per gram: the same share as the plain definition either way.
    body = PARAGRAPH * 3
    for reference in ("tram line, zebra crossing vote", PARAGRAPH + " " + PARAGRAPH[::-1]):
        squashed_body = "".join(body.split()).casefold()[:3000]
        squashed = "".join(reference.split()).casefold()
        wanted = {squashed[i : i + 4] for i in range(len(squashed) - 3)}
        expected = sum(g in squashed_body for g in wanted) / len(wanted)
        assert text_agreement(body, reference, 8) == expected
    assert len(wanted) > 200  # the second reference takes the set path


def test_text_agreement_reads_only_the_body_opening() -> None:
    late = "x" * 5000 + "Council votes to extend the tram line"
    assert text_agreement(late, "Council votes to extend the tram line", 8) == 0.0


def test_page_evidence_measures_links_position_and_declared_containers() -> None:
    menu = "".join(f'<li><a href="/s{n}">Section {n}</a></li>' for n in range(6))
    page = _page(
        f"<ul>{menu}</ul><article><p>{PARAGRAPH}</p><p>{PARAGRAPH} again</p></article>"
        f'<div><p><a href="/x">{PARAGRAPH} teaser</a></p></div>'
    )
    story = _ids_containing(page, "again")[0] - 1, _ids_containing(page, "again")[0]
    article_block = page.segment_owners[story[0]] - 1  # the <article> around the first <p>
    assert page.block_tags[article_block] == "article"
    evidence = page_evidence(
        page, story, article_block, PARAGRAPH, title="tram line", description=None
    )
    assert evidence.declared_container
    assert evidence.body_link_share == 0.0
    assert evidence.body_position == 6 / len(page.segment_owners)
    assert evidence.segments == 2
    assert evidence.description_agreement is None
    teaser = _ids_containing(page, "teaser")
    teaser_block = page.segment_owners[teaser[0]]
    other = page_evidence(page, teaser, teaser_block, "teaser", title="tram line", description=None)
    assert not other.declared_container
    assert other.body_link_share == 1.0
    assert other.title_agreement == 0.0


# The squashed text's compiled twin (`_grams_c.squashed`) against the Python expression: every
# code point (its case fold and whether it is whitespace), then generated text and limits.
def _compiled_squash() -> Callable[[str, int], str]:
    from newsspider.extraction.classify import confidence

    if confidence.SQUASH.built is None:
        pytest.skip("the compiled squash is not built here")
    return confidence.SQUASH.built


def _python_squash(text: str, limit: int) -> str:
    return "".join(text[:limit].split()).casefold()


def test_compiled_squash_folds_every_code_point_as_python_does() -> None:
    squash = _compiled_squash()
    for code in range(0x110000):
        char = chr(code)
        assert squash(char, 4) == _python_squash(char, 4), hex(code)


_SQUASH_CHARS = [
    chr(c)
    for c in (
        *(0x20, 0x09, 0x0A, 0x85, 0xA0, 0x2003, 0x3000, 0x41, 0x61, 0xB5, 0xC9, 0xD7, 0xDF),
        *(0x130, 0x3A3, 0x3C2, 0x416, 0x1E9E, 0x2019, 0x212A, 0x4E00, 0xFB00, 0x1F600, 0xD800),
    )
]


@given(st.lists(st.sampled_from(_SQUASH_CHARS), max_size=30), st.integers(0, 32))
def test_compiled_squash_is_the_python_squash(chars: list[str], limit: int) -> None:
    text = "".join(chars)
    assert _compiled_squash()(text, limit) == _python_squash(text, limit)

"""The compiled subtree sums (`_segments_c.subtree_totals` and `subtree_scores`) give exactly
what the Python methods of `PageSegments` give: the same integers, and the same doubles (the
same additions in the same order), on generated trees and on real segmented pages; the
compiled run search (`_segments_c.best_run`) finds what `scoring._best_run` finds.

Without a C compiler at install time the compiled sums are absent and these tests skip, except
under ``CI=true``, where they must be built.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import html as lxml_html

from newsspider.extraction.body import scoring
from newsspider.extraction.page import page_model, segments
from newsspider.extraction.page.page_model import PageSegments

IN_CI = os.environ.get("CI") == "true"

needs_compiled = pytest.mark.skipif(
    not page_model.SUBTREE_TOTALS.available and not IN_CI,
    reason="the compiled subtree sums are not built here",
)


@contextmanager
def _python_sums() -> Iterator[None]:
    """Run the Python methods inside, whatever the switch was."""
    totals = page_model.SUBTREE_TOTALS.active is not None
    scores = page_model.SUBTREE_SCORES.active is not None
    page_model.SUBTREE_TOTALS.use(False)
    page_model.SUBTREE_SCORES.use(False)
    try:
        yield
    finally:
        page_model.SUBTREE_TOTALS.use(totals)
        page_model.SUBTREE_SCORES.use(scores)


def _compiled_totals(page: PageSegments, per_segment: list[int]) -> list[int]:
    """The compiled sums themselves, whatever the switch (NEWSSPIDER_PURE_PYTHON=1 too)."""
    compiled = page_model.SUBTREE_TOTALS.built
    assert compiled is not None
    return compiled(page.segment_owners, page.block_parents, per_segment)


def _compiled_scores(page: PageSegments, per_segment: list[float]) -> list[float]:
    compiled = page_model.SUBTREE_SCORES.built
    assert compiled is not None
    return compiled(page.segment_owners, page.block_parents, per_segment)


@st.composite
def _pages(draw: st.DrawFn) -> PageSegments:
    """A block tree (each parent before its children) with segments owned by its blocks."""
    count = draw(st.integers(min_value=1, max_value=40))
    parents = [-1] + [
        draw(st.integers(min_value=0, max_value=block - 1)) for block in range(1, count)
    ]
    owners = draw(st.lists(st.integers(min_value=0, max_value=count - 1), max_size=60))
    return PageSegments(block_parents=parents, segment_owners=owners)


_floats = st.floats(allow_nan=False, allow_infinity=False, width=64)


@needs_compiled
@settings(max_examples=300, deadline=None)
@given(_pages(), st.data())
def test_generated_trees_sum_alike(page: PageSegments, data: st.DataObject) -> None:
    count = len(page.segment_owners)
    counts = data.draw(st.lists(st.integers(-(10**9), 10**9), min_size=count, max_size=count))
    values = data.draw(st.lists(_floats, min_size=count, max_size=count))
    with _python_sums():
        expected_totals = page.subtree_totals(counts)
        expected_scores = page.subtree_scores(values)
    totals = _compiled_totals(page, counts)
    scores = _compiled_scores(page, values)
    assert totals == expected_totals
    assert all(type(total) is int for total in totals)
    # Bit for bit: the same doubles, signed zeros included.
    assert [score.hex() for score in scores] == [score.hex() for score in expected_scores]


@needs_compiled
def test_a_segmented_page_sums_alike() -> None:
    html = (
        "<html><body><div class='a'><p>One, two: three.</p><ul><li><a href='/x'>x</a></li>"
        "<li>Item two; more</li></ul></div><div><p>Tail text here.</p>loose words</div>"
        "</body></html>"
    )
    page = segments.segment_page(lxml_html.fromstring(html))
    per_segment = [
        chars - links
        for chars, links in zip(page.segment_chars, page.segment_link_chars, strict=True)
    ]
    values = [
        chars * 0.37 - links * 1.5
        for chars, links in zip(page.segment_chars, page.segment_link_chars, strict=True)
    ]
    with _python_sums():
        expected = (page.subtree_totals(per_segment), page.subtree_scores(values))
    found = (_compiled_totals(page, per_segment), _compiled_scores(page, values))
    assert found == expected
    assert found[0][0] == sum(per_segment)


@needs_compiled
def test_a_bad_owner_is_an_index_error_not_a_crash() -> None:
    page = PageSegments(block_parents=[-1, 0], segment_owners=[0, 5])
    with pytest.raises(IndexError):
        _compiled_totals(page, [1, 2])
    with pytest.raises(IndexError):
        _compiled_scores(page, [1.0, 2.0])
    short = PageSegments(block_parents=[-1, 0], segment_owners=[0, 1])
    with pytest.raises(IndexError):
        _compiled_totals(short, [1])
    with _python_sums(), pytest.raises(IndexError):  # as the Python sums
        short.subtree_totals([1])


def test_ci_builds_the_compiled_sums() -> None:
    if not IN_CI:
        pytest.skip("only under CI=true: a machine without a compiler uses the Python sums")
    assert page_model.SUBTREE_TOTALS.available
    assert page_model.SUBTREE_SCORES.available
    assert scoring.BEST_RUN.available


def _ends(parents: list[int]) -> list[int]:
    """Each block's last descendant (itself without one): parents come before children."""
    ends = list(range(len(parents)))
    for block_id in range(len(parents) - 1, 0, -1):
        parent = parents[block_id]
        ends[parent] = max(ends[parent], ends[block_id])
    return ends


@needs_compiled
@settings(max_examples=400, deadline=None)
@given(_pages(), st.data())
def test_generated_runs_are_found_alike(page: PageSegments, data: st.DataObject) -> None:
    parents = page.block_parents
    count = len(parents)
    # Small integers and halves make equal sums (ties) and zero-crossings common.
    score = st.one_of(st.integers(-6, 6).map(lambda value: value / 2), st.floats(-1e6, 1e6))
    weighed = data.draw(st.lists(score, min_size=count, max_size=count))
    chars = data.draw(st.lists(st.integers(0, 50), min_size=count, max_size=count))
    prose = [data.draw(st.integers(0, value)) for value in chars]
    furniture = data.draw(st.lists(st.booleans(), min_size=count, max_size=count))
    threshold = data.draw(st.sampled_from([0.0, 1.0, 2.5, math.inf, -1.0]))
    best = data.draw(st.integers(0, count - 1))
    page.block_ends = _ends(parents)
    page.prose = prose
    compiled = scoring.BEST_RUN.built
    assert compiled is not None
    share = scoring.RUN_SHARE
    expected = scoring._best_run(
        page, weighed, chars, furniture, threshold=threshold, best=best, share=share
    )
    found = compiled(page, weighed, chars, furniture, threshold=threshold, best=best, share=share)
    assert found == expected
    if found is not None:
        assert [type(part) for part in found[1:]] == [int, int]

"""`cut_to_budget` and the budgets built on it: the element budget before parsing and the tag
budget of the crawl-time content score."""

from __future__ import annotations

import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bench import pathological
from newsspider.extraction import content_score
from newsspider.extraction.budgets import cut_to_budget
from newsspider.extraction.parsing import limit_elements


def _count_lt(data: bytes, start: int, end: int) -> int:
    return data.count(b"<", start, end)


@given(
    st.lists(st.sampled_from([b"<", b"</", b"x", b"<p>", b" " * 700]), max_size=400),
    st.integers(0, 300),
)
def test_cut_to_budget_keeps_the_longest_prefix_within_budget(
    parts: list[bytes], budget: int
) -> None:
    data = b"".join(parts)
    keep = cut_to_budget(data, budget, _count_lt)
    assert data[:keep].count(b"<") <= budget
    if keep < len(data):
        assert data[: keep + 1].count(b"<") > budget  # one byte more is over


def test_dense_markup_is_cut_to_one_start_tag_per_twelve_bytes() -> None:
    data = b"<p>x" * 300_000
    cut, was_cut = limit_elements(data)
    assert was_cut
    assert cut.count(b"<") == len(data) // 12
    closed = b"<p>x</p>" * 150_000  # end tags are not counted
    assert limit_elements(closed)[0].count(b"<p>") == len(closed) // 12


def test_real_density_is_not_cut() -> None:
    # One start tag per 18 bytes: the densest of 1 608 real pages.
    data = b'<td class="c">1</td>' * 100_000
    assert limit_elements(data) == (data, False)


@pytest.mark.parametrize("pattern", ["unclosed-anchor", "lt-then-ff", "dense-p", "deep-nesting"])
def test_content_score_of_a_hostile_page_takes_well_under_a_second(pattern: str) -> None:
    page = pathological.pattern_page(pattern, content_score._MAX_SCORED_BYTES)
    start = time.process_time()
    content_score.score_page(page, "text/html")
    assert time.process_time() - start < 0.5  # about 0.05 s measured; the loop waits for it

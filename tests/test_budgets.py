"""`cut_to_budget` and the crawl-time content score's tag budget built on it; the markup guard
before parsing (element budget and attribute cap, one pass): tests/test_markup_guard.py."""

from __future__ import annotations

import time

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import pathological

from newsspider.extraction.classify import content_score
from newsspider.extraction.common.budgets import cut_to_budget


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


@pytest.mark.parametrize("pattern", ["unclosed-anchor", "lt-then-ff", "dense-p", "deep-nesting"])
def test_content_score_of_a_hostile_page_takes_well_under_a_second(pattern: str) -> None:
    page = pathological.pattern_page(pattern, content_score._MAX_SCORED_BYTES)
    start = time.process_time()
    content_score.score_page(page, "text/html")
    assert time.process_time() - start < 0.5  # about 0.05 s measured; the loop waits for it

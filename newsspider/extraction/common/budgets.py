"""Cutting a page to a work budget counted by C-level passes (``bytes.count``), in linear time."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

__all__ = ["cut_to_budget"]

_CHUNK: Final = 1 << 16

#: ``count(data, start, end)``: how many counted things ``data[start:end]`` holds (additive).
Counter = Callable[[bytes, int, int], int]


def cut_to_budget(data: bytes, budget: int, count: Counter) -> int:
    """The length of the longest prefix of ``data`` holding at most ``budget`` counted things
    (``len(data)`` when the whole page fits). One count per 64 kB chunk, then a binary search
    in the chunk where the budget runs out."""
    if count(data, 0, len(data)) <= budget:
        return len(data)
    seen = 0
    chunk_start = 0
    while True:  # the whole page is over budget: some chunk runs out
        chunk_end = min(len(data), chunk_start + _CHUNK)
        in_chunk = count(data, chunk_start, chunk_end)
        if seen + in_chunk > budget:
            break
        seen += in_chunk
        chunk_start = chunk_end
    # The shortest prefix holding budget + 1 things ends just after the first thing to cut.
    low, high = chunk_start, chunk_end
    while low < high:
        middle = (low + high) // 2
        if seen + count(data, chunk_start, middle + 1) > budget:
            high = middle
        else:
            low = middle + 1
    return low

"""The line max-sum-subsequence method: the body is the run of consecutive lines whose values
add up to the most.

Each line is worth its non-link characters, plus a bonus for the images and embeds it shows,
minus a constant per source line::

    value(i) = nonlink_chars(i) + IMAGE_WEIGHT·(images(i) + embeds(i))
               − LINE_COST·(1 + blank_lines_before(i))

Lines are the text segments of the shared line model (`lines`). ``blank_lines_before`` stands
for the tag-only source lines the block boundary before a line would take in formatted HTML
(the block tags crossed, less the two that sit on the text line itself): the original method
charged ``LINE_COST`` for each of them, so wide gaps of markup still separate regions. The
chosen run is found by Kadane's algorithm (one pass); the best run outside it, on either side,
gives the runner-up ratio.
"""

from __future__ import annotations

from newsspider.extraction.strategies import StrategyInput, StrategyResult
from newsspider.extraction.strategies.lines import Lines, selection_from

__all__ = ["IMAGE_WEIGHT", "LINE_COST", "line_values", "max_subsequence"]

IMAGE_WEIGHT = 50
LINE_COST = 8


def line_values(lines: Lines) -> list[int]:
    """The value of each line (see the module docstring)."""
    return [
        lines.chars[i]
        - lines.link_chars[i]
        + IMAGE_WEIGHT * (lines.images[i] + lines.embeds[i])
        - LINE_COST * (1 + lines.blank_lines_before(i))
        for i in range(len(lines))
    ]


def best_run(values: list[int], start: int = 0, stop: int | None = None) -> tuple[int, int, int]:
    """(sum, first, last) of the maximum-sum run of ``values[start:stop]``; (0, -1, -1) when no
    run has a positive sum."""
    stop = len(values) if stop is None else stop
    best, best_first, best_last = 0, -1, -1
    current, current_first = 0, start
    for index in range(start, stop):
        if current <= 0:
            current, current_first = values[index], index
        else:
            current += values[index]
        if current > best:
            best, best_first, best_last = current, current_first, index
    return best, best_first, best_last


def max_subsequence(data: StrategyInput) -> StrategyResult | None:
    lines = data.line_model()
    values = line_values(lines)
    total, first, last = best_run(values)
    if first < 0:
        return None
    selection = selection_from(data.page, range(first, last + 1))
    if selection is None:
        return None
    runner_up = max(best_run(values, 0, first)[0], best_run(values, last + 1)[0])
    return StrategyResult(selection, runner_up / total)

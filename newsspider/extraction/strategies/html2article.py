"""Html2Article: line blocks of ``DEPTH`` lines; a content region starts where a block first
holds more than ``LIMIT`` characters and ends where two consecutive blocks hold at most
``END_LIMIT``; the body is the region with the most characters.

The method (Html2Article, after Chen Xin's line-block distribution function) works on source
lines: the length of line ``i`` is its text without tags, the block at ``i`` is the sum of the
lengths of lines ``i .. i+DEPTH-1``. Scanning down, when the previous block exceeded ``LIMIT``
and the current one is not empty, a region starts: its start is moved up to just after the
nearest ``HEAD_BLANKS`` consecutive empty lines above (the head of the article: headline,
byline), else it is the current line. From there every line belongs to the region until a
block and the one before it both hold at most ``END_LIMIT`` characters; the scan then looks for
the next region. The tool returns the first region (or, in its "append mode", all of them);
this strategy returns the region with the most characters, as the line-block distribution
paper prescribes (the body is the continuous region around the distribution's maximum): the
first region is too often a cookie notice or a mega-menu.

Source lines are rebuilt from the shared line model (`lines`): each text segment becomes its
pieces split after each ``</a>`` (Html2Article puts a line break after every ``</a>``, so link
lists spread out), preceded by one empty line per tag-only source line of the block boundary
before it. A segment is content when any of its pieces is. Windows at the end of the page are
shorter rather than skipped.
"""

from __future__ import annotations

from newsspider.extraction.strategies import StrategyInput, StrategyResult
from newsspider.extraction.strategies.lines import Lines, selection_from

__all__ = [
    "DEPTH",
    "END_LIMIT",
    "HEAD_BLANKS",
    "LIMIT",
    "content_regions",
    "html2article",
    "source_lines",
]

DEPTH = 6
LIMIT = 180
END_LIMIT = 20
HEAD_BLANKS = 2


def source_lines(lines: Lines) -> tuple[list[int], list[int]]:
    """(length, owning line or -1 for an empty line) of each rebuilt source line."""
    lengths: list[int] = []
    owners: list[int] = []
    for index in range(len(lines)):
        blanks = lines.blank_lines_before(index)
        if blanks:
            lengths.extend([0] * blanks)
            owners.extend([-1] * blanks)
        for piece in lines.pieces[index]:
            lengths.append(piece)
            owners.append(index)
    return lengths, owners


def content_regions(lines: Lines) -> list[tuple[int, list[int]]]:
    """Every content region in page order, as (characters, ids of its lines)."""
    lengths, owners = source_lines(lines)
    count = len(lengths)
    window = sum(lengths[:DEPTH])
    previous = 0
    start = -1
    floor = 0  # the head search never reaches back into the previous region
    regions: list[tuple[int, int]] = []  # source line ranges [start, stop)
    for index in range(count):
        if index:  # slide the block: drop line index-1, take line index+DEPTH-1
            window -= lengths[index - 1]
            if index + DEPTH - 1 < count:
                window += lengths[index + DEPTH - 1]
        if start < 0:
            if previous > LIMIT and window > 0:
                blanks = 0
                for above in range(index - 1, floor, -1):
                    blanks = blanks + 1 if lengths[above] == 0 else 0
                    if blanks == HEAD_BLANKS:
                        start = above + HEAD_BLANKS
                        break
                if start < 0:
                    start = index
        elif window <= END_LIMIT and previous < END_LIMIT:
            regions.append((start, index))
            start = -1
            floor = index
        previous = window
    if start >= 0:
        regions.append((start, count))
    result = []
    for first, stop in regions:
        ids = dict.fromkeys(owner for owner in owners[first:stop] if owner >= 0)
        result.append((sum(lengths[first:stop]), list(ids)))
    return result


def html2article(data: StrategyInput) -> StrategyResult | None:
    lines = data.line_model()
    regions = content_regions(lines)
    if not regions:
        return None
    best = max(regions, key=lambda region: region[0])
    selection = selection_from(data.page, best[1])
    if selection is None:
        return None
    rest = [chars for chars, ids in regions if ids is not best[1]]
    runner_up = max(rest, default=0) / best[0] if best[0] > 0 else 1.0
    return StrategyResult(selection, min(1.0, runner_up))

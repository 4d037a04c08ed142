"""The page's own content, for a page that holds no article.

On a home page, a section front, a job board or a product grid the article-shaped block is a
stray cell ("10.", one teaser's summary) or nothing at all. When the page type is not an
article and the confidence is under the crawl's drop line (`confidence.DROP_THRESHOLD`: the
record would not be kept as an article), the body is instead the region holding most of the
page's visible text outside its furniture: the listing itself, headlines and links included,
as a reader (and trafilatura, and the corpora's truths for such pages) would call the page's
content. The page type, the confidence and a ``no-article`` warning still say it is not an
article. Nothing here is fitted: the line is the pipeline's, the cost per segment scoring's.
"""

from __future__ import annotations

from typing import Final

from newsspider.extraction.body.assembly import BodySelection, furniture_below
from newsspider.extraction.body.scoring import SEGMENT_COST, ContainerChoice
from newsspider.extraction.page.page_model import DENSE_CHAR_EXTRA, PageSegments

#: Page types whose body may be the page's content: not `error` or `login`, which say in their
#: own words what they are (their text is the message, already the body).
CONTENT_PAGE_TYPES: Final = frozenset({"listing", "other", "empty"})


def content_selection(page: PageSegments, choice: ContainerChoice) -> BodySelection:
    """The block whose subtree holds the most text outside furniture (link text counted like
    any other: a listing's items are links), and its segments less furniture, captions and the
    headline. Each segment pays `SEGMENT_COST`, as in scoring, so a block of scattered
    one-word cells does not win by its count. Linear in the page."""
    parents = page.block_parents
    owners = page.segment_owners
    furniture = choice.furniture.blocks
    captions = page.block_captions
    tags = page.segment_tags
    scores = [0.0] * len(parents)
    for index, owner in enumerate(owners):
        own = not furniture[owner] and not captions[owner] and tags[index] != "h1"
        # Characters weighed as everywhere (CJK as words: `page_model.DENSE_CHAR_EXTRA`).
        chars = page.segment_chars[index] + DENSE_CHAR_EXTRA * page.segment_dense_chars[index]
        scores[owner] += (chars if own else 0) - SEGMENT_COST
    # Children have larger ids than their parents: one reverse sweep sums every subtree.
    for block_id in range(len(parents) - 1, 0, -1):
        if parents[block_id] >= 0:
            scores[parents[block_id]] += scores[block_id]
    candidates = range(len(parents))
    if len(page.main_regions) == 1:  # the page says where its content is
        (region,) = page.main_regions
        candidates = range(region, page.block_ends[region] + 1)
    best = max(
        (block_id for block_id in candidates if not furniture[block_id]),
        key=scores.__getitem__,
        default=None,
    )
    if best is None:
        return BodySelection(choice.block, ())
    below = furniture_below(page, [best], choice.furniture.labelled, article=False)
    end = page.block_ends[best]
    kept = tuple(
        index
        for index, owner in enumerate(owners)
        if best <= owner <= end and not below[owner] and not captions[owner] and tags[index] != "h1"
    )
    return BodySelection(best, kept)

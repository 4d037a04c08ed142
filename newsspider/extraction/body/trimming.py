"""The edges of a chosen body: page metadata that sits at the start or end of the article block.

The dense-region choice keeps whole blocks, so the article's own header and footer lines come
with it: the headline repeated as a sub-heading, the dateline ("2024-05-12 17:19 来源：新华网",
"Updated 11:21 pm CST, Tuesday, November 19, 2019"), the byline, and after the text the
widgets' crumbs ("comments", "Advertisement", "阅读 (42万)"). The first three are already in
the `title`, `date` and `authors` fields; in `body` they are noise. Only the edges are trimmed,
and only short lines that are not sentences, so a paragraph that mentions a date is never lost.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from datetime import date
from typing import Final

from newsspider.extraction.body.assembly import BodySelection
from newsspider.extraction.body.scoring import effective_chars
from newsspider.extraction.common.textstats import SENTENCE_ENDS
from newsspider.extraction.metadata.date_parsing import parse_text_date
from newsspider.extraction.page.page_model import HEADING_TAGS, PageSegments, Segment

#: A dateline or byline is short: at most this many effective characters (CJK counted 3x).
MAX_EDGE_LINE: Final = 100
#: Trailing lines this short (effective characters) without sentence punctuation are widgets
#: ("comments", "首赞", "阅读 (42万)", "Advertisement", "分享到："), not the article's last words.
MAX_TRAILING_CRUMB: Final = 19
#: Sub-headings stepped over at the start of a body while looking for its header lines.
MAX_LEADING_HEADINGS: Final = 2
#: Author names shorter than this could match inside any word.
MIN_AUTHOR_NAME: Final = 4
#: Sub-headings, and table cells: a table's last row is data ("Northbeach | 80.8"), however
#: short, not a widget's crumb.
_NEVER_TRIMMED: Final = HEADING_TAGS | {"td", "th"}
# Numeric dates (2024-05-12, 2024年5月, 12/05/2024) and clock times (17:19).
_DATE_OR_TIME: Final = re.compile(
    r"(?:19|20)\d\d\s*[-/.年]\s*\d{1,2}"
    r"|\d{1,2}\s*[-/.]\s*\d{1,2}\s*[-/.]\s*(?:19|20)\d\d"
    r"|\d{1,2}:\d\d"
)


# A reading time ("5 min read", "Reading time: 4 minutes", "Lesezeit: 3 Min."): the article
# header's metadata, like its dateline. Measured before it was added: of the lines the bodies
# carried that state one, 54 of 64 were outside the truth on every development corpus.
_READING_TIME: Final = re.compile(
    r"\d+\s*(?:min|mins|minutes?|minuten|minutos|minuti)\b\.?\s*"
    r"(?:read|reading|to read|de lecture|de lectura|di lettura|lesezeit|leestijd)\b"
    r"|(?:reading time|read time|lesezeit|leestijd|temps de lecture|tiempo de lectura)\s*:?\s*\d",
    re.IGNORECASE,
)


#: Any day: a dateline's date is metadata whether it is past or (a scheduled post) future.
_ANY_DAY: Final = date(9999, 12, 31)


def _squash(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def _repeats_headline(text: str, squashed_headline: str | None) -> bool:
    """Does `text` squash to the headline (`_squash`ed, None: no headline)?"""
    if squashed_headline is None:
        return False
    # Squashing maps each character on its own (casefolding has no context), so a line whose
    # beginning squashes to more than the headline is not it: a paragraph is told from the
    # headline by its first characters, not all of them (a compiled squash costs about 300
    # instructions a character).
    cut = 2 * len(squashed_headline) + 16
    if len(text) > cut and len(_squash(text[:cut])) > len(squashed_headline):
        return False
    return _squash(text) == squashed_headline


def _short_non_sentence(segment: Segment, limit: float) -> bool:
    """A line of text (not a heading or a table cell) of at most `limit` effective characters
    that does not end a sentence."""
    if segment.tag in _NEVER_TRIMMED or effective_chars(segment) > limit:
        return False
    return not segment.text.rstrip().endswith(SENTENCE_ENDS)


def _is_metadata_line(segment: Segment, author_names: Sequence[str]) -> bool:
    """A short, sentence-less line carrying a date, a time or one of the page's authors."""
    if not _short_non_sentence(segment, MAX_EDGE_LINE):
        return False
    folded = segment.text.casefold()
    return (
        any(name in folded for name in author_names)
        or bool(_DATE_OR_TIME.search(segment.text))
        or bool(_READING_TIME.search(segment.text))
        # A written date ("May 9, 2024", "19 Dec 2025", "5 сентября 2019 г.") as the date
        # stage reads it in visible text.
        or parse_text_date(segment.text, latest=_ANY_DAY) is not None
    )


def _is_trailing_crumb(segment: Segment) -> bool:
    return _short_non_sentence(segment, MAX_TRAILING_CRUMB)


def trim_edges(
    page: PageSegments,
    selection: BodySelection,
    headline: str | None,
    authors: Sequence[str] = (),
) -> BodySelection:
    """The selection without a repeated headline and metadata lines at its start and end."""
    ids = list(selection.segment_ids)
    segment = page.segment  # a few segments at the edges: objects read more clearly
    names = [a.casefold() for a in authors if len(a) >= MIN_AUTHOR_NAME]
    # The h1 never reaches the body; an h2-h6 (or a styled line) repeating it does.
    squashed_headline = _squash(headline) if headline else None
    # Always leave one segment: a body that is only a dateline is still what the page has.
    # Sub-headings at the top (a standfirst set as an h2) are stepped over, not stopped at:
    # the article header puts the byline and date under them.
    start = 0
    while start < len(ids) and len(ids) > 1:
        first = segment(ids[start])
        if _repeats_headline(first.text, squashed_headline) or _is_metadata_line(first, names):
            ids.pop(start)
        elif first.tag in HEADING_TAGS and start < MAX_LEADING_HEADINGS:
            start += 1
        else:
            break
    while len(ids) > 1 and (
        _is_metadata_line(segment(ids[-1]), names) or _is_trailing_crumb(segment(ids[-1]))
    ):
        ids.pop()
    if len(ids) == len(selection.segment_ids):
        return selection
    return dataclasses.replace(selection, segment_ids=tuple(ids))

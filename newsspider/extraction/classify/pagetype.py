"""Is this page an article at all? Signals read from the intact tree and the extracted body.

Error and login pages are recognised by what they say in their title and headings (a short
multilingual phrase list: these pages are formulaic) and by password fields; listings by their
shape: many short linked headlines and teasers, little running prose in the chosen container.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from lxml import etree

from newsspider.extraction.common.smoothing import gaussian_smooth
from newsspider.extraction.page.page_model import DENSE_CHAR_EXTRA, SUBHEADING_TAGS, PageSegments

#: Phrases of error pages, matched case-insensitively as whole words ...
_ERROR_WORDS: Final = (
    "404",
    "410",
    "page not found",
    "not found",
    "no longer available",
    "does not exist",
    "doesn't exist",
    "error occurred",
    "something went wrong",
    "server error",
    "access denied",
    "forbidden",
    "seite nicht gefunden",
    "page introuvable",
    "página no encontrada",
    "pagina non trovata",
    "página não encontrada",
)
#: ... and anywhere, in scripts whose phrases need no word boundaries.
_ERROR_RUNS: Final = (
    "страница не найдена",
    "ошибка 404",
    "не существует",
    "页面不存在",
    "页面未找到",
    "找不到页面",
    "网页不存在",
    "ページが見つかりません",
    "페이지를 찾을 수 없습니다",
)
_LOGIN_WORDS: Final = (
    "log in",
    "login",
    "sign in",
    "signin",
    "sign up to continue",
    "subscribe to continue",
    "create an account",
    "anmelden",
    "connexion",
    "iniciar sesión",
    "accedi",
)
_LOGIN_RUNS: Final = ("войти", "вход в", "登录", "登入", "ログイン", "로그인")


def _phrase_pattern(words: tuple[str, ...], runs: tuple[str, ...]) -> re.Pattern[str]:
    whole_words = "|".join(map(re.escape, words))
    return re.compile(rf"\b(?:{whole_words})\b|" + "|".join(map(re.escape, runs)), re.IGNORECASE)


_ERROR_PHRASES: Final = _phrase_pattern(_ERROR_WORDS, _ERROR_RUNS)
_LOGIN_PHRASES: Final = _phrase_pattern(_LOGIN_WORDS, _LOGIN_RUNS)
_ERROR_TEXTS: Final = _ERROR_WORDS + _ERROR_RUNS
_LOGIN_TEXTS: Final = _LOGIN_WORDS + _LOGIN_RUNS
#: The letters that case-insensitive matching pairs with a phrase's letter although
#: `str.lower` does not turn them into it (dotted and dotless i, long s, old Cyrillic forms).
#: Text without them holds a phrase only if its lowercase copy holds it verbatim
#: (tests/test_pagetype.py checks this against every code point).
_FOLD_UNSAFE: Final = re.compile("[\u0130\u0131\u017f\u1c80-\u1c85]")


def _says(phrases: re.Pattern[str], texts: tuple[str, ...], text: str, lowered: str) -> bool:
    """Does `text` hold one of the phrases (`phrases` is built from `texts`)? ``lowered``:
    its lowercase copy, or "" when it holds a letter of `_FOLD_UNSAFE`."""
    # The regex tries every alternative at every position (case-insensitive, no prefix to
    # skip by): 0.16 M instructions a search. Substring tests rule out most pages for 0.02 M.
    if lowered and not any(phrase in lowered for phrase in texts):
        return False
    return phrases.search(text) is not None


#: A page with a password field is a login page only below this much body text.
LOGIN_FORM_MAX_CHARS: Final = 300


@dataclass(frozen=True, slots=True)
class PageSignals:
    """What the page says about itself; forms are read before cleaning strips them."""

    error_text: bool
    login_text: bool
    password_fields: int
    linked_headings: int


def read_form_signals(root: etree._Element) -> tuple[str, int]:
    """The raw <title> text and the number of password fields (read before cleaning)."""
    # One C-level walk that stops only at these two tags (two XPath queries cost twice that).
    title: str | None = None
    password_fields = 0
    for el in root.iter("title", "input"):
        if el.tag == "input":
            if el.get("type") == "password":
                password_fields += 1
        elif title is None:
            # All its text, as XPath string() reads it.
            title = etree.tostring(el, method="text", encoding="unicode", with_tail=False)
    return (title or "")[:300], password_fields


def page_signals(
    title_text: str, password_fields: int, page: PageSegments, headline: str | None
) -> PageSignals:
    heading_text = f"{title_text} {headline or ''}"
    lowered = "" if _FOLD_UNSAFE.search(heading_text) else heading_text.lower()
    return PageSignals(
        error_text=_says(_ERROR_PHRASES, _ERROR_TEXTS, heading_text, lowered),
        login_text=_says(_LOGIN_PHRASES, _LOGIN_TEXTS, heading_text, lowered),
        password_fields=password_fields,
        linked_headings=page.linked_headings,
    )


@dataclass(frozen=True, slots=True)
class BodyShape:
    """Measures of the extracted body relative to the page."""

    chars: int  # effective characters (CJK weighted)
    paragraphs: int  # kept segments of 80+ effective characters
    punctuation: int
    body_share: float  # body's share of the page's non-link text
    page_link_density: float
    container_link_density: float
    #: Segments left out between the first and last kept one: a body stitched together
    #: around many skipped pieces (ads, teasers, embeds) is more often wrong.
    skipped_inside: int = 0
    #: Share of the kept segments that are h2-h4 headings: lists of teasers look like this.
    heading_share: float = 0.0
    #: Overlap of the body with the page's text-dense lines by a second method (CETR's smoothed
    #: text-to-tag ratio, `tag_ratio_agreement`): a body missing much of the dense text, or made
    #: of sparse pieces, is more often wrong.
    tag_ratio_agreement: float = 1.0
    #: Body lines (a `<br>` ends one), and the share of them that are short (under 40 effective
    #: characters) or short and date-like: archives and comment threads taken as one article
    #: are many short dated lines.
    lines: int = 0
    short_line_share: float = 0.0
    date_line_share: float = 0.0
    #: Share of the body's characters in table cells and list items.
    cell_share: float = 0.0
    #: Share of the body's characters in blocks marked as furniture inside the container
    #: (boxes, asides kept with the article).
    boxed_share: float = 0.0


def classify_page(signals: PageSignals, shape: BodyShape, is_article_hint: bool | None) -> str:
    """One of the page types of `newsspider.PAGE_TYPES` (never "not_html": the caller knows)."""
    if shape.chars == 0:
        return "empty"
    prose_poor = shape.paragraphs < 3 or shape.chars < 600
    if signals.error_text and prose_poor:
        return "error"
    # A sign-in box in the header sits on many article pages: a password field alone makes a
    # login page only when there is next to nothing else; login wording in the title or
    # headline needs just a thin body.
    if signals.login_text and prose_poor:
        return "login"
    if signals.password_fields and shape.paragraphs < 2 and shape.chars < LOGIN_FORM_MAX_CHARS:
        return "login"
    listing_shape = signals.linked_headings >= 8 and (
        shape.container_link_density > 0.35 or shape.body_share < 0.35
    )
    if is_article_hint is not True and (listing_shape or (prose_poor and shape.paragraphs < 2)):
        return no_article_type(signals, shape)
    return "article"


def no_article_type(signals: PageSignals, shape: BodyShape) -> str:
    """ "listing" or "other" for a page without an article: a listing links its items."""
    return "listing" if signals.linked_headings >= 4 or shape.page_link_density > 0.5 else "other"


#: Dates as they appear on archive and comment lines: 2024-05-01, 1.5.2024, 2024年5月, 12:30,
#: a year. Short lines only, so the scan is bounded. (The rule as written; lines are tested
#: with `date_like`, which finds a date in the same lines.)
_DATE_LIKE: Final = re.compile(r"\d{1,4}[-/.年]\d{1,2}|\d{1,2}:\d{2}|\b(?:19|20)\d{2}\b")
_DIGIT: Final = re.compile(r"\d")
#: `_DATE_LIKE` as the regex engine searches fastest, finding a date in exactly the same lines:
#: each form cut to what makes it present (a digit, a separator, a digit: the longer runs of
#: digits around them only widen a match) and begun with the digit every form starts with, so
#: the engine skips from digit to digit instead of trying three alternatives at every
#: character; a year's word boundary is read behind its first two digits, once they are 19 or
#: 20 (`tests/test_pagetype.py` compares the two).
_DATE_AT_DIGIT: Final = re.compile(r"\d(?:[-/.年]\d|:\d\d|9(?<=\b19)\d\d\b|0(?<=\b20)\d\d\b)")


def has_digit(line: str) -> bool:
    """Does `_DIGIT` find a digit in ``line``? Read code point by code point while they are
    ASCII (compiled, no regex call: most short lines have no digit); from the first character
    past ASCII the regex decides, as re's ``\\d`` is every Unicode decimal digit."""
    for index in range(len(line)):
        point = ord(line[index])
        if point < 48:
            continue
        if point <= 57:
            return True
        if point >= 128:
            return _DIGIT.search(line, index) is not None
    return False


def date_like(line: str) -> bool:
    """Does `_DATE_LIKE` find a date in ``line``?"""
    return has_digit(line) and dated(line)


def dated(line: str) -> bool:
    """`date_like` for a line known to hold a digit (`has_digit`)."""
    return _DATE_AT_DIGIT.search(line) is not None


SHORT_LINE: Final = 40
_CELL_TAGS: Final = frozenset({"td", "th", "li", "dd", "dt"})


def body_shape(
    page: PageSegments,
    segment_ids: tuple[int, ...],
    container: int,
    furniture_segments: Sequence[bool] | None = None,
) -> BodyShape:
    """The body's shape; ``furniture_segments`` (scoring's per-segment furniture marks, when
    the default strategy chose the body) measures the boxes inside it."""
    all_chars = page.segment_chars
    all_link_chars = page.segment_link_chars
    dense_chars = page.segment_dense_chars
    segment_lines = page.segment_lines
    boilerplate = furniture_segments
    tags = page.segment_tags
    chars = 0
    paragraphs = 0
    punctuation = 0
    lines = short_lines = date_lines = 0
    cell_chars = boxed_chars = 0
    # The body's prose and subheadings summed in the same loop (a generator each cost a
    # generic object per segment).
    body_prose = headings = 0
    for index in segment_ids:
        weight = all_chars[index] + DENSE_CHAR_EXTRA * dense_chars[index]
        chars += weight
        punctuation += page.segment_punctuation[index]
        body_prose += all_chars[index] - all_link_chars[index]
        tag = tags[index]
        if tag in SUBHEADING_TAGS:
            headings += 1
        if tag in _CELL_TAGS:
            cell_chars += weight
        if boilerplate and boilerplate[index]:
            boxed_chars += weight
        # A paragraph is a line of 80+ effective characters: a body of `<br>`-separated lines
        # in one element has as many paragraphs as a body of `<p>`s.
        scale = weight / all_chars[index] if all_chars[index] else 1.0
        for line in segment_lines[index]:
            effective = len(line) * scale
            lines += 1
            if effective >= 80:
                paragraphs += 1
            elif effective < SHORT_LINE:
                short_lines += 1
                # Every date-like form holds a digit; most short lines have none.
                if date_like(line):
                    date_lines += 1
    total = sum(all_chars) or 1
    total_links = sum(all_link_chars)
    prose_total = page.prose[0] if page.prose else 0
    end = page.block_ends[container]
    # One index loop for both sums: no page-sized list of the container's segment ids.
    owners = page.segment_owners
    inside_chars = inside_links = 0
    for index in range(len(owners)):
        owner = owners[index]
        if container <= owner <= end:
            inside_chars += all_chars[index]
            inside_links += all_link_chars[index]
    inside_chars = inside_chars or 1
    # Segment ids count in document order: the span's missing ids are the skipped pieces.
    skipped = max(segment_ids) - min(segment_ids) + 1 - len(segment_ids) if segment_ids else 0
    return BodyShape(
        chars=chars,
        paragraphs=paragraphs,
        punctuation=punctuation,
        body_share=body_prose / prose_total if prose_total else 0.0,
        page_link_density=total_links / total,
        container_link_density=inside_links / inside_chars,
        skipped_inside=skipped,
        heading_share=headings / len(segment_ids) if segment_ids else 0.0,
        tag_ratio_agreement=tag_ratio_agreement(page, segment_ids, chars),
        lines=lines,
        short_line_share=short_lines / lines if lines else 0.0,
        date_line_share=date_lines / lines if lines else 0.0,
        cell_share=cell_chars / chars if chars else 0.0,
        boxed_share=boxed_chars / chars if chars else 0.0,
    )


#: CETR's smoothing, cut two lines either side (a tighter window than the CETR method's own).
SMOOTHING_RADIUS: Final = 2
#: A line is dense when its smoothed ratio exceeds this many standard deviations of the page's.
#: (CETR's lambda; below its usual 1.0 so running text with short lines still counts.)
DENSE_SPREAD: Final = 0.5


def tag_ratio_agreement(page: PageSegments, segment_ids: tuple[int, ...], body_chars: int) -> float:
    """Character-weighted overlap (intersection over union) of the body with the segments that
    CETR's thresholded text-to-tag ratio marks as content: a second opinion on the same segments,
    linear and without a second walk over the tree.

    A segment is a line; its markup is estimated as in the line model's fallback (two tags, plus
    the blocks crossed since the previous segment). `body_chars` is the body's effective
    characters (`BodyShape.chars`), counted the same way as here.
    """
    owners = page.segment_owners
    chars = page.segment_chars
    count = len(owners)
    if not count or not body_chars:
        return 0.0
    ratios: list[float] = []
    previous = -1
    for index in range(count):
        owner = owners[index]
        # Two tags, plus the blocks crossed (none within one block). Compiled, `abs` of an int
        # is a generic call on a boxed value.
        crossed = owner - previous
        if crossed < 0:
            crossed = -crossed
        ratios.append(chars[index] / (2 + crossed))
        previous = owner
    smoothed = gaussian_smooth(ratios, SMOOTHING_RADIUS)
    mean = sum(smoothed, 0.0) / count
    # A plain loop with a product: compiled, `** 2` in a generator is a generic power call and
    # an object per value.
    squares = 0.0
    for value in smoothed:
        deviation = value - mean
        squares += deviation * deviation
    threshold = DENSE_SPREAD * math.sqrt(squares / count)
    # A flag per segment: a set of the body's ids would take about twenty times the memory.
    body = [False] * count
    for index in segment_ids:
        body[index] = True
    captions = page.block_captions
    dense = shared = 0
    for index, value in enumerate(smoothed):
        if value <= threshold:
            continue
        # As the line methods' selections: the headline and captions are not running text.
        if page.segment_tags[index] == "h1" or captions[owners[index]]:
            continue
        weight = chars[index] + DENSE_CHAR_EXTRA * page.segment_dense_chars[index]
        dense += weight
        if body[index]:
            shared += weight
    return shared / (body_chars + dense - shared)

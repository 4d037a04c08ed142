"""A fast "is this worth extracting?" verdict for one page, from text statistics alone.

The content filter middleware calls this for every judged response on the event-loop thread,
so it must cost a small fraction of a full extraction: no tree is built. One regex split cuts
the markup into tags and runs of text, C-level passes weigh all runs at once, and one Python
loop over the tags measures, per block (between block-level tags), the text inside and outside
links. An article shows one long *run* of text blocks not interrupted by link-dominated
blocks (its paragraphs); a listing shows many short runs between headline links; walls, error
pages and stubs show little text at all. Lengths are in Latin-equivalent characters: a CJK
character counts three, roughly the information of an English word's letters.

No Scrapy imports here: this is pure core, usable on WARC records and local files too.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from operator import sub
from typing import Any, Final

from newsspider.extraction.common.budgets import cut_to_budget
from newsspider.extraction.common.caching import cacheable
from newsspider.extraction.parse.binary import binary_signature, data_format

__all__ = ["REASONS", "PageVerdict", "Thresholds", "score_page"]

#: Every reason `score_page` can give (a closed set: stats keys are built from it).
REASONS: Final = ("not_html", "empty", "thin", "listing", "soft_404", "login", "consent")

# Only this much of a page is scored: enough for any real article, bounded cost on huge pages.
_MAX_SCORED_BYTES: Final = 2_000_000
# ... and only this many "<" (tags): the Python loop runs once per tag, and this runs on the
# event loop. Real pages have at most 28 000 (1 608 corpus pages); 100 000 cost about 50 ms.
_MAX_SCORED_TAGS: Final = 100_000
_CJK_EXTRA_WEIGHT: Final = 2  # a CJK character counts 1 + 2 = 3

_HTML_TYPES: Final = frozenset({"text/html", "application/xhtml+xml"})
# Types that servers use for anything: decide from the bytes.
_SNIFF_TYPES: Final = frozenset(
    {"", "text/plain", "application/octet-stream", "application/xml", "text/xml"}
)
# A comment's body is written so that it cannot contain "-->": with ".*?" each comment could end
# at any later "-->", and a non-HTML start after n comments was tried in 2^n ways.
_HTML_START = re.compile(
    rb"^\s*(?:<!--[^-]*(?:-(?!->)[^-]*)*-->\s*)*<(?:!doctype\s+html|html|head|body)", re.I
)
_META_CHARSET = re.compile(rb"""<meta[^<>]+charset\s*=\s*["']?([A-Za-z0-9_.:-]+)""", re.I)

_DROP_NAMES: Final = (
    "script",
    "style",
    "noscript",
    "template",
    "svg",
    "math",
    "title",
    "textarea",
    "select",
    "iframe",
    "object",
)
# An element whose content is not text, from its start tag to the first matching end tag. The
# end tag is searched for by `_drop_elements` (a regex with the body in it rescans the rest of the
# page at every unclosed start tag: quadratic on "<script>" repeated).
_DROP_START = re.compile("<(" + "|".join(_DROP_NAMES) + r")\b[^>]*>", re.I)
_DROP_END = {name: re.compile(rf"</{name}\s*>", re.I) for name in _DROP_NAMES}
# Comments and CDATA sections, up to the first end marker (found by `_remove_comments`).
_COMMENT_ENDS: Final = (("<!--", "-->"), ("<![CDATA[", "]]>"))
_TITLE_START = re.compile(r"<title\b[^>]*>", re.I)
_TITLE_END = re.compile(r"</title\s*>", re.I)
_H1_START = re.compile(r"<h1\b[^>]*>", re.I)
_H1_END = re.compile(r"</h1\s*>", re.I)
# "[^<>]", not "[^>]": a scan stops at the next "<", so no start is scanned twice (linear time).
_ANY_TAG = re.compile(r"<[^<>]*>")
# "[^<>]*": the scan of a tag stops at the next "<" (linear time).
_NOSCRIPT_TAG = re.compile(r"</?noscript\b[^<>]*>", re.I)
_PASSWORD_INPUT = re.compile(r"<input\b[^<>]*\btype\s*=\s*[\"']?password", re.I)
_CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]")

# Tags that start or end a block of text (inline tags like <a>, <b>, <span> do not).
_BLOCK_TAG_NAMES: Final = (
    "address article aside blockquote body br dd details dialog div dl dt fieldset figcaption "
    "figure footer form h1 h2 h3 h4 h5 h6 header hr html li main nav ol p pre section summary "
    "table tbody td tfoot th thead tr ul"
)
_BLOCK_TAGS: Final = frozenset(_BLOCK_TAG_NAMES.split())

# Phrases are only consulted for pages already judged not worth keeping, to name the reason:
# a common word can mislabel a drop but never cause one.
_ERROR_TITLE = re.compile(
    r"\b404\b|page not found|not be found|could ?n[o']t (?:be )?f(?:ou|i)nd|can(?:no|')t find"
    r"|(?:page|article|story) (?:does not|doesn't|no longer) exist|no longer available"
    r"|页面不存在|页面未找到|找不到|未找到|无法找到|不存在"
    r"|страниц\w* не найден|не найден\w*|не существует|ошибка 404",
    re.I,
)
_CONSENT_WORDS = re.compile(
    r"cookie|consent|gdpr|privacy (?:settings|preferences|choices)|accept all|reject all"
    r"|隐私|同意|согласи|куки|файл\w* cookie",
    re.I,
)
_META_TAG = re.compile(r"<meta\b[^<>]*>", re.I)
_OG_ARTICLE = re.compile(r"content\s*=\s*[\"']?article\b", re.I)
_JSON_LD_ARTICLE = re.compile(
    r"\"@type\"\s*:\s*\"(?:News|Blog|Scholarly|Tech|Report|Opinion|Analysis)?"
    r"(?:Article|Posting|NewsArticle)\"",
)
_CONSENT_MIN_HITS: Final = 3
_LOGIN_WORDS = re.compile(
    r"sign[ -]?in|log[ -]?in|subscribe to (?:continue|read)|subscribers only|password"
    r"|登录|登入|注册|会员|войти|вход|авториз|пароль|подпиш",
    re.I,
)


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Knobs of `score_page`; lengths in Latin-equivalent characters."""

    #: Least main-run text to keep a page without a look at the rest; a page with less than
    #: this much text outside links in all is "thin".
    min_text: float = 250
    #: Below this much visible text in all, the page is "empty".
    empty_text: float = 20
    #: At least this many link-dominated blocks ...
    listing_links: int = 10
    #: ... with the main run under this share of all text ...
    listing_share: float = 0.25
    #: ... and less than this many times the second-longest run ...
    #: An article's paragraphs stand out from the teasers and comments around them; a
    #: listing's teasers are all alike.
    listing_dominance: float = 2.0
    #: ... and at least this many times as much text inside links as outside makes a
    #: "listing". Without it, articles cut into short runs by inline links and related-story
    #: boxes were dropped (4.6% of the development articles, in every language).
    listing_link_ratio: float = 1.0
    #: A main run this long is kept however many links surround it.
    strong_text: float = 1000


@dataclass(frozen=True, slots=True)
class PageVerdict:
    """What `score_page` decided, with the statistics it decided on."""

    #: True when the page is worth a full extraction.
    keep: bool
    #: One of `REASONS` when not kept, else None.
    reason: str | None
    #: The longest run of text blocks not broken by link-dominated blocks.
    score: float = 0.0
    #: All visible text outside links.
    text: float = 0.0
    #: All visible text inside links.
    link_text: float = 0.0
    #: Blocks whose text is mostly link text (menus, headline links).
    link_blocks: int = 0
    #: True when a main text run stands out (``strong_text`` long, or ``min_text`` and not
    #: scattered among link blocks): the page reads as an article, not merely "not certainly
    #: something else". The site spider tells articles from listings with it.
    article_shaped: bool = False

    def to_dict(self) -> dict[str, Any]:
        # Field by field: `dataclasses.asdict` deep-copies, several times slower per page.
        return {
            "keep": self.keep,
            "reason": self.reason,
            "score": self.score,
            "text": self.text,
            "link_text": self.link_text,
            "link_blocks": self.link_blocks,
            "article_shaped": self.article_shaped,
        }


_DEFAULT_THRESHOLDS: Final = Thresholds()


def score_page(
    body: bytes,
    content_type: str | None = None,
    encoding: str | None = None,
    thresholds: Thresholds = _DEFAULT_THRESHOLDS,
) -> PageVerdict:
    """Judge whether `body` looks like a page with article text, cheaply. Never raises.

    content_type: the Content-Type header (parameters allowed), or None when unknown.
    encoding: the encoding the caller resolved; otherwise a ``<meta charset>`` or UTF-8.
    """
    if not body.strip():
        return PageVerdict(False, "empty")
    if not _is_html(body, content_type):
        return PageVerdict(False, "not_html")
    body = body[:_MAX_SCORED_BYTES]
    body = body[: cut_to_budget(body, _MAX_SCORED_TAGS, _count_lt)]
    text = _decode(body, encoding)
    return _judge(text, thresholds)


def _count_lt(data: bytes, start: int, end: int) -> int:
    return data.count(b"<", start, end)


def _is_html(body: bytes, content_type: str | None) -> bool:
    mime = (content_type or "").split(";", 1)[0].strip().lower()
    head = body[:1024]
    if binary_signature(head) is not None:
        return False
    # JSON, a feed or a sitemap served as a page: the extractor's gate says not_html too.
    if data_format(head.decode("utf-8", "replace")) is not None:
        return False
    if mime in _HTML_TYPES:
        # A NUL byte means binary unless the page is UTF-16/32 (which starts with a BOM).
        return b"\x00" not in head or head.startswith((b"\xff\xfe", b"\xfe\xff"))
    if mime in _SNIFF_TYPES:
        return _HTML_START.match(head) is not None
    return False


def _decode(body: bytes, encoding: str | None) -> str:
    if encoding is None:
        match = _META_CHARSET.search(body, 0, 4096)
        encoding = match.group(1).decode("ascii") if match else "utf-8"
    try:
        return body.decode(encoding, errors="replace")
    except LookupError:
        return body.decode("utf-8", errors="replace")


def _split_at_last_tag(markup: str) -> tuple[str, str]:
    """(markup up to its last ">", the rest). No tag, comment end or end tag can start in the
    rest, and with it cut off every "[^>]*>" scan finds its ">": no scan fails at the end of
    the page only to be repeated from the next "<" (quadratic on "<a" repeated)."""
    cut = markup.rfind(">") + 1
    return markup[:cut], markup[cut:]


def _remove_comments(markup: str) -> str:
    """Comments and CDATA sections replaced by a space, each up to the first end marker after
    it (the regex ``<!--.*?-->|<!\\[CDATA\\[.*?\\]\\]>``, found by ``str.find``). An opener
    without an end marker stays text, and no later opener of its kind is looked for: it has no
    end marker either. A regex would rescan the rest of the page at every such opener."""
    pieces: list[str] = []
    pos = 0
    # Per kind: (next opener at or after pos, opener, end marker).
    pending = [(markup.find(opener), opener, end) for opener, end in _COMMENT_ENDS]
    pending = [kind for kind in pending if kind[0] >= 0]
    while pending:
        start, opener, end_marker = min(pending)
        end = markup.find(end_marker, start + len(opener))
        pending.remove((start, opener, end_marker))
        if end < 0:
            continue  # this kind never closes again
        pieces += (markup[pos:start], " ")
        pos = end + len(end_marker)
        for index, (next_start, other, other_end) in enumerate(pending):
            if next_start < pos:  # inside the removed span: look again after it
                pending[index] = (markup.find(other, pos), other, other_end)
        pending = [kind for kind in pending if kind[0] >= 0]
        found = markup.find(opener, pos)
        if found >= 0:
            pending.append((found, opener, end_marker))
    pieces.append(markup[pos:])
    return "".join(pieces)


@functools.lru_cache(maxsize=64)
def _drop_start(names: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("<(" + "|".join(names) + r")\b[^>]*>", re.I)


def _drop_elements(markup: str) -> str:
    """Each non-text element (`_DROP_NAMES`), from its start tag to the first matching end tag,
    replaced by a space. A start tag without an end tag after it stays, and its name is no longer
    looked for (no end tag follows any later one either): each character is scanned a bounded
    number of times. ``markup`` ends with its last ">" (`_split_at_last_tag`)."""
    pieces: list[str] = []
    pos = 0
    names: tuple[str, ...] = _DROP_NAMES
    start_tag = _DROP_START
    while (match := start_tag.search(markup, pos)) is not None:
        name = match.group(1).lower()
        end = _DROP_END[name].search(markup, match.end())
        if end is None:
            names = tuple(n for n in names if n != name)
            if not names:
                break
            start_tag = _drop_start(names)
            continue
        pieces += (markup[pos : match.start()], " ")
        pos = end.end()
    pieces.append(markup[pos:])
    return "".join(pieces)


def _element_content(markup: str, start_tag: re.Pattern[str], end_tag: re.Pattern[str]) -> str:
    """The content of the first element that has an end tag (``<h1\\b[^>]*>(.*?)</h1\\s*>``):
    if the first start tag has none after it, no later one has. ``markup`` ends with its last
    ">" (`_split_at_last_tag`)."""
    start = start_tag.search(markup)
    if start is None:
        return ""
    end = end_tag.search(markup, start.end())
    return "" if end is None else markup[start.end() : end.start()]


def _visible_block_stats(markup: str) -> _Blocks:
    """`_block_stats` of the page without comments and non-text elements. Each stage keeps the
    text after the last ">" apart: no tag starts there, and every scan stays linear."""
    markup, tail = _split_at_last_tag(markup)
    visible, tail_2 = _split_at_last_tag(_remove_comments(markup))
    visible, tail_3 = _split_at_last_tag(_drop_elements(visible))
    return _block_stats(visible, tail_3 + tail_2 + tail)


def _strip_tags(fragment: str) -> str:
    return " ".join(_ANY_TAG.sub(" ", fragment).split())


def _declares_article(markup: str) -> bool:
    if _JSON_LD_ARTICLE.search(markup):
        return True
    return any(
        "og:type" in tag.lower() and _OG_ARTICLE.search(tag)
        for tag in _META_TAG.findall(markup, 0, 50_000)
    )


def _judge(markup: str, limits: Thresholds) -> PageVerdict:
    verdict = _decide(markup, _visible_block_stats(markup), limits)
    if not verdict.keep and _NOSCRIPT_TAG.search(markup) is not None:
        # Script-shell pages (Discourse and the like) render their text inside <noscript> for
        # crawlers; the extractor unwraps it (`noscript.crawler_rendering`), so judge that
        # rendering too before dropping: the filter must not drop what extraction would keep.
        rendered = _decide(markup, _visible_block_stats(_NOSCRIPT_TAG.sub(" ", markup)), limits)
        if rendered.keep:
            return rendered
    return verdict


def _decide(markup: str, blocks: _Blocks, limits: Thresholds) -> PageVerdict:
    """Drop only what is certain; leave doubt to the pipeline's confidence, which sees the
    extracted body. Certain: no visible text; a listing whose link text outweighs its other
    text; with no run of ``min_text``, an error headline, a password form or a consent wall;
    and a page with less than ``min_text`` of text outside links *in all* (sign-in wording or
    nothing). A page with enough text scattered over short runs is kept: articles split by
    inline links, comments or `<br>` lines look like that in every script."""
    total = blocks.text + blocks.link_text
    verdict = _Verdict(blocks)
    if total < limits.empty_text:
        return verdict(False, "empty")
    if blocks.best_run >= limits.strong_text:
        return verdict(True, None, article_shaped=True)
    # A listing for certain: headline links everywhere, no run standing out, more text in the
    # links than outside them (a teaser listing whose summaries outweigh their headlines is
    # left to the pipeline: so is an article of one-sentence paragraphs between inline links),
    # and no declaration of an article (og:type, JSON-LD; evaluated last, and only for pages
    # with many links: the decision needs it nowhere else).
    scattered = (
        blocks.link_blocks >= limits.listing_links
        and blocks.best_run < limits.listing_share * total
        and blocks.best_run < limits.listing_dominance * blocks.second_run
        and not _declares_article(markup)
    )
    if blocks.best_run >= limits.min_text and not scattered:
        return verdict(True, None, article_shaped=True)
    listing = scattered and blocks.link_text >= limits.listing_link_ratio * blocks.text
    # Not kept: say why, as precisely as the cheap evidence allows.
    tagged = _split_at_last_tag(markup)[0]
    title = _element_content(tagged, _TITLE_START, _TITLE_END)
    h1 = _element_content(tagged, _H1_START, _H1_END)
    headline = " ".join(_strip_tags(fragment) for fragment in (title, h1) if fragment)
    if _ERROR_TITLE.search(headline):
        return verdict(False, "soft_404")
    if listing:
        return verdict(False, "listing")
    if blocks.best_run >= limits.min_text:
        return verdict(True, None)  # a long run among many links: the pipeline decides
    if _PASSWORD_INPUT.search(markup) is not None:
        return verdict(False, "login")
    plain = blocks.plain_text()
    # A wall talks about consent again and again; a page merely carrying a cookie banner once.
    if len(_CONSENT_WORDS.findall(plain)) >= _CONSENT_MIN_HITS:
        return verdict(False, "consent")
    # No run of min_text, many link blocks, more text in links than outside them.
    if (
        blocks.link_blocks >= limits.listing_links
        and blocks.link_text >= limits.listing_link_ratio * blocks.text
        and not _declares_article(markup)
    ):
        return verdict(False, "listing")
    if blocks.text >= limits.min_text:
        return verdict(True, None)  # enough text in short runs: the pipeline decides
    if _LOGIN_WORDS.search(plain) or _LOGIN_WORDS.search(headline):
        return verdict(False, "login")
    return verdict(False, "thin")


# --- the block statistics ---------------------------------------------------------------------
#
# The page is a sequence of tokens: a tag ("<", an optional "/", a name of ASCII letters and
# digits, anything up to the next ">"), a run of text (up to the next "<"), or a stray "<" (one
# that starts no tag). One `re.split` (in C) cuts the page into text runs and tag names; the
# weights of all text runs are computed by C-level `map`s; the Python loop then only adds
# integers per tag. Only links and block tags change the statistics.

#: Group 1: "/" (closing tag) + the tag name; None for a stray "<".
_TAG_SPLIT = re.compile(r"<(/?[A-Za-z][A-Za-z0-9]*)[^>]*>|<")

#: What `str.split` and `\s` take for whitespace among ASCII characters.
_ASCII_SPACE: Final = b" \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"
_LATIN1_SPACE: Final = _ASCII_SPACE + b"\x85\xa0"
#: The other characters `str.split` and `\s` take for whitespace, with their UTF-8 bytes.
_UNICODE_SPACES: Final = tuple(
    (char, char.encode()) for char in "\x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000"
) + tuple((chr(code), chr(code).encode()) for code in range(0x2000, 0x200B))
#: A CJK character (`_CJK`) in UTF-8 starts with one of these.
_CJK_LEADS: Final = tuple(bytes([lead]) for lead in (*range(0xE3, 0xEE), 0xEF)) + tuple(
    bytes([0xE2, second]) for second in range(0xBA, 0xC0)
)
_CJK_RUN = re.compile(_CJK.pattern + "+")

_OTHER: Final = 0
_BLOCK: Final = 1
_LINK: Final = 2
_UNLINK: Final = 3
_KIND_CACHE_SIZE: Final = 4096


class _Kinds(dict[str | None, int]):
    """Tag name (with "/" when closing) -> its kind, filled on first sight (any case)."""

    def __missing__(self, name: str | None) -> int:
        kind = self.get(name.lower(), _OTHER) if name else _OTHER
        if len(self) < _KIND_CACHE_SIZE and cacheable(name):  # names come from arbitrary pages
            self[name] = kind
        return kind


_KINDS: Final = _Kinds(
    {None: _OTHER, "a": _LINK, "/a": _UNLINK}
    | dict.fromkeys(_BLOCK_TAGS, _BLOCK)
    | {"/" + name: _BLOCK for name in _BLOCK_TAGS}
)


class _Blocks:
    """Per-block text and link text, and the runs of text blocks, of one page."""

    __slots__ = ("best_run", "link_blocks", "link_text", "plain", "second_run", "text")

    def __init__(
        self,
        *,
        text: int,
        link_text: int,
        link_blocks: int,
        best_run: int,
        second_run: int,
        plain: list[str],
    ) -> None:
        self.text = text
        self.link_text = link_text
        self.link_blocks = link_blocks
        self.best_run = best_run
        self.second_run = second_run
        # Non-link text runs while the page's text was under `_PLAIN_CAP` (for the phrases).
        self.plain = plain

    def plain_text(self) -> str:
        return " ".join(self.plain)


def _sizes(joined: str, runs: list[str]) -> list[int]:
    """Size (non-space characters, CJK counted three) of each run of ``"<".join(runs)``, a
    string with characters above U+00FF. Counted on its UTF-8 bytes, by C-level passes."""
    utf8 = joined.encode("utf-8", "surrogatepass")
    cjk = any(lead in utf8 for lead in _CJK_LEADS)  # before the spaces are replaced
    # Each non-ASCII space becomes one ASCII space: then, per run, the bytes that deleting
    # ASCII spaces removes are its space characters.
    for char, encoded in _UNICODE_SPACES:
        if char in joined:
            utf8 = utf8.replace(encoded, b" ")
    spaces = map(
        sub, map(len, utf8.split(b"<")), map(len, utf8.translate(None, _ASCII_SPACE).split(b"<"))
    )
    sizes = list(map(sub, map(len, runs), spaces))
    if cjk:
        # A CJK character counts three -- in runs with any non-space character (the
        # ideographic space, U+3000, is in the CJK range: it adds only next to text).
        rest = map(len, _CJK_RUN.sub("", joined).split("<"))
        sizes = [
            size + _CJK_EXTRA_WEIGHT * (len(chunk) - n) if size else 0
            for size, chunk, n in zip(sizes, runs, rest, strict=True)
        ]
    return sizes


def _block_stats(markup: str, tail: str = "") -> _Blocks:
    """Text and link text per block, and the runs of text blocks between link-dominated
    blocks. A block ends at every block-level tag; text inside an <a> is link text. ``tail``
    follows ``markup`` and holds no ">", so no tag: each "<" in it is a stray one."""
    parts = _TAG_SPLIT.split(markup)  # text, tag, text, tag, ..., text
    runs: list[str] = parts[::2]
    tag_names: list[str | None] = parts[1::2]
    if tail:
        first, *rest = tail.split("<")
        runs[-1] += first
        runs += rest
        tag_names += [None] * len(rest)
    # Non-space characters per run ("size"), for all runs at once: "<" never occurs in a run.
    joined = "<".join(runs)
    sizes: list[int]
    try:
        latin = joined.encode("latin-1")  # as cheap as a copy when it works
    except UnicodeEncodeError:
        sizes = _sizes(joined, runs)
    else:
        # Every character below U+0100: no CJK, and bytes are characters.
        sizes = list(map(len, latin.translate(None, _LATIN1_SPACE).split(b"<")))
    kinds = list(map(_KINDS.__getitem__, tag_names))
    plain: list[str] = []
    link = False
    block_text = block_link = text = link_text = link_blocks = run = best = second = 0
    # Each tag with the text run after it; the first run has no tag before it, and a closing
    # empty block after the last run flushes the last block through the same code.
    tags = [_OTHER, *kinds, _BLOCK]
    for kind, size, chunk in zip(tags, [*sizes, 0], [*runs, ""], strict=True):
        if kind == _BLOCK:
            if block_text or block_link:
                text += block_text
                link_text += block_link
                if block_link > block_text:
                    # A link-dominated block ends the run of text blocks.
                    link_blocks += 1
                    if run > best:
                        best, second = run, best
                    elif run > second:
                        second = run
                    run = 0
                else:
                    run += block_text
                block_text = block_link = 0
        elif kind:
            # Links do not nest: an <a> start tag closes any open link (as in an HTML parser),
            # so one unclosed <a> cannot turn the rest of the page into link text.
            link = kind == _LINK
        if size:
            if link:
                block_link += size
            else:
                block_text += size
                if text < _PLAIN_CAP:
                    plain.append(chunk)
    if run > best:
        best, second = run, best
    elif run > second:
        second = run
    return _Blocks(
        text=text,
        link_text=link_text,
        link_blocks=link_blocks,
        best_run=best,
        second_run=second,
        plain=plain,
    )


_PLAIN_CAP: Final = 5000


class _Verdict:
    """Builds `PageVerdict`s carrying the statistics in `blocks`."""

    __slots__ = ("_blocks",)

    def __init__(self, blocks: _Blocks) -> None:
        self._blocks = blocks

    def __call__(
        self, keep: bool, reason: str | None, *, article_shaped: bool = False
    ) -> PageVerdict:
        b = self._blocks
        return PageVerdict(
            keep, reason, b.best_run, b.text, b.link_text, b.link_blocks, article_shaped
        )

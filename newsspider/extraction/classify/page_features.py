"""The page classifier's evidence: what kind of page this is, read from its structure and metadata.

Every feature is cheap and read from what `extract` already built (the metadata, the page model,
the body's shape and evidence, the thread's posts) plus one walk over the page's form controls
before cleaning removes them (`read_controls`). None names a site; few read words: the page's
declared types (``og:type``, JSON-LD ``@type``), the shape of its URL (`url_shape`, shared with
the site spider's link classifier), and a short list of shopping-cart words in control names.

The classifier that reads them is `page_classifier`; ``python -m bench.fitting.fit_page_type``
fits it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from lxml import etree

from newsspider.core_loader import CompiledTwin
from newsspider.extraction.classify.confidence import PageEvidence
from newsspider.extraction.classify.pagetype import BodyShape, dated, has_digit
from newsspider.extraction.common.url_shape import (
    JUNK_TOKENS,
    LISTING_TOKENS,
    NUMERIC_ID,
    PAGINATION_URL,
    date_in_url,
    path_segments,
    url_article_score,
)
from newsspider.extraction.metadata.reader import PageMetadata
from newsspider.extraction.page.page_model import (
    DENSE_CHAR_EXTRA,
    HEADING_TAGS,
    SUBHEADING_TAGS,
    PageSegments,
)
from newsspider.extraction.page.visibility import hidden_in_tree

__all__ = [
    "FEATURE_NAMES",
    "PageControls",
    "page_type_features",
    "profile_features",
    "read_controls",
]


#: The body's profile (`profile_features`, issue 32's third round): how its text is written
#: and held, read from the body's segments, its container and the title.
PROFILE_NAMES: Final = (
    "body_p_share",
    "body_li_share",
    "long_paragraph_share",
    "mean_segment",
    "chars_per_punctuation",
    "sentence_line_share",
    "section_chars",
    "container_siblings",
    "has_main",
    "main_share",
    "title_words",
    "slug_title_share",
    "body_code",
    "body_images",
    "body_anchors",
    "body_terms",
    "body_items",
    "body_per_title",
)
#: Card grids (`card_features`): sibling boxes of short, unlinked text, often each under its
#: own heading (a service or landing page's offers, a product's feature boxes).
CARD_NAMES: Final = (
    "card_groups",
    "card_items",
    "headed_card_items",
    "card_share",
    "body_card_share",
)

FEATURE_NAMES: Final = (
    # the URL
    "url_score",
    "url_root",
    "url_date",
    "url_numeric_id",
    "url_slug_words",
    "url_depth",
    "url_listing_token",
    "url_junk_token",
    "url_query",
    "url_pagination",
    "url_thread_word",
    "url_product_word",
    "url_collection_word",
    "url_documentation_word",
    "url_article_word",
    "url_service_word",
    # what the page declares
    "og_article",
    "og_website",
    "og_product",
    "og_other",
    "ld_article",
    "ld_discussion",
    "ld_product",
    "ld_collection",
    "ld_documentation",
    "ld_organisation",
    "ld_webpage_only",
    "has_authors",
    "has_date",
    "time_elements",
    "h1_count",
    # controls
    "forms",
    "text_inputs",
    "password_fields",
    "selects",
    "textareas",
    "buttons",
    "cart_controls",
    "price_lines",
    # the page's structure
    "log_page_chars",
    "log_segments",
    "page_link_density",
    "linked_headings",
    "teaser_links",
    "teaser_share",
    "page_headings",
    "page_heading_share",
    "code_share",
    "list_item_share",
    "table_cell_share",
    "article_elements",
    "page_date_lines",
    # the chosen body
    "log_body_chars",
    "paragraphs",
    "container_link_density",
    "body_share",
    "body_heading_share",
    "short_line_share",
    "date_line_share",
    "cell_share",
    "tag_ratio_agreement",
    "declared_container",
    "body_position",
    "title_agreement",
    "description_agreement",
    "thread_posts",
    # repeated templates (`_template_features`)
    "template_groups",
    "template_items",
    "template_headed_items",
    "template_share",
    "template_link_share",
    "template_region_share",
    "body_vs_region",
    "template_urls",
    "link_list_items",
    "link_list_share",
    "nav_elements",
    "pagination",
    # the body's profile (`profile_features`)
    *PROFILE_NAMES,
    *CARD_NAMES,
)

#: Path segments by the kind of page platforms put under them (forum software's /t/ and
#: /threads/, shop systems' /products/ and /collections/, documentation hosts' /latest/...).
_URL_WORDS: Final = (
    frozenset(
        """t thread threads topic topics forum forums questions question q community
        discussion discussions discuss board boards comments viewtopic.php showthread.php""".split()
    ),
    frozenset("product products p item items shop store dp sku buy".split()),
    frozenset(
        """collections collection category categories c cat catalog catalogue tag tags
        search list archive archives""".split()
    ),
    frozenset(
        """docs doc documentation manual guide guides reference api latest stable usersguide
        tutorial tutorials wiki kb handbook ref quickstart help learn""".split()
    ),
    frozenset("blog blogs news article articles post posts story stories insights press".split()),
    frozenset(
        "services service solutions pricing programs program courses course about contact "
        "features company".split()
    ),
)
_OG_ARTICLE: Final = frozenset({"article", "news", "blog", "newsarticle", "blogposting"})
#: JSON-LD types by what they say about the page (schema.org names).
_LD_DISCUSSION: Final = frozenset(
    {"DiscussionForumPosting", "QAPage", "Question", "Answer", "Comment", "Conversation"}
)
_LD_PRODUCT: Final = frozenset(
    {"Product", "Offer", "AggregateOffer", "IndividualProduct", "ProductGroup", "ProductModel"}
)
_LD_COLLECTION: Final = frozenset(
    {"CollectionPage", "ItemList", "SearchResultsPage", "ProfilePage", "Blog", "OfferCatalog"}
)
_LD_DOCUMENTATION: Final = frozenset(
    {"TechArticle", "APIReference", "SoftwareSourceCode", "HowTo", "SoftwareApplication"}
)
_LD_ORGANISATION: Final = frozenset(
    {
        "Organization", "Corporation", "LocalBusiness", "Service", "ProfessionalService",
        "ContactPage", "AboutPage", "FAQPage", "Store", "Event", "Course", "Place",
    }
)  # fmt: skip
_LD_ARTICLE: Final = re.compile(r"(Article|BlogPosting|LiveBlogPosting|Report)$")
_LD_PAGE: Final = frozenset({"WebPage", "WebSite", "BreadcrumbList", "SiteNavigationElement"})

#: Words of shopping-cart controls in their class, id, name, value or text (a short list; these
#: controls are named in English on most sites whatever their language).
_CART_WORDS: Final = (
    "cart", "basket", "checkout", "addto", "add-to", "add_to", "add to", "buynow", "buy-now",
    "buy_now", "buy now", "warenkorb", "panier", "carrito", "carrello", "winkelwagen", "корзин",
    "购物车", "加入购物", "カート", "장바구니",
)  # fmt: skip


def _is_cart(text: str) -> bool:
    """Does the text hold one of `_CART_WORDS`, case-insensitively? Substring tests in C (a
    regex alternation costs several times more per control), written out: the words under
    "car", "add" and "buy" are tested only where that piece is, so most controls take 13 tests,
    not 21, and no loop over a tuple (compiled, a generic iteration per word)."""
    lowered = text.lower()
    return (
        ("car" in lowered and ("cart" in lowered or "carrito" in lowered or "carrello" in lowered))
        or "basket" in lowered
        or "checkout" in lowered
        or (
            "add" in lowered
            and (
                "addto" in lowered
                or "add-to" in lowered
                or "add_to" in lowered
                or "add to" in lowered
            )
        )
        or (
            "buy" in lowered
            and (
                "buynow" in lowered
                or "buy-now" in lowered
                or "buy_now" in lowered
                or "buy now" in lowered
            )
        )
        or "warenkorb" in lowered
        or "panier" in lowered
        or "winkelwagen" in lowered
        or "корзин" in lowered
        or "购物车" in lowered
        or "加入购物" in lowered
        or "カート" in lowered
        or "장바구니" in lowered
    )


#: A price: a currency sign or code next to a number.
_PRICE: Final = re.compile(
    r"[$€£¥₹₽₩]\s?\d|\d\s?(?:[€£¥₹₽₩円元]|zł|kr\b|руб)|\b(?:USD|EUR|GBP|CHF|CAD|AUD)\s?\d"
)


def _may_be_price(line: str) -> bool:
    """False where `_PRICE` cannot match: each of its forms holds a currency sign (円 and 元
    too), the ł of "zł", "kr", the р of "руб" or a three-letter code (its first letter and an
    upper-case ASCII letter after it). One compiled loop over the code points: the regex tries
    its three forms at every character (several thousand instructions a line), 18 substring
    tests cost three times this loop."""
    last = len(line) - 1
    for index in range(last + 1):
        point = ord(line[index])
        if point < 128:
            if point == 36:  # $
                return True
            if point == 107:  # k
                if index < last and ord(line[index + 1]) == 114:  # r
                    return True
            elif point in (65, 67, 69, 71, 85) and index + 2 <= last:  # A C E G U
                following = ord(line[index + 1])
                if 65 <= following <= 90:
                    return True
        elif point in (8364, 163, 165, 8377, 8381, 8361, 20870, 20803, 322, 1088):
            return True  # € £ ¥ ₹ ₽ ₩ 円 元, the ł of zł, the р of руб
    return False


_PRICE_LINE_CHARS: Final = 40
#: Dates as teaser and archive lines write them (as `pagetype` reads body lines; lines are
#: tested with its `date_like`, which finds a date in the same lines).
_DATE_LIKE: Final = re.compile(r"\d{1,4}[-/.年]\d{1,2}|\d{1,2}:\d{2}|\b(?:19|20)\d{2}\b")
_DIGIT: Final = re.compile(r"\d")
_TEXT_INPUTS: Final = frozenset({"", "text", "email", "search", "tel", "number", "url"})
#: A linked line of headline length: a teaser.
_TEASER_MIN: Final = 20
_TEASER_MAX: Final = 200
_CODE_TAGS: Final = frozenset({"pre", "code"})
_CAP_ATTRS: Final = 200  # characters of an attribute read for cart words


@dataclass(frozen=True, slots=True)
class PageControls:
    """The page's forms and controls, counted before cleaning removes them, and its raw
    ``<title>`` text (read on the same walk, as `pagetype.read_form_signals` reads it)."""

    title: str = ""
    forms: int = 0
    text_inputs: int = 0
    #: Every password field, and of them those kept hidden (`visibility.hidden_in_tree`: a
    #: sign-in popup on an article page). The model reads every field, as it was fitted; the
    #: reported login type reads the visible ones (`api`).
    password_fields: int = 0
    selects: int = 0
    textareas: int = 0
    buttons: int = 0
    cart_controls: int = 0
    hidden_password_fields: int = 0


def read_controls(root: etree._Element) -> PageControls:
    """One C-level walk that stops only at the title and form controls (the same title and
    password count as `pagetype.read_form_signals`, whose walk
    this one replaces in `extract`)."""
    title: str | None = None
    forms = text_inputs = passwords = hidden_passwords = selects = textareas = buttons = cart = 0
    for el in root.iter("title", "form", "input", "button", "select", "textarea"):
        tag = el.tag
        if tag == "title":
            if title is None:
                title = etree.tostring(el, method="text", encoding="unicode", with_tail=False)
            continue
        if tag == "form":
            forms += 1
            if _is_cart((el.get("action") or "")[:_CAP_ATTRS]):
                cart += 1
            continue
        if tag == "select":
            selects += 1
            continue
        if tag == "textarea":
            textareas += 1
            continue
        kind = (el.get("type") or "").lower()
        if tag == "input":
            if kind == "password":
                # A sign-in popup kept hidden on an article page is no sign-in page.
                passwords += 1
                if hidden_in_tree(el):
                    hidden_passwords += 1
                continue
            if kind in _TEXT_INPUTS:
                text_inputs += 1
                continue
            if kind not in ("submit", "button", "image"):
                continue
        buttons += 1
        words = " ".join(
            (el.get(name) or "")[:_CAP_ATTRS] for name in ("class", "id", "name", "value")
        )
        if _is_cart(words) or (tag == "button" and _is_cart((el.text or "")[:80])):
            cart += 1
    return PageControls(
        (title or "")[:300],
        forms,
        text_inputs,
        passwords,
        selects,
        textareas,
        buttons,
        cart,
        hidden_passwords,
    )


def _log(value: float) -> float:
    return math.log1p(max(0.0, value))


def _signed(share: float | None) -> float:
    return 0.0 if share is None else 2.0 * share - 1.0


#: The slug's word separators (`re.split` with a pattern string looked it up in re's cache on
#: every page).
_WORD_SPLIT: Final = re.compile(r"[-_+.]+")


def _url_features(url: str | None) -> list[float]:
    try:
        return _read_url(url) if url else _no_url()
    except ValueError:  # a URL urllib refuses (an unclosed IPv6 host): says nothing
        return _no_url()


def _no_url() -> list[float]:
    return [0.0] * (10 + len(_URL_WORDS))


def _read_url(url: str) -> list[float]:
    score = url_article_score(url)
    segments = path_segments(url)
    lowered = [segment.lower() for segment in segments]
    last = lowered[-1] if lowered else ""
    stem = last.rsplit(".", 1)[0] if "." in last else last
    words = [w for w in _WORD_SPLIT.split(stem) if w]
    return [
        max(-5.0, min(8.0, score)) if score is not None else -5.0,
        float(score is None),
        float(date_in_url(url) is not None),
        float(
            bool(NUMERIC_ID.search(stem))
            or bool(lowered[-2:-1] and NUMERIC_ID.fullmatch(lowered[-2]))
        ),
        float(min(len(words), 12)),
        float(min(len(segments), 8)),
        float(any(s in LISTING_TOKENS for s in lowered)),
        float(any(s in JUNK_TOKENS for s in lowered)),
        float("?" in url),
        float(bool(PAGINATION_URL.search(url))),
        *(float(any(s in words for s in lowered)) for words in _URL_WORDS),
    ]


def _declared_features(metadata: PageMetadata) -> list[float]:
    og = metadata.og_type
    types = metadata.schema_types
    ld_article = any(_LD_ARTICLE.search(t) for t in types) and not types & _LD_DOCUMENTATION
    return [
        float(og in _OG_ARTICLE),
        float(og == "website"),
        float(og.startswith("product") or og == "og:product"),
        float(bool(og) and og not in _OG_ARTICLE and og != "website"),
        float(ld_article),
        float(bool(types & _LD_DISCUSSION)),
        float(bool(types & _LD_PRODUCT)),
        float(bool(types & _LD_COLLECTION)),
        float(bool(types & _LD_DOCUMENTATION)),
        float(bool(types & _LD_ORGANISATION)),
        float(bool(types) and types <= _LD_PAGE),
        float(bool(metadata.authors)),
        float(metadata.date is not None),
        _log(metadata.time_count),
        float(min(metadata.h1_count, 5)),
    ]


#: What `_structure_features` counts a segment's characters under, by its tag.
_OTHER: Final = 0
_SUBHEADING: Final = 1
_CODE: Final = 2
_ITEM: Final = 3
_CELL: Final = 4


def _structure_kind(tag: str) -> int:
    if tag in HEADING_TAGS and tag != "h1":
        return _SUBHEADING
    if tag in _CODE_TAGS:
        return _CODE
    if tag == "li":
        return _ITEM
    if tag in ("td", "th"):
        return _CELL
    return _OTHER


def _structure_features(page: PageSegments) -> tuple[list[float], int]:
    """The page's own structure (all its segments), and the count of price lines."""
    chars = page.segment_chars
    links = page.segment_link_chars
    tags = page.segment_tags
    dense = page.segment_dense_chars
    total = total_links = 0
    teasers = teaser_chars = 0
    headings = heading_chars = code_chars = item_chars = cell_chars = 0
    prices = date_lines = 0
    # Each tag's kind, worked out once per page (a page has a few dozen tags): one dict
    # lookup per segment instead of two set lookups and string comparisons.
    kinds: dict[str, int] = {}
    for index in range(len(chars)):
        count = chars[index]
        total += count
        total_links += links[index]
        weight = count + DENSE_CHAR_EXTRA * dense[index]
        tag = tags[index]
        if _TEASER_MIN <= weight <= _TEASER_MAX and links[index] * 2 > count:
            teasers += 1
            teaser_chars += count
        kind = kinds.get(tag, -1)
        if kind < 0:
            kind = kinds[tag] = _structure_kind(tag)
        if kind == _SUBHEADING:
            headings += 1
            heading_chars += count
        elif kind == _CODE:
            code_chars += count
        elif kind == _ITEM:
            item_chars += count
        elif kind == _CELL:
            cell_chars += count
        if count <= _PRICE_LINE_CHARS * 3 and links[index] * 2 <= count:
            for line in page.segment_lines[index]:
                if len(line) <= _PRICE_LINE_CHARS and has_digit(line):
                    if _may_be_price(line) and _PRICE.search(line) is not None:
                        prices += 1
                    elif dated(line):
                        date_lines += 1
    share = 1.0 / total if total else 0.0
    return [
        _log(total),
        _log(len(chars)),
        total_links * share,
        _log(page.linked_headings),
        _log(teasers),
        teaser_chars * share,
        _log(headings),
        heading_chars * share,
        code_chars * share,
        item_chars * share,
        cell_chars * share,
        _log(sum(1 for tag in page.block_tags if tag == "article")),
        _log(date_lines),
    ], prices


#: A repeated template's item: a block (not a paragraph or heading) of at most this many
#: characters, a fifth of them or more in links.
_ITEM_MAX: Final = 1500
_ITEM_LINK_SHARE: Final = 0.2
#: An item of headline length or more is a teaser; a short item almost all link, a menu or
#: table-of-contents entry.
_TEASER_ITEM_MIN: Final = 25
_LINK_ITEM_MAX: Final = 60
_LINK_ITEM_SHARE: Final = 0.8
#: Siblings of one tag that make a template (teasers) or a link list (menus, TOCs).
_TEMPLATE_MIN: Final = 3
_LINK_LIST_MIN: Final = 5
_NOT_ITEMS: Final = HEADING_TAGS | {"p", "pre", "hr", "br"}
#: A pager's line: three or more page numbers (possibly between arrows or dots).
_PAGER_LINE: Final = re.compile(r"(?:\W{0,3}\d{1,4}\W{0,3}\s+){2,}\d{1,4}\W{0,3}")
_PAGER_NUMBERS: Final = 3


def _same_site(href: str, host: str) -> bool:
    """Is ``href`` a link within ``host`` (`_host`'s form of the page's host)? Relative links
    are; fragments, scripts and mail are not. Read with `str.find` and one slice for the host
    (a split per part made a list and strings per link), the first character telling which
    prefix to test (compiled, `startswith` with a tuple builds the tuple on every call)."""
    first = ord(href[0]) if href else 0
    if first == 35:  # "#"
        return False
    if (first == 106 and href.startswith("javascript:")) or (
        first == 109 and href.startswith("mailto:")
    ):
        return False
    if first == 47 and href.startswith("//"):
        start = 2
    else:
        # The scheme's "://" within the first 12 characters (the first occurrence is the one a
        # split at it would use).
        scheme_end = href.find("://", 0, 12)
        if scheme_end < 0:
            return True  # relative
        start = scheme_end + 3
    if not host:
        return False
    end = href.find("/", start)
    netloc = href[start:] if end < 0 else href[start:end]
    return netloc.lower().removeprefix("www.") == host


def _host(url: str | None) -> str:
    if not url or "://" not in url[:12]:
        return ""
    return url.split("://", 1)[1].split("/", 1)[0].split(":", 1)[0].lower().removeprefix("www.")


#: `SUBHEADING_TAGS` in a fixed order (a frozenset's order may differ between runs).
_SUBHEADINGS: Final = tuple(sorted(SUBHEADING_TAGS))


def _headed_blocks(page: PageSegments) -> list[bool]:
    """Per block: does its subtree hold an h2-h6 segment? The headings are found by
    `list.index` (a C scan per tag) and each marks its owner and the owner's ancestors up to
    one already marked (each block once): linear, and cheaper than summing a 0/1 list over
    every segment and block (`subtree_totals`), as it was first written."""
    parents = page.block_parents
    owners = page.segment_owners
    tags = page.segment_tags
    headed = [False] * len(parents)
    for heading in _SUBHEADINGS:
        index = -1
        while True:
            try:
                index = tags.index(heading, index + 1)
            except ValueError:
                break
            block = owners[index]
            while block >= 0 and not headed[block]:
                headed[block] = True
                block = parents[block]
    return headed


def _link_totals(page: PageSegments) -> list[int]:
    """Per block: the link characters in its subtree (`PageSegments.subtree_totals` of
    ``segment_link_chars``): one pass over the segments adding only those with links, and one
    reverse sweep passing on only the blocks with any."""
    parents = page.block_parents
    totals = [0] * len(parents)
    owners = page.segment_owners
    link_chars = page.segment_link_chars
    for index in range(len(owners)):
        chars = link_chars[index]
        if chars:
            owner = owners[index]
            totals[owner] = totals[owner] + chars
    for block in range(len(parents) - 1, 0, -1):
        chars = totals[block]
        if chars:
            parent = parents[block]
            if parent >= 0:
                totals[parent] = totals[parent] + chars
    return totals


def _owners(page: PageSegments) -> list[bool]:
    """Per block: does it own a segment?"""
    owns = [False] * len(page.block_parents)
    owners = page.segment_owners
    for index in range(len(owners)):
        owns[owners[index]] = True
    return owns


def _holds_subheading(page: PageSegments, owns: list[bool], block: int) -> bool:
    """Does the block's subtree hold an h2-h6 segment (what `_headed_blocks` says of it)? A
    segment's tag is its owner's, so: does a block of the subtree's id range, owning a segment
    (`_owners`), have such a tag. Read for the teasers of templates only: sibling items do not
    overlap, and templates nest at most four deep (each teaser is 25 to 1,500 characters and
    holds three or more of the template inside it), so no block is read more than five times."""
    tags = page.block_tags
    for inner in range(block, page.block_ends[block] + 1):
        if owns[inner] and tags[inner] in SUBHEADING_TAGS:
            return True
    return False


def _may_be_pager(line: str) -> bool:
    """False where `_PAGER_LINE` cannot match the whole line: a pager's line is five
    characters or more, starts with at most three non-word characters and a digit, and ends
    with a digit and at most three non-word characters; so a line starting or ending in a
    word character that is no digit (a letter, an underscore) is none."""
    if len(line) < 5:
        return False
    return not (_word_not_digit(line, 0) or _word_not_digit(line, len(line) - 1))


def _word_not_digit(line: str, index: int) -> bool:
    """Is ``line[index]`` a word character (re's ``\\w``) and no digit (``\\d``)? Read from
    the code point for ASCII; past it, a letter or other alphanumeric that is no digit at all
    (``str.isdigit`` takes in every decimal digit; a digit that is not decimal says False, as
    "not known")."""
    point = ord(line[index])
    if point < 128:
        return 97 <= point <= 122 or 65 <= point <= 90 or point == 95
    char = line[index]
    return char.isalnum() and not char.isdigit()


# A block's first link read in C (`_page_features_c.first_href`), built at install time with a
# compiler: the same value as `_first_href_python`, without an iterator and an element proxy per
# teaser.
try:
    from newsspider.extraction.classify import _page_features_c
except ImportError:  # not built: the Python code
    _page_features_c = None  # type: ignore[assignment]
FIRST_HREF: Final[CompiledTwin[Callable[[etree._Element], str | None]]] = CompiledTwin(
    _page_features_c.first_href if _page_features_c is not None else None
)


def _first_href(element: etree._Element) -> str | None:
    """The ``href`` of the first ``a`` at or below ``element`` (None: no link, or no href)."""
    compiled = FIRST_HREF.active
    if compiled is not None:
        return compiled(element)
    return _first_href_python(element)


def _first_href_python(element: etree._Element) -> str | None:
    for anchor in element.iter("a"):
        return anchor.get("href")
    return None


def _template_features(
    page: PageSegments,
    shape: BodyShape,
    url: str | None,
    links: list[int] | None = None,
    owners: list[bool] | None = None,
) -> list[float]:
    """Repeated templates: sibling blocks of one tag, each small and partly linked, the mark of
    teaser lists (listings) and of menus and tables of contents (link lists). Linear in the
    page's blocks: the subtree link sums (`_link_totals`), one sweep over the blocks, and the
    teasers of templates (their subheadings and first links). (Siblings are not told apart by
    their class: a class read per block cost more than the rest of the sweep, and
    "first"/"active" classes would split one template.)

    Compiled, a group is named by its first item (a block id) and its counts are lists by
    block id, made once per page; it is found from its parent's first group along a chain of
    the parent's groups (one tag each). (A dict keyed by (parent, tag) tuples, with a list of
    counts per group, built a tuple per lookup and a generic object addition per count.)

    ``links`` and ``owners``: `_link_totals` and `_owners` of the page when the caller has them
    (`page_type_features` computes them once for this and `card_features`)."""
    parents = page.block_parents
    tags = page.block_tags
    elements = page.block_elements
    prose = page.prose
    if links is None:
        links = _link_totals(page)
    size = len(parents)
    blocks = min(size, len(elements))
    # Per parent id + 1 (a parentless block's parent is -1): its first group, or -1.
    first_group = [-1] * (size + 1)
    # Per group (its first item's block id): the parent's next group, and the group's counts.
    next_group = [-1] * size
    group_teasers = [0] * size
    group_link_items = [0] * size
    group_chars = [0] * size
    group_links = [0] * size
    groups: list[int] = []
    # The teaser items (blocks) and their groups, in document order.
    teaser_blocks: list[int] = []
    teaser_groups: list[int] = []
    navs = 0
    for block in range(1, blocks):
        tag = tags[block]
        if tag == "nav":
            navs += 1
        link_chars = links[block]
        if not link_chars:
            continue
        chars = prose[block] + link_chars
        # The set lookup last: it costs more than the sums.
        if chars > _ITEM_MAX or link_chars < _ITEM_LINK_SHARE * chars or tag in _NOT_ITEMS:
            continue
        slot = parents[block] + 1
        group = first_group[slot]
        while group >= 0 and tags[group] != tag:
            group = next_group[group]
        if group < 0:
            group = block
            next_group[block] = first_group[slot]
            first_group[slot] = block
            groups.append(block)
        group_chars[group] = group_chars[group] + chars
        group_links[group] = group_links[group] + link_chars
        if chars >= _TEASER_ITEM_MIN:
            group_teasers[group] = group_teasers[group] + 1
            teaser_blocks.append(block)
            teaser_groups.append(group)
        elif chars <= _LINK_ITEM_MAX and link_chars >= _LINK_ITEM_SHARE * chars:
            group_link_items[group] = group_link_items[group] + 1
    # `block_tags.count("nav")`: the blocks the sweep did not read.
    if tags and tags[0] == "nav":
        navs += 1
    for block in range(max(blocks, 1), len(tags)):
        if tags[block] == "nav":
            navs += 1
    total_links = links[0] if links else 0
    total = (prose[0] if prose else 0) + total_links
    n_groups = items = headed_items = template_chars = template_links = region = 0
    list_items = list_chars = 0
    for group in groups:
        teasers = group_teasers[group]
        chars = group_chars[group]
        if teasers >= _TEMPLATE_MIN:
            n_groups += 1
            items += teasers
            template_chars += chars
            template_links += group_links[group]
            region = max(region, chars)
        link_items = group_link_items[group]
        if link_items >= _LINK_LIST_MIN:
            list_items = max(list_items, link_items)
            list_chars += chars
    # Distinct same-site links of the teasers: each teaser's first link.
    urls: set[str] = set()
    if n_groups:
        host = _host(url)
        owns = owners if owners is not None else _owners(page)
        for index in range(len(teaser_blocks)):
            if group_teasers[teaser_groups[index]] < _TEMPLATE_MIN:
                continue
            block = teaser_blocks[index]
            if _holds_subheading(page, owns, block):
                headed_items += 1
            href = (_first_href(elements[block]) or "")[:300]
            if href and _same_site(href, host):
                cut = href.find("#")
                urls.add(href if cut < 0 else href[:cut])
    share = 1.0 / total if total else 0.0
    body_prose = shape.body_share * (prose[0] if prose else 0)
    return [
        _log(n_groups),
        _log(items),
        _log(headed_items),
        template_chars * share,
        template_links / total_links if total_links else 0.0,
        region * share,
        body_prose / (body_prose + region) if body_prose + region > 0 else 0.0,
        _log(len(urls)),
        _log(list_items),
        list_chars * share,
        float(min(navs, 5)),
        float(_has_pager(page)),
    ]


def _has_pager(page: PageSegments) -> bool:
    """A pager: a short, mostly linked line of three or more page numbers, or three or more
    such lines of a lone number. A lone number cannot be a pager's line (that has spaces), and
    most lines fail `_may_be_pager` by their first or last letter: few reach the regex."""
    digits = 0
    segment_chars, segment_links = page.segment_chars, page.segment_link_chars
    for index in range(len(segment_chars)):
        count = segment_chars[index]
        if count > _LINK_ITEM_MAX or segment_links[index] * 2 < count or not count:
            continue
        for line in page.segment_lines[index]:
            if line.isdigit():
                if len(line) <= 4:
                    digits += 1
                    if digits >= _PAGER_NUMBERS:
                        return True
            elif _may_be_pager(line) and _PAGER_LINE.fullmatch(line) is not None:
                return True
    return False


def page_type_features(  # noqa: PLR0917 - one argument per stage result, all required
    url: str | None,
    metadata: PageMetadata,
    controls: PageControls,
    page: PageSegments,
    shape: BodyShape,
    evidence: PageEvidence,
    thread_posts: int,
    segment_ids: tuple[int, ...] = (),
    container: int = -1,
) -> tuple[float, ...]:
    """The features named in `FEATURE_NAMES`, in that order (``segment_ids`` and
    ``container``: the chosen body's, read by `profile_features`)."""
    structure, prices = _structure_features(page)
    # The subtree link sums and the blocks owning segments, once for both template readings
    # (each computed them: two page-sized passes more).
    links = _link_totals(page)
    owners = _owners(page)
    return (
        *_url_features(url),
        *_declared_features(metadata),
        float(min(controls.forms, 10)),
        _log(controls.text_inputs),
        float(min(controls.password_fields, 3)),
        _log(controls.selects),
        float(min(controls.textareas, 3)),
        _log(controls.buttons),
        float(min(controls.cart_controls, 5)),
        _log(prices),
        *structure,
        _log(shape.chars),
        float(min(shape.paragraphs, 30)),
        shape.container_link_density,
        shape.body_share,
        shape.heading_share,
        shape.short_line_share,
        shape.date_line_share,
        shape.cell_share,
        shape.tag_ratio_agreement,
        float(evidence.declared_container),
        evidence.body_position,
        -1.0 if evidence.title_agreement is None else _signed(evidence.title_agreement),
        _signed(evidence.description_agreement),
        _log(thread_posts),
        *_template_features(page, shape, url, links, owners),
        *profile_features(url, metadata.title, page, segment_ids, container),
        *card_features(page, segment_ids, links, owners),
    )


# The container's counts read in C (`_page_features_c.container_counts`): the same four counts
# as `_container_counts_python`, without an element proxy and its tag per element.
CONTAINER_COUNTS: Final[CompiledTwin[Callable[[etree._Element], tuple[int, int, int, int]]]] = (
    CompiledTwin(_page_features_c.container_counts if _page_features_c is not None else None)
)


def _container_counts(element: etree._Element) -> tuple[int, int, int, int]:
    """(links, images, code and kbd elements, definition terms) at or below ``element``."""
    compiled = CONTAINER_COUNTS.active
    if compiled is not None:
        return compiled(element)
    return _container_counts_python(element)


def _container_counts_python(element: etree._Element) -> tuple[int, int, int, int]:
    anchors = images = code = terms = 0
    for el in element.iter("a", "img", "code", "kbd", "dt"):
        tag = el.tag
        if tag == "a":
            anchors += 1
        elif tag == "img":
            images += 1
        elif tag == "dt":
            terms += 1
        else:
            code += 1
    return anchors, images, code, terms


#: A paragraph of running prose: a segment of at least this many characters.
_LONG_PARAGRAPH: Final = 200
_WORD: Final = re.compile(r"\w+")
_SENTENCE_ENDS: Final = (".", "!", "?", "。", "！", "？", ".\u201d", ".\u2019", '."')


def _ends_sentence(line: str) -> bool:
    """``line.endswith(_SENTENCE_ENDS)`` read from its last two characters (compiled, the
    tuple argument was built again on every call)."""
    if not line:
        return False
    last = line[-1]
    if last in _SENTENCE_LAST:
        return True
    return last in _QUOTE_LAST and len(line) >= 2 and line[-2] == "."


#: `_SENTENCE_ENDS` by their last character: the one-character ends, and the closing quotes
#: that end one after a full stop.
_SENTENCE_LAST: Final = frozenset(".!?。！？")
_QUOTE_LAST: Final = frozenset('\u201d\u2019"')


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text[:300])]


def profile_features(
    url: str | None,
    title: str | None,
    page: PageSegments,
    segment_ids: tuple[int, ...],
    container: int,
) -> list[float]:
    """The body's profile (`PROFILE_NAMES`): the share of its text in paragraphs and list
    items, how long its paragraphs, sentences and sections run, how many siblings of one tag
    its container has, its share of the page's declared main region, the title's length and
    its overlap with the URL's slug, and the code, images, links and definition terms in the
    container. Linear in the body's segments and the container's subtree."""
    chars = page.segment_chars
    tags = page.segment_tags
    punctuation = page.segment_punctuation
    lines_of = page.segment_lines
    total = p_chars = li_chars = long_chars = punct = headings = items = 0
    lines = sentence_lines = 0
    for index in segment_ids:
        count = chars[index]
        total += count
        punct += punctuation[index]
        tag = tags[index]
        if tag == "p":
            p_chars += count
        elif tag == "li":
            li_chars += count
            items += 1
        elif tag in HEADING_TAGS:
            headings += 1
        if count >= _LONG_PARAGRAPH:
            long_chars += count
        for line in lines_of[index]:
            lines += 1
            if _ends_sentence(line):
                sentence_lines += 1
    share = 1.0 / total if total else 0.0
    parents = page.block_parents
    block_tags = page.block_tags
    siblings = has_main = 0
    main_share = 0.0
    code = images = anchors = terms = 0
    if 0 <= container < len(parents):
        parent = parents[container]
        tag = block_tags[container]
        if parent >= 0:
            ends = page.block_ends
            block = parent + 1
            end = ends[parent]
            while block <= end:  # the parent's children, skipping their subtrees
                if block != container and block_tags[block] == tag:
                    siblings += 1
                block = ends[block] + 1
        prose = page.prose
        for region in page.main_regions:
            if region <= container <= page.block_ends[region] and prose[region]:
                has_main = 1
                main_share = max(main_share, min(1.0, total / (prose[region] + 1)))
        if container < len(page.block_elements):
            anchors, images, code, terms = _container_counts(page.block_elements[container])
    title_words = _words(title or "")
    dense = sum(1 for ch in (title or "")[:300] if ch >= "\u3040")
    slug_share = 0.0
    if url:
        try:
            segments = path_segments(url)
        except ValueError:
            segments = []
        if segments:
            last = segments[-1].lower()
            stem = last.rsplit(".", 1)[0] if "." in last else last
            slug = [w for w in re.split(r"[-_+.]+", stem) if len(w) > 1 and not w.isdigit()]
            if len(slug) >= 2 and title_words:
                known = set(title_words)
                slug_share = sum(1 for w in slug if w in known) / len(slug)
    kchars = total / 1000 if total else 1.0
    return [
        p_chars * share,
        li_chars * share,
        long_chars * share,
        _log(total / len(segment_ids)) if segment_ids else 0.0,
        _log(total / (punct + 1)),
        sentence_lines / lines if lines else 0.0,
        _log(total / (headings + 1)),
        _log(siblings),
        float(has_main),
        main_share,
        _log(len(title_words) + dense / 2),
        slug_share,
        _log(code / kchars),
        _log(images),
        _log(anchors / kchars),
        _log(terms),
        _log(items),
        _log(total / (len(title or "") + 10)),
    ]


#: A card: a box (not a paragraph, heading, list item or table cell) of this much unlinked text,
#: at most a fifth of it in links.
_CARD_MIN: Final = 40
_CARD_MAX: Final = 800
_CARD_LINK_SHARE: Final = 0.2
_NOT_CARDS: Final = _NOT_ITEMS | {"li", "td", "th", "tr", "tbody", "table", "ul", "ol", "dl"}


def card_features(
    page: PageSegments,
    segment_ids: tuple[int, ...],
    links: list[int] | None = None,
    owners: list[bool] | None = None,
) -> list[float]:
    """Card grids (`CARD_NAMES`): groups of three or more sibling boxes of one tag, each of
    short text with few links, how many of them hold a subheading, their share of the page's
    text and the share of the body inside them. Linear in the page's blocks and segments.
    ``links`` and ``owners`` as for `_template_features`."""
    parents = page.block_parents
    tags = page.block_tags
    ends = page.block_ends
    prose = page.prose
    count = min(len(parents), len(prose), len(ends))
    if links is None:
        links = _link_totals(page)
    groups: dict[tuple[int, str], list[int]] = {}
    for block in range(1, count):
        text = prose[block]
        if text < _CARD_MIN or text > _CARD_MAX or tags[block] in _NOT_CARDS:
            continue
        if links[block] > _CARD_LINK_SHARE * (text + links[block]):
            continue
        key = (parents[block], tags[block])
        members = groups.get(key)
        if members is None:
            groups[key] = [block]
        else:
            members.append(block)
    n_groups = items = headed_items = card_chars = 0
    inside = [False] * count
    owns = owners
    for members in groups.values():
        if len(members) < _TEMPLATE_MIN:
            continue
        n_groups += 1
        items += len(members)
        if owns is None:
            owns = _owners(page)
        for block in members:
            card_chars += prose[block]
            # A card's subtree is read once: sibling cards do not overlap, and a card holding
            # three or more cards is three times as long, so they nest only a few deep.
            if _holds_subheading(page, owns, block):
                headed_items += 1
            for inner in range(block, min(ends[block], count - 1) + 1):
                inside[inner] = True
    total = prose[0] if prose else 0
    segment_owners = page.segment_owners
    chars = page.segment_chars
    body = in_cards = 0
    for index in segment_ids:
        body += chars[index]
        owner = segment_owners[index]
        if 0 <= owner < count and inside[owner]:
            in_cards += chars[index]
    return [
        _log(n_groups),
        _log(items),
        _log(headed_items),
        card_chars / total if total else 0.0,
        in_cards / body if body else 0.0,
    ]

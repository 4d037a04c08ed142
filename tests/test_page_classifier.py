"""The learned page classifier on pages written for these tests, and the crawl's use of it."""

from __future__ import annotations

import asyncio
import json
import math
from collections import Counter
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scrapy.exceptions import DropItem
from scrapy.http import HtmlResponse, Request
from scrapy.settings import Settings

from newsspider.extraction.api import extract
from newsspider.extraction.article import PAGE_TYPES
from newsspider.extraction.classify.content_score import Thresholds
from newsspider.extraction.classify.page_classifier import (
    LEARNED_TYPES,
    MODEL,
    MODEL_PATH,
    RULE_TYPES,
    load_model,
)
from newsspider.extraction.classify.page_features import FEATURE_NAMES, read_controls
from newsspider.extraction.common.url_shape import date_in_url, url_article_score
from newsspider.extraction.page_judgement import judge_page
from newsspider.extraction.stages import StageRecord
from newsspider.items import PageItem
from newsspider.middlewares import ContentFilterMiddleware, PageDropped
from newsspider.pipelines import ArticlePipeline

_SENTENCES = (
    "The council met on Tuesday evening to discuss the new budget for the coming year.",
    "Several members argued that the proposed cuts would hurt the town's libraries.",
    "Others said the savings were needed to repair roads damaged during the winter storms.",
    "After three hours of debate, the vote was postponed until the next session in May.",
    "Residents who attended the meeting were given a chance to speak before the vote.",
    "Many of them asked the council to find the money somewhere else in the budget.",
)


def _paragraphs(count: int, offset: int = 0) -> str:
    return "".join(
        f"<p>{_SENTENCES[(i + offset) % 6]} {_SENTENCES[(i + offset + 1) % 6]} "
        f"{_SENTENCES[(i + offset + 2) % 6]}</p>"
        for i in range(count)
    )


_CHROME = (
    "<header><a href='/'>Town Gazette</a><nav><ul>"
    + "".join(
        f"<li><a href='/section/{s}/'>{s.title()}</a></li>" for s in ("local", "sport", "arts")
    )
    + "</ul></nav></header>"
)
_FOOTER = "<footer><a href='/about/'>About</a> <a href='/contact/'>Contact</a></footer>"

ARTICLE = (
    "<html lang='en'><head><title>Council delays budget vote | Town Gazette</title>"
    "<meta property='og:type' content='article'></head><body>"
    + _CHROME
    + "<main><article><h1>Council delays budget vote</h1>"
    "<p class='byline'>By Ann Reporter <time datetime='2024-03-05'>5 March 2024</time></p>"
    + _paragraphs(8)
    + "</article></main>"
    + _FOOTER
    + "</body></html>"
)
ARTICLE_URL = "https://gazette.example/2024/03/05/council-delays-budget-vote-until-may.html"

TAG_PAGE = (
    "<html lang='en'><head><title>Tag: budget | Town Gazette</title></head><body>"
    + _CHROME
    + "<main><h1>Budget</h1><ul class='stories'>"
    + "".join(
        f"<li><article class='teaser'><h3><a href='/2024/02/{i + 1:02d}/story-about-the-budget-"
        f"number-{i}.html'>Story number {i} about the town budget and its many effects</a></h3>"
        f"<time datetime='2024-02-{i % 28 + 1:02d}'>{i % 28 + 1} Feb 2024</time></article></li>"
        for i in range(30)
    )
    + "</ul></main>"
    + _FOOTER
    + "</body></html>"
)
TAG_URL = "https://gazette.example/tag/budget/"

_REPLIES = (
    "I had the same problem after the update, the fix was to reset the router twice.",
    "Thanks, that worked for me as well. The second reset is the important one apparently.",
    "Has anyone tried the new firmware? It seems to solve the dropouts on my connection.",
    "Not yet, but I will try it tonight and report back here with the results I get.",
    "The new firmware fixed it for me, no dropouts in two days of constant streaming now.",
    "Same here. I would still like to know what caused the problem in the first place.",
)
THREAD = (
    "<html lang='en'><head><title>Router keeps dropping the connection | Home Net Forum</title>"
    "</head><body>"
    "<header><a href='/'>Home Net Forum</a><nav><a href='/forums/'>Forums</a> "
    "<a href='/members/'>Members</a></nav></header>"
    "<main><h1>Router keeps dropping the connection</h1><div class='thread'>"
    + "".join(
        f"<div class='message'><div class='message-user'><a href='/members/user{i}/'>user{i}</a>"
        f"<span>Posts: {10 * i + 3}</span></div><div class='message-main'>"
        f"<div class='message-meta'><time datetime='2024-01-0{i + 1}'>Jan {i + 1}</time> "
        f"<a href='#post-{i}'>#{i + 1}</a></div><div class='message-body'><p>{text} "
        f"{_REPLIES[(i + 1) % 6]}</p></div><div class='message-actions'>"
        f"<a href='/reply/{i}'>Reply</a> <a href='/like/{i}'>Like</a></div></div></div>"
        for i, text in enumerate(_REPLIES)
    )
    + "</div><form action='/reply' method='post'><textarea name='message'></textarea>"
    "<button type='submit'>Post reply</button></form></main>"
    "<footer><a href='/help/'>Help</a></footer></body></html>"
)
THREAD_URL = "https://homenet.example/threads/router-keeps-dropping-the-connection.48213/"

PRODUCT = (
    "<html lang='en'><head><title>Oak Desk Lamp | Bright Home Shop</title>"
    "<meta property='og:type' content='product'>"
    "<script type='application/ld+json'>"
    + json.dumps(
        {
            "@context": "https://schema.org",
            "@type": "Product",
            "name": "Oak Desk Lamp",
            "offers": {"@type": "Offer", "price": "49.00", "priceCurrency": "EUR"},
        }
    )
    + "</script></head><body>"
    "<header><a href='/'>Bright Home</a><a href='/cart/'>Cart (0)</a></header>"
    "<main><div class='product'><h1>Oak Desk Lamp</h1><div class='price'>€49.00</div>"
    "<form action='/cart/add' method='post'><select name='colour'><option>Natural</option>"
    "<option>Dark</option></select><input type='number' name='quantity' value='1'>"
    "<button type='submit' class='add-to-cart'>Add to cart</button></form>"
    "<div class='description'><p>A small lamp made of solid oak with a linen shade, for a "
    "desk or a bedside table. The warm light is easy on the eyes in the evening.</p>"
    "<ul><li>Height 42 cm</li><li>E27 bulb, not included</li><li>Cable 1.8 m</li></ul></div>"
    "<h2>You may also like</h2><ul>"
    + "".join(
        f"<li><a href='/products/lamp-{i}'>Lamp model {i}</a> <span>€{30 + i}.00</span></li>"
        for i in range(6)
    )
    + "</ul></div></main><footer><a href='/shipping/'>Shipping</a></footer></body></html>"
)
PRODUCT_URL = "https://brighthome.example/products/oak-desk-lamp"


def _typed(html: str, url: str) -> tuple[str, float, StageRecord]:
    record = StageRecord()
    article = extract(html, url, record=record)
    return article.page_type, article.article_probability, record


def test_model_is_shipped_and_matches_the_features() -> None:
    assert MODEL is not None
    stored = json.loads(MODEL_PATH.read_text(encoding="utf-8"))
    assert tuple(stored["features"]) == FEATURE_NAMES
    model = load_model(MODEL_PATH.read_text(encoding="utf-8"))
    prediction = model.predict(tuple(0.0 for _ in FEATURE_NAMES))
    assert math.isclose(sum(prediction.probabilities), 1.0)
    assert prediction.page_type in LEARNED_TYPES


def test_a_model_for_other_features_is_refused() -> None:
    stored = json.loads(MODEL_PATH.read_text(encoding="utf-8"))
    stored["features"] = stored["features"][:-1]
    with pytest.raises(ValueError, match="refit"):
        load_model(json.dumps(stored))


def test_vocabulary() -> None:
    assert set(LEARNED_TYPES) | RULE_TYPES == set(PAGE_TYPES)


def test_article_stays_article() -> None:
    page_type, probability, _ = _typed(ARTICLE, ARTICLE_URL)
    assert page_type == "article"
    assert probability > 0.5


def test_tag_page_with_thirty_headlines_is_not_an_article() -> None:
    page_type, probability, _ = _typed(TAG_PAGE, TAG_URL)
    assert page_type == "listing"
    assert probability < 0.5


def test_forum_thread_is_a_thread() -> None:
    page_type, _, record = _typed(THREAD, THREAD_URL)
    assert page_type == "thread"
    assert record.type_prediction is not None


def test_product_page_is_a_product() -> None:
    page_type, probability, _ = _typed(PRODUCT, PRODUCT_URL)
    assert page_type == "product"
    assert probability < 0.5


def test_controls_are_counted_before_cleaning() -> None:
    import lxml.html

    controls = read_controls(lxml.html.document_fromstring(PRODUCT))
    assert controls.forms == 1 and controls.selects == 1 and controls.text_inputs == 1
    assert controls.cart_controls >= 2  # the form's action and the button


def test_url_shape_is_shared_with_the_link_classifier() -> None:
    from newsspider.spiders._links import Region, score_article

    score = url_article_score(ARTICLE_URL)
    assert score is not None and score >= 3.0
    assert url_article_score("https://gazette.example/") is None
    assert score_article("https://gazette.example/", "x", Region.CONTENT) == -5.0
    # Menus and headers cost nothing since the navigation work (docs/page-objects.md); an
    # empty anchor text costs 1.
    assert score_article(ARTICLE_URL, "", Region.CHROME) == score - 1.0
    assert date_in_url(ARTICLE_URL) is not None


def test_rule_types_keep_their_rules() -> None:
    page = (
        "<html><head><title>404 Page not found</title></head><body><h1>Not found</h1>"
        "<p>The page you asked for does not exist. Try the search box or the home page.</p>"
        "</body></html>"
    )
    article = extract(page, "https://gazette.example/missing")
    assert article.page_type == "error"
    assert article.article_probability == 0.0


# --- the crawl ---------------------------------------------------------------------------------


class _Stats:
    def __init__(self) -> None:
        self.values: Counter[str] = Counter()

    def inc_value(self, key: str, count: int = 1, start: int = 0) -> None:
        self.values[key] += count


def _crawler(**settings: Any) -> Any:
    values = {"NEWSSPIDER_CONTENT_FILTER_MIN_PRESENCE": 0.01, **settings}
    return SimpleNamespace(settings=Settings(values), stats=_Stats(), spider=None)


def _filter(page: str, url: str, **settings: Any) -> tuple[str | None, Counter[str]]:
    crawler = _crawler(**settings)
    middleware = ContentFilterMiddleware(crawler)
    request = Request(url, meta={"newsspider_judge": True})
    response = HtmlResponse(
        url, body=page.encode(), encoding="utf-8", request=request,
        headers={"Content-Type": "text/html; charset=utf-8"},
    )  # fmt: skip

    async def run() -> str | None:
        try:
            await middleware.process_response(request, response)
        except PageDropped as dropped:
            return dropped.reason
        finally:
            middleware._close_runner()
        return None

    return asyncio.run(run()), crawler.stats.values


def _pipeline(page: str, url: str, **settings: Any) -> tuple[bool, Counter[str]]:
    crawler = _crawler(**settings)
    pipeline = ArticlePipeline.from_crawler(crawler)
    item = PageItem(url=url, body=page.encode(), encoding="utf-8")

    async def run() -> bool:
        pipeline.open_spider()
        try:
            await pipeline.process_item(item)
        except DropItem as drop:
            assert drop.log_level == "INFO"
            return False
        finally:
            pipeline.close_spider()
        return True

    return asyncio.run(run()), crawler.stats.values


def test_listing_dropped_by_the_crawl_with_its_type_counted() -> None:
    reason, stats = _filter(TAG_PAGE, TAG_URL)
    # Dropped as a listing: by its type, or earlier by its P(article present).
    assert reason in ("page_type", "listing", "no_article")
    assert stats[f"newsspider/dropped/reason_count/{reason}"] == 1
    assert stats["newsspider/dropped/page_type_count/listing"] == 1
    kept, stats = _pipeline(TAG_PAGE, TAG_URL, NEWSSPIDER_LOW_CONFIDENCE="flag")
    assert not kept
    assert stats["newsspider/dropped/page_type_count/listing"] == 1


def test_page_types_setting_lets_a_type_through() -> None:
    settings = {"NEWSSPIDER_PAGE_TYPES": ["article", "thread", "product"]}
    assert _filter(PRODUCT, PRODUCT_URL, **settings)[0] != "page_type"
    kept, _ = _pipeline(PRODUCT, PRODUCT_URL, NEWSSPIDER_LOW_CONFIDENCE="flag", **settings)
    assert kept


def test_unknown_page_type_setting_fails_at_start() -> None:
    with pytest.raises(ValueError, match="unknown page types"):
        ArticlePipeline.from_crawler(_crawler(NEWSSPIDER_PAGE_TYPES=["article", "news"]))


@pytest.mark.parametrize(
    ("page", "url"),
    [(ARTICLE, ARTICLE_URL), (TAG_PAGE, TAG_URL), (THREAD, THREAD_URL), (PRODUCT, PRODUCT_URL)],
)
def test_filter_and_pipeline_agree_on_the_page_type(page: str, url: str) -> None:
    judgement = judge_page(
        page.encode(), url, "text/html; charset=utf-8", "utf-8",
        thresholds=Thresholds(), min_presence=0.0,
    )  # fmt: skip
    assert judgement.article is not None
    page_type = judgement.article.page_type
    passes = page_type in ("article", "thread")
    kept, stats = _pipeline(page, url, NEWSSPIDER_LOW_CONFIDENCE="flag")
    # The same type both times, and the same verdict on it.
    assert stats[f"newsspider/pipeline/page_type_count/{page_type}"] == 1
    assert kept == passes
    assert (stats["newsspider/dropped/reason_count/page_type"] == 1) == (not passes)
    if judgement.keep:
        assert passes
    if not passes:
        assert not judgement.keep


def test_article_floor_and_merged_classes() -> None:
    """P(article) at or over the floor types the page article; an internal class's probability
    counts for the type it reports as."""
    from newsspider.extraction.classify.page_classifier import PageTypeModel

    width = len(FEATURE_NAMES)
    zero = tuple(0.0 for _ in range(width))
    # article, listing, no_article (reported as other): P = 0.1, 0.5, 0.4
    offsets = (math.log(0.1), math.log(0.5), math.log(0.4))
    targets = (LEARNED_TYPES.index("article"), LEARNED_TYPES.index("listing"), 5)
    strict = PageTypeModel((zero, zero, zero), offsets, targets, article_floor=0.5)
    lenient = PageTypeModel((zero, zero, zero), offsets, targets, article_floor=0.1)
    assert strict.predict(zero).page_type == "listing"
    assert lenient.predict(zero).page_type == "article"
    probabilities = strict.predict(zero).as_dict()
    assert probabilities["other"] == pytest.approx(0.4, abs=1e-4)
    assert strict.predict(zero).likeliest_besides_article() == "listing"
    with pytest.raises(ValueError, match="features"):
        strict.predict(zero[:-1])


def test_article_floor_by_rival_type() -> None:
    """With floors by rival type, the same P(article) types a page article when its likeliest
    other type has a low floor and not when it has a high one; a stored model naming an unknown
    rival is refused at load."""
    from newsspider.extraction.classify.page_classifier import PageTypeModel

    width = len(FEATURE_NAMES)
    zero = tuple(0.0 for _ in range(width))
    rivals = (0.05, 0.05, 0.2, 0.05, 0.05, 0.05)  # LEARNED_TYPES order; listing 0.2
    targets = (LEARNED_TYPES.index("article"), LEARNED_TYPES.index("listing"), 5)
    # P(article) 0.1 beside a likelier listing, then beside a likelier other page
    by_listing = (math.log(0.1), math.log(0.6), math.log(0.3))
    by_other = (math.log(0.1), math.log(0.3), math.log(0.6))
    for offsets, expected in ((by_listing, "listing"), (by_other, "article")):
        model = PageTypeModel(
            (zero, zero, zero), offsets, targets, article_floor=0.05, rival_floors=rivals
        )
        assert model.predict(zero).page_type == expected
        one_floor = PageTypeModel((zero, zero, zero), offsets, targets, article_floor=0.05)
        assert one_floor.predict(zero).page_type == "article"
    stored = json.loads(MODEL_PATH.read_text(encoding="utf-8"))
    loaded = load_model(json.dumps(stored))
    assert loaded.rival_floors == () or len(loaded.rival_floors) == len(LEARNED_TYPES)
    assert all(f >= loaded.article_floor for f in loaded.rival_floors)
    stored["rival_floors"] = {"recipe": 0.1}
    with pytest.raises(ValueError, match="rival"):
        load_model(json.dumps(stored))
    stored["rival_floors"] = {"listing": 1.5}
    with pytest.raises(ValueError, match="rival"):
        load_model(json.dumps(stored))


def test_hidden_password_fields_are_told_apart() -> None:
    import lxml.html

    field = "<input type='password' name='pw'>"
    page = (
        f"<html><body><form>{field}</form><div class='popup' hidden><form>{field}</form></div>"
        f"<div aria-hidden='true'><p><span>{field}</span></p></div>"
        f"<input type='password' style='display:none'></body></html>"
    )
    controls = read_controls(lxml.html.document_fromstring(page))
    assert (controls.password_fields, controls.hidden_password_fields) == (4, 3)


def test_headed_blocks_are_the_blocks_holding_a_subheading() -> None:
    """`_headed_blocks` (the heading walk) and `_holds_subheading` (a block's id range) say of
    every block what the subtree sum of its h2-h6 segments says, empty headings and headings
    holding only a block included."""
    from newsspider.extraction.classify.page_features import (
        _headed_blocks,
        _holds_subheading,
        _owners,
    )
    from newsspider.extraction.page.page_model import SUBHEADING_TAGS

    teasers = "".join(
        f"<li><h3><a href='/story/{i}/'>Story number {i} of the day</a></h3><p>Lead {i}</p></li>"
        for i in range(4)
    )
    page = (
        f"<html><body>{_CHROME}<main><h1>Town news</h1><ul>{teasers}</ul>"
        f"<section><h2>More</h2><div><h5>Deep</h5><p>{_paragraphs(1)}</p></div></section>"
        f"<section><h4></h4><p>{_paragraphs(1, 1)}</p><h3><div>Boxed heading</div></h3></section>"
        f"</main>{_FOOTER}</body></html>"
    )
    record = StageRecord()
    extract(page, ARTICLE_URL, record=record)
    segments = record.page
    assert segments is not None
    sums = segments.subtree_totals([int(tag in SUBHEADING_TAGS) for tag in segments.segment_tags])
    headed = _headed_blocks(segments)
    assert headed == [bool(total) for total in sums]
    assert sum(headed) >= 6  # the teasers' items, the section and the wrappers around them
    # The per-block reading the templates use says the same of every block.
    owns = _owners(segments)
    assert [_holds_subheading(segments, owns, block) for block in range(len(headed))] == headed


def _profile(html: str, url: str) -> dict[str, float]:
    """The page's classifier features by name."""
    _, _, record = _typed(html, url)
    assert record.type_features is not None
    return dict(zip(FEATURE_NAMES, record.type_features, strict=True))


def test_body_profile_reads_how_the_body_is_written() -> None:
    """`profile_features`: an article's body is sentences in paragraphs under a title its URL's
    slug repeats; a service page's body is short list items under a short title."""
    article = _profile(ARTICLE, ARTICLE_URL)
    offers = "".join(
        f"<li>{name} for homes and offices</li>"
        for name in ("Window cleaning", "Carpet care", "Gutter repair", "Lawn mowing")
    )
    service_page = (
        "<html lang='en'><head><title>Services | Clean Co</title></head><body>"
        + _CHROME
        + "<main><h1>Services</h1><div class='services'><h2>What we do</h2>"
        + f"<ul>{offers}</ul><h2>Where</h2><ul>{offers}</ul>"
        + "<p>Call us today.</p></div></main>"
        + _FOOTER
        + "</body></html>"
    )
    service = _profile(service_page, "https://cleanco.example/our-services/")
    assert article["body_p_share"] > 0.9 > service["body_p_share"]
    assert article["body_li_share"] == 0.0 < service["body_li_share"]
    assert article["sentence_line_share"] > service["sentence_line_share"]
    assert article["long_paragraph_share"] > 0.5 > service["long_paragraph_share"]
    assert article["slug_title_share"] >= 0.5  # council, delays, budget, vote of six words
    assert service["slug_title_share"] == 0.5  # "our services": only "services" is in the title
    assert article["title_words"] > service["title_words"]
    assert article["has_main"] == 1.0 and 0.5 < article["main_share"] <= 1.0
    assert service["body_items"] > article["body_items"] == 0.0


def test_body_profile_counts_code_and_card_grids() -> None:
    """A manual's code is counted per thousand characters of its body; sibling boxes of short
    unlinked text under their own headings are a card grid, which an article has not."""
    code = "".join(
        f"<p>{_SENTENCES[i]} Call <code>budget.vote({i})</code> to see it.</p>" for i in range(6)
    )
    manual = (
        f"<html><body>{_CHROME}<main><div class='doc'>{_paragraphs(3)}{code}</div></main>"
        f"{_FOOTER}</body></html>"
    )
    cards = "".join(
        f"<div class='card'><h3>Offer {i}</h3><p>{_SENTENCES[i]}</p></div>" for i in range(4)
    )
    offers = (
        f"<html><body>{_CHROME}<main><h1>Our offers</h1><section class='grid'>{cards}</section>"
        f"<div class='more'>{_paragraphs(1)}</div></main>{_FOOTER}</body></html>"
    )
    article = _profile(ARTICLE, ARTICLE_URL)
    assert _profile(manual, ARTICLE_URL)["body_code"] > 0.0 == article["body_code"]
    grid = _profile(offers, "https://cleanco.example/offers/")
    assert grid["card_groups"] > 0.0 == article["card_groups"]
    assert grid["headed_card_items"] == grid["card_items"] > 0.0  # four cards, each headed
    assert 0.3 < grid["card_share"] < 1.0 and grid["body_card_share"] > 0.3
    assert article["card_share"] == article["body_card_share"] == 0.0


def test_link_totals_are_the_subtree_sums_of_link_characters() -> None:
    from newsspider.extraction.classify.page_features import _link_totals, _owners

    teasers = "".join(
        f"<li><a href='/story/{i}/'>Story number {i} of the day</a> and more</li>" for i in range(5)
    )
    page = (
        f"<html><body>{_CHROME}<main><ul>{teasers}</ul><p>{_paragraphs(2)}</p></main></body></html>"
    )
    record = StageRecord()
    extract(page, ARTICLE_URL, record=record)
    segments = record.page
    assert segments is not None
    links = _link_totals(segments)
    assert links == segments.subtree_totals(segments.segment_link_chars)
    assert links[0] > 0
    owns = _owners(segments)
    assert owns == [block in set(segments.segment_owners) for block in range(len(owns))]


_PRICE_PIECES = st.sampled_from(
    [*"0123456789 $€£¥₹₽₩円元łzkrUSDEGBPCHFAa_\xa0", "USD", "EUR", "CHF", "CAD", "AUD", "GBP",
     "zł", "kr", "руб", "٣", "xUSD"]
)  # fmt: skip


@settings(max_examples=3000, deadline=None)
@given(st.lists(_PRICE_PIECES, max_size=12).map("".join))
def test_price_prefilter_never_drops_a_price(line: str) -> None:
    """`_may_be_price` (a loop over the code points that lets through the lines the price
    regex is run on) passes every line `_PRICE` finds a price in."""
    from newsspider.extraction.classify import page_features

    if page_features._PRICE.search(line) is not None:
        assert page_features._may_be_price(line)


@pytest.mark.parametrize(
    ("line", "passes"),
    [("$5", True), ("5 zł", True), ("10 kr", True), ("9 руб", True), ("USD 4", True),
     ("EUR", True), ("Read 5 comments", False), ("Posted 2024-05-01", False), ("ok", False)],
)  # fmt: skip
def test_price_prefilter_examples(line: str, passes: bool) -> None:
    from newsspider.extraction.classify.page_features import _may_be_price

    assert _may_be_price(line) is passes


_PAGER_PIECES = st.sampled_from(
    [*"0123456789 «»‹›…|·._-aZ\xa0", "12", "1234", "Next", "٣", "²", "页", "é"]
)


@settings(max_examples=3000, deadline=None)
@given(st.lists(_PAGER_PIECES, max_size=12).map("".join))
def test_pager_prefilter_never_drops_a_pager_line(line: str) -> None:
    """`_may_be_pager` passes every line `_PAGER_LINE` matches whole, and a lone number is
    never one (the pager test skips both)."""
    from newsspider.extraction.classify import page_features

    if page_features._PAGER_LINE.fullmatch(line) is not None:
        assert page_features._may_be_pager(line)
        assert not line.isdigit()


@pytest.mark.parametrize(
    ("href", "host", "same"),
    [
        ("/story/1/", "example.com", True),
        ("story/1", "", True),
        ("//www.Example.com/a", "example.com", True),
        ("//cdn.example.net/a", "example.com", False),
        ("//example.com", "", False),
        ("https://WWW.EXAMPLE.COM/path#x", "example.com", True),
        ("https://example.com:8080/path", "example.com", False),  # the port is kept
        ("https://other.org/a", "example.com", False),
        ("https://example.com", "", False),
        ("/go?to=https://other.org/", "example.com", True),  # "://" past the scheme: relative
        ("#comments", "example.com", False),
        ("javascript:void(0)", "example.com", False),
        ("mailto:a@example.com", "example.com", False),
    ],
)
def test_same_site(href: str, host: str, same: bool) -> None:
    from newsspider.extraction.classify.page_features import _same_site

    assert _same_site(href, host) is same


_CART_PIECES = st.sampled_from(
    ["car", "t", "rito", "rello", "add", "buy", "-", "_", " ", "to", "now", "Basket", "CHECKOUT",
     "warenkorb", "panier", "winkelwagen", "Корзина", "购物车", "加入购物", "カート", "장바구니",
     "x"]
)  # fmt: skip


@settings(max_examples=3000, deadline=None)
@given(st.lists(_CART_PIECES, max_size=8).map("".join))
def test_is_cart_holds_a_cart_word(text: str) -> None:
    """`_is_cart` (the words' tests written out) says what a test of every word says."""
    from newsspider.extraction.classify.page_features import _CART_WORDS, _is_cart

    assert _is_cart(text) == any(word in text.lower() for word in _CART_WORDS)

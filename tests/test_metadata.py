"""read_metadata on fixture pages: every field, the article hint, and never raising."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from newsspider.extraction.metadata.reader import PageMetadata, read_metadata

FIXTURES = Path(__file__).parent / "fixtures" / "metadata"


def parse(html: str | bytes) -> etree._Element:
    data = html.encode("utf-8") if isinstance(html, str) else html
    parser = etree.HTMLParser(remove_comments=True, remove_pis=True, encoding="utf-8")
    root = etree.fromstring(data, parser)
    assert root is not None
    return root


def page(name: str) -> etree._Element:
    return parse((FIXTURES / name).read_bytes())


def test_english_jsonld_page() -> None:
    md = read_metadata(page("en_jsonld.html"), "https://gazette.example/news/x?utm=1")
    assert md.title == "Council approves new river bridge"
    # article:published_time is UTC; sailthru.date and <time> give the same instant locally.
    assert md.date == "2021-03-03T22:30:00-08:00"
    assert md.date_modified == "2021-03-05T09:00:00+00:00"
    assert md.authors == ("Jane Doe", "Sam Roe")
    assert md.language == "en"
    assert md.description == "The vote ends a decade of debate."
    assert md.site_name == "Riverton Gazette"
    assert md.canonical_url == "https://gazette.example/news/council-approves-bridge"
    assert md.image == "https://gazette.example/img/bridge.jpg"
    assert md.is_article_hint is True


def test_chinese_page_without_structured_data() -> None:
    md = read_metadata(page("zh_text.html"), "https://news.example.cn/society/a123.html")
    assert md.title == "城市公园今日开放 游客络绎不绝"
    # The byline date, not the "related news" date further down or the footer years.
    assert md.date == "2019-09-05T11:10:00"
    assert md.language == "zh"


def test_russian_genitive_month_and_updated_line() -> None:
    md = read_metadata(page("ru_text.html"), "https://city.example.ru/news/123")
    assert md.title == "В Казани открыли новую станцию метро"
    assert md.date == "2019-09-05T11:10:00"
    assert md.authors == ("Иван Петров",)
    assert md.language == "ru"
    assert md.site_name == "Городские новости"


def test_german_page_skips_logo_heading_and_stand_line() -> None:
    md = read_metadata(page("de_text.html"), "https://zeitung.example.de/lokales/radwege")
    assert md.title == "Neue Radwege für die Innenstadt"
    assert md.date == "2019-09-05T11:10:00"
    assert md.language == "de"


def test_relative_dates_need_a_reference_time() -> None:
    root = page("en_relative.html")
    assert read_metadata(root, None).date is None
    ref = datetime(2024, 5, 2, 1, 0, tzinfo=UTC)
    assert read_metadata(root, None, reference_time=ref).date == "2024-05-01"


def test_url_date_wins_over_a_contradicting_page_date() -> None:
    html = (
        '<html><head><meta property="article:published_time" content="2015-01-01">'
        "</head><body><h1>Hello there world</h1></body></html>"
    )
    md = read_metadata(parse(html), "https://example.com/2019/09/05/hello")
    assert md.date == "2019-09-05"


def test_future_dates_are_rejected() -> None:
    html = (
        '<html><head><meta property="article:published_time" content="2031-01-01T00:00:00Z">'
        "</head><body><h1>Hello</h1></body></html>"
    )
    ref = datetime(2024, 1, 1, tzinfo=UTC)
    assert read_metadata(parse(html), None, reference_time=ref).date is None


def test_listing_hint_is_false() -> None:
    md = read_metadata(page("listing.html"), "https://example.com/latest")
    assert md.is_article_hint is False


def test_hints_are_fallbacks() -> None:
    root = parse("<html><body><p>Nothing here</p></body></html>")
    md = read_metadata(
        root, None, hints={"title": "Feed title", "date": "2020-02-02", "authors": ["A. Writer"]}
    )
    assert md.title == "Feed title"
    assert md.date == "2020-02-02"
    assert md.authors == ("A. Writer",)


def test_headline_candidates_are_used() -> None:
    root = parse(
        "<html><head><title>Site Home</title></head><body>"
        "<h2 id='h'>A headline found by the body extractor</h2><p>05.09.2019</p></body></html>"
    )
    heading = root.find(".//h2")
    assert heading is not None
    md = read_metadata(root, None, headline_candidates=[heading])
    assert md.title == "A headline found by the body extractor"
    assert md.date == "2019-09-05"


def test_deep_jsonld_does_not_raise() -> None:
    nested = "[" * 5000 + "]" * 5000
    html = f'<html><head><script type="application/ld+json">{nested}</script></head></html>'
    assert isinstance(read_metadata(parse(html), None), PageMetadata)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=300))
def test_never_raises_on_arbitrary_markup(text: str) -> None:
    html = f"<html><head><title>{text}</title><meta name='date' content='{text}'></head>"
    html += f"<body><h1>{text}</h1><time datetime='{text}'>{text}</time></body></html>"
    try:
        root = parse(html)
    except (etree.XMLSyntaxError, AssertionError):
        return
    read_metadata(root, text or None, hints={"date": text, "title": text})


@pytest.mark.parametrize(
    ("lang", "expected"), [("en-US", "en"), ("zh_CN", "zh"), ("pt-BR", "pt"), ("xx-bogus!", None)]
)
def test_language_normalised(lang: str, expected: str | None) -> None:
    md = read_metadata(parse(f'<html lang="{lang}"><body><p>x</p></body></html>'), None)
    assert md.language == expected


def test_article_body_from_jsonld() -> None:
    html = """<html><head><script type="application/ld+json">
    [{"@type": "WebSite", "name": "Example", "articleBody": "not the article"},
     {"@type": "NewsArticle", "headline": "A headline",
      "articleBody": "  First paragraph.\\n\\n  Second\\tparagraph.  "}]
    </script></head><body><h1>A headline</h1></body></html>"""
    md = read_metadata(parse(html), "https://example.org/a")
    assert md.article_body == "First paragraph. Second paragraph."


def test_article_body_absent_or_bounded() -> None:
    plain = read_metadata(parse("<html><body><h1>Hello</h1></body></html>"), None)
    assert plain.article_body is None
    not_article = """<html><head><script type="application/ld+json">
    {"@type": "WebPage", "articleBody": "page text"}</script></head><body></body></html>"""
    assert read_metadata(parse(not_article), None).article_body is None
    long_body = "word " * 30_000
    html = (
        '<html><head><script type="application/ld+json">{"@type": "Article", '
        f'"articleBody": "{long_body}"}}</script></head><body></body></html>'
    )
    md = read_metadata(parse(html), None)
    assert md.article_body is not None and len(md.article_body) == 100_000


def test_byline_class_in_any_case() -> None:
    html = """<html><body><div><h1>Storm closes the harbour</h1>
    <span class="Post-BYLINE">By Ann Lee</span><p>Text.</p></div></body></html>"""
    assert read_metadata(parse(html), None).authors == ("Ann Lee",)


def _page(body: str, head: str = "") -> etree._Element:
    return parse(f"<html><head><title>T</title>{head}</head><body>{body}</body></html>")


def test_jsonld_with_trailing_garbage_and_cdata_is_read() -> None:
    # A stray closing brace after the object, and a bare CDATA section around it.
    broken = '<script type="application/ld+json">{"@type": "NewsArticle", '
    broken += '"datePublished": "2020-10-26T18:10:00+01:00"} }</script>'
    md = read_metadata(_page("<h1>Headline</h1><p>Text 09.08.2020</p>", broken), None)
    assert md.date == "2020-10-26T18:10:00+01:00"
    cdata = '<script type="application/ld+json"><![CDATA[{"@type": "NewsArticle", '
    cdata += '"datePublished": "2015-10-15T02:19:15Z"}]]></script>'
    head = cdata + '<meta property="article:published_time" content="2015-12-11T14:28:34Z">'
    assert read_metadata(_page("<h1>Headline</h1>", head), None).date == "2015-10-15T02:19:15+00:00"


def test_two_digit_year_byline_dates() -> None:
    body = "<div class='date'>Party, 30.10.23</div><h1>Costumes</h1><p>Version 1.2.10 is out.</p>"
    assert read_metadata(_page(body), None).date == "2023-10-30"
    body = "<h1>Titel</h1><p class='meta'>Von <a href='/a'>Klaus Muster</a>, 8.5.12 </p><p>x</p>"
    assert read_metadata(_page(body), None).date == "2012-05-08"


def test_url_month_picks_the_date_in_text_beyond_the_scanned_elements() -> None:
    menu = "<ul>" + "<li><a href='/x'>Link</a></li>" * 900 + "</ul>"
    body = f"{menu}<p>Konferenz, 20. Oktober 2017</p><p>Schengen, 3. Juli 2018</p><p>Text.</p>"
    md = read_metadata(_page(body), "https://amt.example/presse/2018/07/treffen/")
    assert md.date == "2018-07-03"


def test_opinion_header_class_is_not_a_comment_section() -> None:
    # "ArticleHeaderComment" is an opinion piece's header, unlike a "comment-list".
    body = (
        "<article class='ArticleHeaderComment'><h1>Was sich ändert</h1>"
        "<div class='PublishDate'><span>Dienstag,</span><span> 29. Januar 2019</span></div>"
        "</article><p>Text <time datetime='2018-03-12T19:30:12+00:00'>12.03.2018</time></p>"
    )
    assert read_metadata(_page(body), None).date == "2019-01-29"


def test_date_in_a_dateish_attribute_without_headline() -> None:
    body = "<div class='news-time-ago' title='2020-09-20T14:20:02Z'>Acum 15 minute</div><p>x</p>"
    assert read_metadata(_page(body), None).date == "2020-09-20T14:20:02+00:00"


def test_share_image_folder_is_the_last_resort() -> None:
    head = '<meta property="og:image" content="https://x.example/files/2016/05/04/cover.png">'
    assert read_metadata(_page("<h1>Report</h1><p>Text.</p>", head), None).date == "2016-05-04"
    # A photo's file name is when it was taken, not published.
    head = '<meta property="og:image" content="https://x.example/img/IMG_20160504_1200.jpg">'
    assert read_metadata(_page("<h1>Report</h1><p>Text.</p>", head), None).date is None


def test_structured_date_that_the_page_calls_the_update() -> None:
    head = '<meta property="article:published_time" content="2024-12-07T12:43:39Z">'
    body = (
        "<h1>Vote fails</h1><time datetime='2024-12-07T12:43:39Z'>Dec. 6, 2024, 10:00 PM UTC"
        " / Updated Dec. 7, 2024, 12:43 PM UTC</time>"
    )
    assert read_metadata(_page(body, head), None).date == "2024-12-06T22:00:00+00:00"


def test_dates_in_asides_and_footers_belong_to_other_pages() -> None:
    body = (
        "<main><h1>Violences</h1><ul class='info'><li>27 juin 2019</li></ul><p>Texte.</p>"
        "<aside><ul><li><span><time datetime='2019-07-30'>30 juil. 2019</time></span></li>"
        "</ul></aside></main>"
    )
    assert read_metadata(_page(body), None).date == "2019-06-27"
    # No headline: the body scan skips a sidebar widget inside the page footer.
    body = (
        "<div class='post'><div class='detail'><img src='c.png'> 27 Sep 2016</div>"
        "<p>Texte.</p></div><div id='footer'><ul class='links'><li class='widget'><ul><li>"
        "<span class='post-date'>09/09/2019</span></li></ul></li></ul></div>"
    )
    assert read_metadata(_page(body), None).date == "2016-09-27"
    # The article's own <footer> keeps its byline date.
    body = (
        "<article><h1>Story</h1><p>Text.</p><footer><time datetime='2020-02-02'>2 Feb 2020"
        "</time></footer></article><aside><time datetime='2021-01-01'>1 Jan 2021</time></aside>"
    )
    assert read_metadata(_page(body), None).date == "2020-02-02"


def test_machine_slash_date_in_meta_is_month_first_on_any_page() -> None:
    head = '<meta http-equiv="content-language" content="de">'
    head += '<meta name="date" content="11/01/2023 12:43:42">'
    md = read_metadata(_page("<h1>Trinkwasser</h1><p>Text.</p>", head), None)
    assert md.date == "2023-11-01T12:43:42"
    # A visible itemprop text follows the page's locale (day first here), not the machine format.
    body = "<div><p>Text.</p></div><span itemprop='datePublished'>05/09/2019</span>"
    assert read_metadata(_page(body), None).date == "2019-09-05"


@given(
    st.lists(
        st.one_of(
            st.sampled_from(["byline", "AUTHOR", "wrİter", "reporter", "journaliſt", "Autor"]),
            st.sampled_from(["作者", "記者", "by", "line", "auth", "or", "wrıter"]),
            st.text(alphabet="abrwjBARWJ iıİſsSkK-_作記", max_size=6),
            st.text(alphabet="abeilnorstuwyBEILNORSTUWY-_ 0", max_size=8),
        ),
        max_size=8,
    )
)
@settings(max_examples=500, deadline=None)
def test_author_class_matches_the_ignorecase_pattern(pieces: list[str]) -> None:
    from newsspider.extraction.metadata.authors import _AUTHOR_CLASS_RE, _author_class

    for value in ("".join(pieces), " ".join(pieces), "-".join(pieces)):
        assert _author_class(value) == (_AUTHOR_CLASS_RE.search(value) is not None), value

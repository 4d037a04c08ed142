"""Headline choice and site-name stripping."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from newsspider.extraction.metadata.title import choose_title, strip_site_name


@pytest.mark.parametrize(
    ("title", "site", "url", "expected"),
    [
        ("Bridge opens | Riverton Gazette", "Riverton Gazette", None, "Bridge opens"),
        ("Gazette - Bridge opens today", None, "https://gazette.com/", "Bridge opens today"),
        ("城市公园今日开放_社会频道_示例新闻网", None, None, "城市公园今日开放"),
        ("城市公园今日开放-示例新闻网", None, None, "城市公园今日开放"),
        ("「Wi-Fi保護」を発表 - ニュース", None, None, "「Wi-Fi保護」を発表"),
        ("A long headline about the vote - Daily", None, None, "A long headline about the vote"),
        ("Just-released exploit crashes", None, None, "Just-released exploit crashes"),
        ("Screenshot : «Vape Wave»", None, None, "Screenshot : «Vape Wave»"),
    ],
)  # fmt: skip
def test_strip_site_name(title: str, site: str | None, url: str | None, expected: str) -> None:
    assert strip_site_name(title, site_name=site, url=url) == expected


def h(text: str) -> etree._Element:
    el = etree.Element("h1")
    el.text = text
    return el


def test_heading_that_agrees_with_title_wins() -> None:
    heading = h("Council approves bridge after decade of debate")
    title, el = choose_title(
        meta={"og:title": ["Council approves bridge after decade of debate | Gazette"]},
        jsonld=[],
        title_tag="Council approves bridge after decade of debate | Gazette",
        headings=[h("Gazette"), heading],
        site_name="Gazette",
        url=None,
    )
    assert title == "Council approves bridge after decade of debate"
    assert el is heading


def test_logo_heading_is_not_the_headline() -> None:
    title, el = choose_title(
        meta={},
        jsonld=[],
        title_tag="Standalone binaries with Emscripten · V8",
        headings=[h("V8")],
        site_name=None,
        url="https://v8.dev/blog/x",
    )
    assert title == "Standalone binaries with Emscripten"
    assert el is None


def test_og_title_equal_to_site_name_is_ignored() -> None:
    title, _ = choose_title(
        meta={"og:title": ["Example News"]},
        jsonld=[],
        title_tag="Rates rise again - Example News",
        headings=[],
        site_name="Example News",
        url=None,
    )
    assert title == "Rates rise again"


def test_jsonld_headline_first() -> None:
    title, _ = choose_title(
        meta={"og:title": ["Other"]},
        jsonld=[{"@type": "NewsArticle", "headline": "  The real   headline "}],
        title_tag="",
        headings=[],
        site_name=None,
        url=None,
    )
    assert title == "The real headline"


def test_nothing_gives_hint_or_none() -> None:
    def pick(hint: str | None) -> tuple[str | None, object]:
        return choose_title(
            meta={}, jsonld=[], title_tag="", headings=[], site_name=None, url=None, hint=hint
        )

    assert pick(None) == (None, None)
    assert pick("Feed") == ("Feed", None)


@pytest.mark.parametrize(
    ("title", "site", "url", "expected"),
    [
        # "Post @ Blog :: Platform ::": the "_" inside the post title is not a separator here.
        ("山中營地_賞楓 (2) @ 小明的家_藍天 :: 範例 EXAMPLE ::", "小明的家_藍天",
         "https://someone.example.net/blog/1", "山中營地_賞楓 (2)"),
        # A trailing "[Site]" is a site label, even with no site name known.
        ("Weekly Edition for March 26, 2015 [Example.net]", None, None,
         "Weekly Edition for March 26, 2015"),
        # "标题_频道_网站 - SITE.COM": the channel names go too.
        ("央行利率按兵不动_经济_宏观频道首页_示例网 - EXAMPLE.COM.CN", None,
         "http://economy.example.com.cn/1.shtml", "央行利率按兵不动"),
        # The site is the label before the public suffix, also under a subdomain.
        ("Bridge opens - CNN Wire", None,
         "https://edition.cnn.com/2024/x", "Bridge opens"),
        # A piece that only mentions the site's name ("GNU ...") is not the site's name.
        ("The GNU General Public License v3.0 - GNU Project - Free Software Foundation", None,
         "https://www.gnu.org/licenses/gpl-3.0.html",
         "The GNU General Public License v3.0 - GNU Project - Free Software Foundation"),
    ],
)  # fmt: skip
def test_strip_site_name_more(title: str, site: str | None, url: str | None, expected: str) -> None:
    assert strip_site_name(title, site_name=site, url=url) == expected


def test_logo_heading_naming_the_site_is_skipped() -> None:
    title, el = choose_title(
        meta={"og:title": ["Autumn leaves at the camp @ Ming's Home :: Example BLOG ::"]},
        jsonld=[],
        title_tag="Autumn leaves at the camp @ Ming's Home :: Example BLOG ::",
        headings=[h("文字 EXAMPLE"), h("Ming's Home")],
        site_name="Ming's Home",
        url="https://ming.example.net/blog/post/1",
    )
    assert title == "Autumn leaves at the camp"
    assert el is None


def test_heading_equal_to_structured_title_is_not_trimmed() -> None:
    heading = h("Content Depth — Write Comprehensively About Your Core Topics")
    title, el = choose_title(
        meta={"og:title": ["Content Depth — Write Comprehensively About Your Core Topics"]},
        jsonld=[],
        title_tag="Content Depth — Write Comprehensively About Your Core Topics | seedsite",
        headings=[heading],
        site_name="seedsite",
        url=None,
    )
    assert title == "Content Depth — Write Comprehensively About Your Core Topics"
    assert el is heading


def test_two_agreeing_headings_earlier_piece_wins() -> None:
    # A documentation page: the project's name and the page's heading (with a permalink mark)
    # are each one piece of "Page — Project"; the page's heading comes first.
    project = h("evolve extension for Mercurial")
    page = h("Evolve: Shared Mutable History¶")
    title, el = choose_title(
        meta={},
        jsonld=[],
        title_tag="Evolve: Shared Mutable History — evolve extension for Mercurial",
        headings=[project, page],
        site_name=None,
        url="https://www.example-scm.org/doc/sharing.html",
    )
    assert title == "Evolve: Shared Mutable History"
    assert el is page


def test_heading_matching_bracketed_site_label_is_not_the_headline() -> None:
    title, el = choose_title(
        meta={},
        jsonld=[],
        title_tag="A Story - Chapter 1 - SomeAuthor - Fandom [Archive of Fics]",
        headings=[h("Archive of Fics beta")],
        site_name=None,
        url=None,
    )
    assert el is None
    assert title is not None and "Archive" not in title


def test_dublin_core_colon_key_is_a_title() -> None:
    title, _ = choose_title(
        meta={"dc:title": ["My title"]},
        jsonld=[],
        title_tag="Title Element",
        headings=[h("Test document title")],
        site_name=None,
        url=None,
    )
    assert title == "My title"


def test_structured_title_that_is_the_host_is_ignored() -> None:
    title, _ = choose_title(
        meta={"dc.title": ["gnu.org"]},
        jsonld=[],
        title_tag="The GNU General Public License v3.0 - GNU Project - Free Software Foundation",
        headings=[],
        site_name=None,
        url="https://www.gnu.org/licenses/gpl-3.0.html",
    )
    assert title is not None and title.startswith("The GNU General Public License")


def test_space_separated_meta_properties_end_to_end() -> None:
    from newsspider.extraction.metadata.reader import read_metadata
    from newsspider.extraction.parse.parsing import parse_html

    root = parse_html(
        b"<html><head><title>Title Element</title>"
        b'<meta property="x:title dc:title" content="My title"></head>'
        b"<body><article><h1>Test document title</h1><p>Lorem ipsum dolor.</p>"
        b"</article></body></html>"
    )
    assert read_metadata(root, "https://example.org/a").title == "My title"


def parse_heading(markup: str) -> etree._Element:
    root = etree.fromstring(markup, etree.HTMLParser())
    found = root.find(".//h1")
    assert found is not None
    return found


@pytest.mark.parametrize(
    ("markup", "expected"),
    [
        ("<h1><span>Analysis</span><span>Rates rise</span></h1>", "Analysis Rates rise"),
        ("<h1><span class='dropcap'>N</span>ASA budget cut</h1>", "NASA budget cut"),
        ("<h1>Kicker<br>The headline</h1>", "Kicker The headline"),
        ("<h1>Rates <em>rise</em> again</h1>", "Rates rise again"),
        ("<h1>Zero\u200bwidth\u00a0space &amp;amp; co<a>¶</a></h1>", "Zerowidth space & co"),
    ],
)  # fmt: skip
def test_heading_text_keeps_a_space_between_its_pieces(markup: str, expected: str) -> None:
    from newsspider.extraction.metadata.title import heading_text

    assert heading_text(parse_heading(markup)) == expected


def test_field_text_decodes_double_escaped_entities_only() -> None:
    from newsspider.extraction.metadata.text import field_text

    assert field_text("SF&#x27;s best &amp; worst", 400) == "SF's best & worst"
    assert field_text("AT&T and R&D; fine", 400) == "AT&T and R&D; fine"


def test_field_text_collapses_whitespace_drops_invisibles_and_cuts() -> None:
    from newsspider.extraction.metadata.text import field_text

    assert field_text("  a\u200b b\n\tc  ", 400) == "a b c"
    assert field_text("word " * 100, 12) == "word word wo"
    assert field_text(None, 400) == ""


def test_heading_equal_to_leading_piece_of_title_wins() -> None:
    # A documentation page: "Page — Project (version)". The page's heading is the short first
    # piece; the project's name trails.
    heading = h("Quickstart¶")
    title, el = choose_title(
        meta={},
        jsonld=[],
        title_tag="Quickstart — Widgetlib Documentation (3.1.x)",
        headings=[heading],
        site_name=None,
        url="https://widgetlib.example.org/en/stable/quickstart/",
    )
    assert title == "Quickstart"
    assert el is heading


def test_longer_heading_is_not_cut_to_the_shorter_meta_title() -> None:
    heading = h("Pipe Care Tips: 11 Habits and Upgrades to Prevent Leaks")
    title, el = choose_title(
        meta={"og:title": ["Pipe Care Tips: 11 Habits and Upgrades"]},
        jsonld=[],
        title_tag="Pipe Care Tips: 11 Habits and Upgrades",
        headings=[heading],
        site_name="Example Plumbing",
        url=None,
    )
    assert title == "Pipe Care Tips: 11 Habits and Upgrades to Prevent Leaks"
    assert el is heading


def test_kicker_in_its_own_span_is_trimmed_to_the_meta_title() -> None:
    heading = parse_heading(
        "<h1><span>Exclusive</span><span>Council approves the bridge</span></h1>"
    )
    title, _ = choose_title(
        meta={"og:title": ["Council approves the bridge | Gazette"]},
        jsonld=[],
        title_tag="Council approves the bridge | Gazette",
        headings=[heading],
        site_name="Gazette",
        url=None,
    )
    assert title == "Council approves the bridge"


def test_separator_lost_between_heading_spans_comes_from_the_structured_title() -> None:
    heading = parse_heading("<h1><span>Analysis</span><span>Rates rise again</span></h1>")
    title, el = choose_title(
        meta={"og:title": ["Analysis: Rates rise again"]},
        jsonld=[{"@type": "NewsArticle", "headline": "Analysis: Rates rise again"}],
        title_tag="Analysis: Rates rise again - Gazette",
        headings=[heading],
        site_name="Gazette",
        url=None,
    )
    assert title == "Analysis: Rates rise again"
    assert el is heading


def test_quote_style_alone_keeps_the_heading_as_shown() -> None:
    heading = h("Why “cheap” fixes fail")
    title, _ = choose_title(
        meta={"og:title": ['Why "cheap" fixes fail']},
        jsonld=[{"@type": "NewsArticle", "headline": 'Why "cheap" fixes fail'}],
        title_tag='Why "cheap" fixes fail',
        headings=[heading],
        site_name=None,
        url=None,
    )
    assert title == "Why “cheap” fixes fail"


def test_heading_more_sources_agree_with_beats_a_tag_leading_the_title() -> None:
    question = h("How do I back up my whole disk?")
    tag = h("Backup")
    title, el = choose_title(
        meta={"og:title": ["How do I back up my whole disk?"]},
        jsonld=[],
        title_tag="backup - How do I back up my whole disk? - Ask Example",
        headings=[question, tag],
        site_name="Ask Example",
        url=None,
    )
    assert title == "How do I back up my whole disk?"
    assert el is question


def test_split_drops_what_the_squash_regex_dropped_as_whitespace() -> None:
    # _squash relies on str.split() and "\s" agreeing on every code point.
    spaces = re.compile(r"\s")
    for c in range(0x110000):
        assert bool(spaces.fullmatch(chr(c))) == chr(c).isspace(), hex(c)


_TITLE_PIECES = (
    "Headline", " | ", "|", " - ", "-", " – ", " — ", " :: ", "::", ":", " » ", "»", " · ", " / ",
    " ~ ", " @ ", "｜", " [Site]", "[x]", "\u3000", "\xa0", "\t", "  ", "标题", "_", "A.B", "end",
)  # fmt: skip


@given(st.lists(st.sampled_from(_TITLE_PIECES), max_size=12))
@settings(max_examples=500, deadline=None)
def test_title_separators_split_as_before(pieces: list[str]) -> None:
    from newsspider.extraction.metadata.title import _SEP_RE, _squash

    title = "".join(pieces)
    before = re.compile(r"\s+(?:[|\-–—»·•/~@]|::)\s+|\s*(?:\||::|｜)\s*|\s+(?=\[[^\[\]]{1,60}\]$)")
    assert _SEP_RE.split(title) == before.split(title)
    assert _squash(title) == re.sub(r"[\s.\-]", "", title)


@given(st.text(alphabet="ab 中-_|:｜[]»·@~/–—\t", max_size=30))
@settings(max_examples=500, deadline=None)
def test_title_pieces_as_the_separator_split_gives_them(title: str) -> None:
    # `_pieces` skips the split of a title without a separator character: the same pieces.
    from newsspider.extraction.metadata import title as module

    for pattern in (module._SEP_RE, module._SEP_CJK_RE):
        split = tuple(p for p in (s.strip() for s in pattern.split(title)) if p)
        assert module._pieces(pattern, title) == split

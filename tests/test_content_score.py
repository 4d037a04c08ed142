"""The content score: verdicts on the fixture site, robustness, cost."""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.server import CANDIDATES, ROUTES, SITE_DIR

from newsspider.extraction.classify import content_score
from newsspider.extraction.classify.content_score import (
    REASONS,
    PageVerdict,
    Thresholds,
    score_page,
)
from newsspider.settings_defaults import FILTER_REASONS


def _page(path: str) -> tuple[bytes, str | None, str | None]:
    route = ROUTES[path]
    assert route.file is not None
    content_type = route.content_type
    encoding = None
    if content_type and "charset=" in content_type:
        encoding = content_type.split("charset=", 1)[1]
    return (SITE_DIR / route.file).read_bytes(), content_type, encoding


@pytest.mark.parametrize(
    ("path", "reason"),
    [(p, r) for p, r in CANDIDATES.items() if p in ROUTES and ROUTES[p].file]
    + [("/en/library-hours.html", None), ("/index.html", None), ("/page2.html", "listing")],
)
def test_fixture_pages(path: str, reason: str | None) -> None:
    verdict = score_page(*_page(path))
    assert verdict.reason == reason, verdict
    assert verdict.keep is (reason is None)


def test_reason_sets_agree() -> None:
    assert (*REASONS, "no_article") == FILTER_REASONS  # the filter adds the extractor's verdict


def test_wrong_header_charset_still_kept() -> None:
    # Decoded as UTF-8 with replacement characters, the page still has its text run.
    body, _, _ = _page("/ru/wrong-charset.html")
    assert score_page(body, "text/html; charset=utf-8", "utf-8").keep


def test_cjk_counts_three() -> None:
    chinese = "<html><body><p>" + "新闻" * 50 + "</p></body></html>"  # 100 characters
    verdict = score_page(chinese.encode("utf-8"), "text/html", "utf-8")
    assert verdict.score == 300
    assert verdict.keep


def test_thresholds_are_parameters() -> None:
    body = b"<html><body><p>" + b"word " * 30 + b"</p></body></html>"
    assert not score_page(body, "text/html").keep
    assert score_page(body, "text/html", thresholds=Thresholds(min_text=100)).keep


@pytest.mark.parametrize(
    ("body", "content_type", "reason"),
    [
        (b"", "text/html", "empty"),
        (b"   \n ", None, "empty"),
        (b"%PDF-1.7 ...", "text/html", "not_html"),
        (b"\x89PNG\r\n\x1a\n....", None, "not_html"),
        (b'{"a": 1}', "application/json", "not_html"),
        (b"plain words only", "text/plain", "not_html"),
        (b"<html><body></body></html>", "text/html", "empty"),
    ],
)
def test_degenerate_inputs(body: bytes, content_type: str | None, reason: str) -> None:
    assert score_page(body, content_type).reason == reason


def test_html_served_as_octet_stream_is_sniffed() -> None:
    body = b"<!DOCTYPE html><html><body><p>" + b"A sentence of text. " * 20 + b"</p></body></html>"
    assert score_page(body, "application/octet-stream").keep
    assert score_page(body, None).keep


def test_meta_charset_used_without_encoding() -> None:
    body, _, _ = _page("/zh/gbk-article.html")
    assert score_page(body, "text/html", None).keep


def test_strong_text_beats_links_and_title() -> None:
    nav = "".join(f'<li><a href="/s/{i}">Section number {i}</a></li>' for i in range(60))
    text = "<p>" + "A long article sentence with words. " * 40 + "</p>"
    page = f"<html><head><title>Error 404 explained</title></head><body><ul>{nav}</ul>{text}"
    verdict = score_page(page.encode(), "text/html")
    assert verdict.keep, verdict


def test_deeply_nested_markup() -> None:
    body = b"<html><body>" + b"<div>" * 100_000 + b"<p>deep</p>" + b"</div>" * 100_000
    assert isinstance(score_page(body, "text/html"), PageVerdict)


def test_cheap_on_a_large_page() -> None:
    paragraph = b"<p>" + b"Some sentence, with punctuation; and more words. " * 8 + b"</p>\n"
    links = b"".join(b'<li><a href="/x">Link text here</a></li>' for _ in range(500))
    body = b"<html><body><ul>" + links + b"</ul>" + paragraph * 400 + b"</body></html>"  # ~220 kB
    start = time.perf_counter()
    verdict = score_page(body, "text/html; charset=utf-8", "utf-8")
    elapsed = time.perf_counter() - start
    assert verdict.keep
    assert elapsed < 0.25  # a few ms in practice; generous for slow CI machines


@settings(max_examples=200, deadline=None)
@given(
    body=st.binary(max_size=2000)
    | st.text(max_size=2000).map(lambda s: s.encode("utf-8", "surrogatepass")),
    content_type=st.sampled_from([None, "text/html", "text/html; charset=gbk", "image/png", ""]),
    encoding=st.sampled_from([None, "utf-8", "gbk", "windows-1251", "no-such-codec"]),
)
def test_never_raises(body: bytes, content_type: str | None, encoding: str | None) -> None:
    verdict = score_page(body, content_type, encoding)
    assert verdict.keep is (verdict.reason is None)
    assert verdict.reason is None or verdict.reason in REASONS


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.sampled_from(["<p>", "</p>", "<a href=x>", "</a>", "<div>", "text ", "文字", "<", ">"]),
        max_size=300,
    )
)
def test_never_raises_on_tag_soup(parts: list[str]) -> None:
    verdict = score_page("".join(parts).encode(), "text/html", "utf-8")
    assert verdict.reason is None or verdict.reason in REASONS


_NAV = "".join(f'<li><a href="/s/{i}">Section {i}</a></li>' for i in range(12))
_TEASERS = "".join(
    f'<li><h3><a href="/t/{i}">Teaser headline number {i}</a></h3>'
    f"<p>A teaser sentence that sums up story {i} in a few words.</p></li>"
    for i in range(8)
)
_COMMENTS = "".join(
    f'<li><a href="/u/{i}">reader{i}</a><p>A comment of a reader, short and sharp.</p></li>'
    for i in range(6)
)


def _templated(main: str, head: str = "") -> bytes:
    return (
        f"<html><head><title>T</title>{head}</head><body><div class='cookie'>We use cookies."
        f"</div><nav><ul>{_NAV}</ul></nav><main>{main}</main><section><ul>{_TEASERS}</ul>"
        f"</section><section><ol>{_COMMENTS}</ol></section></body></html>"
    ).encode()


def test_short_article_among_teasers_and_comments_is_kept() -> None:
    story = "<p>" + "A short news item sentence. " * 12 + "</p>"  # ~280 characters
    verdict = score_page(_templated(f"<article><h1>Headline</h1>{story}</article>"), "text/html")
    assert verdict.keep, verdict


def test_thin_declared_article_is_left_to_the_pipeline() -> None:
    # A stub among teasers and comments has enough text in all: not certain, so not dropped
    # (the pipeline's confidence, which sees the extracted body, decides); never a listing or
    # a consent wall. Alone, with nothing else on the page, it is thin.
    stub = "<article><h1>Live: the harbour fire</h1><p>This live page has ended.</p></article>"
    head = '<script type="application/ld+json">{"@type": "NewsArticle"}</script>'
    assert score_page(_templated(stub, head), "text/html").keep
    alone = f"<html><head><title>T</title>{head}</head><body>{stub}</body></html>"
    assert score_page(alone.encode(), "text/html").reason == "thin"


def _split_article(sentence: str) -> str:
    # An article cut into short runs by inline "read also" links and share boxes: no run
    # reaches min_text, but most of the page's text is outside links.
    return "".join(
        f"<p>{sentence} {sentence}</p><p><a href='/r/{i}'>{sentence[:12]}</a></p>"
        f"<div><a href='/s/{i}'>share</a></div>"
        for i in range(8)
    )


@pytest.mark.parametrize(
    "sentence",
    [
        "The river rose overnight and the council opened two shelters for families.",
        "แม่น้ำเอ่อล้นในคืนที่ผ่านมาและสภาเปิดศูนย์พักพิงสองแห่งสำหรับครอบครัว",
        "Râul a crescut peste noapte, iar consiliul a deschis două adăposturi.",
        "ارتفع النهر خلال الليل وفتح المجلس ملجأين للعائلات المتضررة.",
    ],
)
def test_article_in_short_runs_is_kept_in_any_script(sentence: str) -> None:
    page = f"<html><head><title>T</title></head><body>{_split_article(sentence)}</body></html>"
    verdict = score_page(page.encode(), "text/html; charset=utf-8")
    assert verdict.keep, verdict


def test_listing_is_dropped_when_links_outweigh_the_text() -> None:
    rows = "".join(
        f"<li><a href='/t/{i}'>A headline of story number {i} on the front page</a>"
        f"<p>Two lines of summary, {i}.</p></li>"
        for i in range(30)
    )
    page = f"<html><head><title>T</title></head><body><ul>{rows}</ul></body></html>"
    assert score_page(page.encode(), "text/html").reason == "listing"


def test_text_rendered_in_noscript_is_judged_like_the_extractor_does() -> None:
    # Discourse and the like: an empty script shell, the thread inside <noscript>.
    posts = "".join(f"<p>Post {i}: " + "a reply with a few words of text. " * 8 + "</p>"
                    for i in range(6))  # fmt: skip
    shell = (
        "<html><head><title>Thread</title></head><body><div id='app'></div>"
        f"<noscript><div class='posts'>{posts}</div></noscript></body></html>"
    )
    assert score_page(shell.encode(), "text/html").keep
    tracker = "<noscript><img src='/pixel.gif'></noscript>"
    empty_shell = f"<html><head><title>T</title></head><body>{tracker}</body></html>"
    assert score_page(empty_shell.encode(), "text/html").reason == "empty"


def test_declared_article_is_never_a_listing() -> None:
    main = "".join(
        f'<p><a href="/x/{i}">The headline of linked story number {i}</a></p><p>Text {i}.</p>'
        for i in range(30)
    )
    head = '<meta content="article" property="og:type">'
    assert score_page(_templated(main), "text/html").reason == "listing"
    assert score_page(_templated(main, head), "text/html").reason != "listing"


def test_unclosed_link_does_not_swallow_the_page() -> None:
    # Links do not nest: the second <a> closes the first, so the article after them is text.
    paragraphs = "".join(f"<p>{'A sentence of article text. ' * 6}</p>" for _ in range(4))
    body = f'<html><body><a href="/a">Home<a href="/b">News</a>{paragraphs}</body></html>'
    verdict = score_page(body.encode(), "text/html", "utf-8")
    assert verdict.keep, verdict
    assert verdict.link_text == len("HomeNews")


# --- the fast block statistics against a plain reference -----------------------------------------
#
# `_block_stats` computes, with C-level passes, exactly what this token-by-token loop computes
# (the implementation before it was made faster). Any difference is a bug.

_REF_TOKEN = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]*)[^>]*>|([^<]+)|<")
_REF_COMMENT = re.compile(r"<!--.*?-->|<!\[CDATA\[.*?\]\]>", re.S)
_REF_DROP = re.compile(
    r"<(script|style|noscript|template|svg|math|title|textarea|select|iframe|object)\b[^>]*>"
    r".*?</\1\s*>",
    re.I | re.S,
)
_REF_CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]")


def _ref_weight(chunk: str) -> int:
    size = len("".join(chunk.split()))
    if size and not chunk.isascii():
        size += 2 * len(_REF_CJK.findall(chunk))
    return size


def _reference(markup: str) -> tuple[int, int, int, int, int, str]:
    """(text, link_text, link_blocks, best_run, second_run, plain text) the slow way."""
    link = False
    block_text = block_link = text = link_text = link_blocks = run = best = second = 0
    plain: list[str] = []

    def end_run() -> None:
        nonlocal run, best, second
        if run > best:
            best, second = run, best
        elif run > second:
            second = run
        run = 0

    def flush() -> None:
        nonlocal block_text, block_link, text, link_text, link_blocks, run
        if not (block_text or block_link):
            return
        text += block_text
        link_text += block_link
        if block_link > block_text:
            link_blocks += 1
            end_run()
        else:
            run += block_text
        block_text = block_link = 0

    for match in _REF_TOKEN.finditer(markup):
        chunk = match.group(3)
        if chunk is not None:
            size = _ref_weight(chunk)
            if size and link:
                block_link += size
            elif size:
                block_text += size
                if text < 5000:
                    plain.append(chunk)
            continue
        name = match.group(2)
        if name is None:
            continue
        name = name.lower()
        if name == "a":
            link = match.group(1) != "/"
        elif name in content_score._BLOCK_TAGS:
            flush()
    flush()
    end_run()
    return text, link_text, link_blocks, best, second, " ".join(plain)


def _fast(markup: str) -> tuple[int, int, int, int, int, str]:
    b = content_score._block_stats(markup)
    return b.text, b.link_text, b.link_blocks, b.best_run, b.second_run, b.plain_text()


_SOUP = st.sampled_from(
    [
        "<p>",
        "</p>",
        "<P class=x>",
        "<a href=x>",
        "</a>",
        "<A>",
        "</A >",
        "<abbr>",
        "<a-b>",
        "<div>",
        "<Li>",
        "<span>",
        "<br/>",
        "<h1x>",
        "<img alt='<p>'>",
        "<p <b>",
        "< p>",
        "</ p>",
        "<",
        ">",
        "<!DOCTYPE html>",
        "<!-- c <p> -->",
        "<![CDATA[ x ]]>",
        "<?xml?>",
        "<script>if (a<b) x='</p>'</script>",
        "<STYLE>p{}</style >",
        "<svg><p>x</p></svg>",
        "<script>",
        "<!--",
        "-->",
        "]]>",
        "<![CDATA[",
        "</script>",
        "</SCRIPT >",
        "<title>",
        "</title>",
        "<a",
        "<style",
        "text ",
        "word",
        " \n\t",
        "\xa0",
        "\u3000",
        "\u2003",
        "\x1f",
        "文字",
        "新闻。",
        "한국어",
        "ｶﾀｶﾅ",
        "caf\xe9",
        "“quoted”",
        "ſ",
        "K",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_SOUP, max_size=200))
def test_block_stats_match_the_reference(parts: list[str]) -> None:
    markup = "".join(parts)
    assert _fast(markup) == _reference(markup)
    # The linear comment and element removal find the same spans as the lazy patterns, and the
    # text after the last ">" set apart changes nothing.
    assert content_score._remove_comments(markup) == _REF_COMMENT.sub(" ", markup)
    head, tail = content_score._split_at_last_tag(markup)
    assert content_score._drop_elements(head) + tail == _REF_DROP.sub(" ", markup)
    b = content_score._visible_block_stats(markup)
    visible = (b.text, b.link_text, b.link_blocks, b.best_run, b.second_run, b.plain_text())
    assert visible == _reference(_REF_DROP.sub(" ", _REF_COMMENT.sub(" ", markup)))


@pytest.mark.parametrize("path", sorted(p for p, r in ROUTES.items() if r.file))
def test_block_stats_match_the_reference_on_fixture_pages(path: str) -> None:
    body, _, encoding = _page(path)
    markup = content_score._decode(body, encoding)
    stripped = _REF_DROP.sub(" ", _REF_COMMENT.sub(" ", markup))
    head, tail = content_score._split_at_last_tag(content_score._remove_comments(markup))
    assert content_score._drop_elements(head) + tail == stripped
    assert _fast(stripped) == _reference(stripped)
    b = content_score._visible_block_stats(markup)
    visible = (b.text, b.link_text, b.link_blocks, b.best_run, b.second_run, b.plain_text())
    assert visible == _reference(stripped)


def test_doubtful_pages_are_kept_but_not_article_shaped() -> None:
    # The site spider tells articles from listings by `article_shaped`, not by `keep`.
    story = "<p>" + "A long news item sentence for the article body. " * 12 + "</p>"
    article = score_page(_templated(f"<article><h1>Headline</h1>{story}</article>"), "text/html")
    assert article.keep and article.article_shaped
    listing = score_page(_page("/index.html")[0], "text/html")
    assert listing.keep and not listing.article_shaped

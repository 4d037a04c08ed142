"""The line methods as selectable strategies: Html2Article, max subsequence, CETR and the learned
line classifier, with the line model they share (`strategies.lines`).

On the team's fixture pages each method must find the article paragraphs; where a method's
nature lets the page furniture in (a short page whose cookie notice, comments and footer are
prose), the test says so instead of pretending otherwise.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest
from lxml import etree
from support.articles import assert_well_formed

from newsspider import ALGORITHMS, extract
from newsspider.extraction.page.cleaning import clean_tree
from newsspider.extraction.page.segments import segment_page
from newsspider.extraction.parse.parsing import parse_html
from newsspider.extraction.strategies import STRATEGIES
from newsspider.extraction.strategies import cetr as cetr_module
from newsspider.extraction.strategies import html2article as html2article_module
from newsspider.extraction.strategies import line_classifier as classifier_module
from newsspider.extraction.strategies import max_subsequence as max_subsequence_module
from newsspider.extraction.strategies.lines import Lines, build_lines

PAGES = Path(__file__).parent / "fixtures" / "pages"
LINE_METHODS = ("html2article", "max-subsequence", "cetr", "line-classifier")


def paragraphs(name: str, xpath: str) -> list[str]:
    root = etree.fromstring((PAGES / name).read_bytes(), etree.HTMLParser(encoding="utf-8"))
    found = root.xpath(xpath)
    assert isinstance(found, list)
    return [
        " ".join("".join(str(t) for t in p.itertext()).split())
        for p in found
        if isinstance(p, etree._Element)
    ]


def assert_paragraphs_in_order(body: str, expected: list[str]) -> None:
    lines = body.split("\n")
    for paragraph in expected:
        assert paragraph in lines, f"missing paragraph {paragraph[:40]!r}"
    positions = [lines.index(p) for p in expected]
    assert positions == sorted(positions)


def lines_of(html: str) -> tuple[Lines, list[str]]:
    root = parse_html(html)
    assert root is not None
    clean_tree(root)
    page = segment_page(root)
    return build_lines(root, page), [s.text for s in page.segments]


# --- registry -------------------------------------------------------------------------------


def test_line_methods_are_registered_in_documented_order() -> None:
    names = [name for name in STRATEGIES if name in LINE_METHODS]
    assert names == list(LINE_METHODS)
    assert all(name in ALGORITHMS for name in LINE_METHODS)


# --- fixture pages --------------------------------------------------------------------------

ZH_PARAGRAPHS = paragraphs("zh_news.html", "//div[@class='article-content']/p")
EN_PARAGRAPHS = paragraphs("en_news.html", "//div[@class='story-body']/p")
ZH_FURNITURE = ("时政要闻", "社会民生", "财经观察", "版权所有", "备案号", "联系我们")
EN_NAV = ("Local News", "Business Desk", "Weather Watch", "Obituaries Archive")
EN_FOOTER = ("All rights reserved", "Registered office", "Terms of use")


@pytest.mark.parametrize("algorithm", LINE_METHODS)
def test_zh_article_paragraphs_without_nav_or_footer(algorithm: str) -> None:
    article = assert_well_formed(
        extract((PAGES / "zh_news.html").read_bytes(), algorithm=algorithm)
    )
    assert len(ZH_PARAGRAPHS) == 5
    assert_paragraphs_in_order(article.body, ZH_PARAGRAPHS)
    for text in ZH_FURNITURE:
        assert text not in article.body
    assert "山区小学开通远程音乐课" not in article.body.split("\n")  # the h1 is the title


@pytest.mark.parametrize("algorithm", LINE_METHODS)
def test_en_article_paragraphs_found(algorithm: str) -> None:
    article = assert_well_formed(
        extract((PAGES / "en_news.html").read_bytes(), algorithm=algorithm)
    )
    assert len(EN_PARAGRAPHS) == 6
    assert_paragraphs_in_order(article.body, EN_PARAGRAPHS)
    assert "Funding still uncertain" in article.body.split("\n")
    # Figure captions go to the HTML, not the running text.
    assert "Sandbags stacked outside" not in article.body
    assert "Sandbags stacked outside" in article.body_html


@pytest.mark.parametrize("algorithm", ["cetr", "line-classifier"])
def test_en_ratio_methods_leave_out_nav_and_footer(algorithm: str) -> None:
    body = extract((PAGES / "en_news.html").read_bytes(), algorithm=algorithm).body
    for text in (*EN_NAV, *EN_FOOTER):
        assert text not in body


def test_en_html2article_region_starts_after_the_nav() -> None:
    # Its region runs on through comments and footer: on this short page they are prose
    # blocks, and no two blocks in a row fall to 20 characters before the page ends.
    body = extract((PAGES / "en_news.html").read_bytes(), algorithm="html2article").body
    for text in EN_NAV:
        assert text not in body
    assert body.startswith("By Maria Lindqvist")


def test_en_max_subsequence_is_one_contiguous_run() -> None:
    # The cookie notice, the comments and the footer are each worth more than the few link
    # lines around them cost, so on this short page the best run spans the page: the method's
    # known weakness, kept as published. What must hold is that it is one run, in order.
    html = (PAGES / "en_news.html").read_text(encoding="utf-8")
    lines, texts = lines_of(html)
    _, first, last = max_subsequence_module.best_run(max_subsequence_module.line_values(lines))
    body = extract(html, algorithm="max-subsequence").body
    kept = [t for t in texts[first : last + 1] if t in body]
    assert body.split("\n")[0] == kept[0]
    assert first <= 1
    assert all(paragraph in texts[first : last + 1] for paragraph in EN_PARAGRAPHS)


def _portal_page() -> str:
    """A page with the furniture of a portal: long menus, teaser lists and a link footer."""
    menu = "".join(f'<li><a href="/s{i}">Section {i}</a></li>' for i in range(40))
    teasers = "".join(
        f'<li><a href="/story/{i}"><img src="/t{i}.jpg">Another story number {i}</a></li>'
        for i in range(15)
    )
    footer = "".join(f'<li><a href="/f{i}">Footer link {i}</a></li>' for i in range(30))
    body = "".join(
        f"<p>Paragraph {i} of the article tells, in a sentence long enough to be read as "
        f"prose by every method, what happened at the harbour on day {i}.</p>"
        for i in range(10)
    )
    return (
        f"<html><head><title>Portal</title></head><body>"
        f"<div class='header'><div class='menu'><ul>{menu}</ul></div></div>"
        f"<div class='main'><div class='col'><h1>Harbour story</h1>"
        f"<div class='text'>{body}</div></div>"
        f"<div class='more'><ul>{teasers}</ul></div></div>"
        f"<div class='footer'><ul>{footer}</ul><p>Copyright Portal Media</p></div>"
        f"</body></html>"
    )


@pytest.mark.parametrize("algorithm", LINE_METHODS)
def test_portal_page_body_leaves_out_menu_and_footer(algorithm: str) -> None:
    article = assert_well_formed(extract(_portal_page(), algorithm=algorithm))
    lines = article.body.split("\n")
    paragraphs = [line for line in lines if line.startswith("Paragraph ")]
    assert [p.split(" ")[1] for p in paragraphs] == [str(i) for i in range(10)]
    assert "Harbour story" not in lines  # the h1 is the title
    for text in ("Section 1", "Footer link", "Copyright Portal Media"):
        assert text not in article.body


def test_portal_page_teasers() -> None:
    # The list of linked teasers right after the article: the classifier leaves it out, CETR's
    # smoothing lets at most the first item ride with the last paragraph. Html2Article's region
    # only ends at an (almost) empty stretch and max subsequence pays 50 per thumbnail, so both
    # take the teasers in: the published methods' behaviour, see docs/algorithms/.
    def teasers(algorithm: str) -> int:
        body = extract(_portal_page(), algorithm=algorithm).body
        return sum(line.startswith("Another story") for line in body.split("\n"))

    assert teasers("line-classifier") == 0
    assert teasers("cetr") <= 1
    assert teasers("max-subsequence") == 15


# --- the line model -------------------------------------------------------------------------


def test_line_model_counts_markup_and_link_pieces() -> None:
    lines, texts = lines_of(
        '<html><body><p>Hello <a href="/x">world</a></p>'
        '<div class="a"><div><p>Second <img src="i.png"> line</p></div></div></body></html>'
    )
    assert texts == ["Hello world", "Second line"]
    assert lines.aligned
    assert lines.chars == [11, 11]
    assert lines.link_chars == [5, 0]
    # Line 0: <html> <body> <p> before it, <a href="/x"> and </a> inside.
    assert lines.boundary[0] == 3
    assert lines.tags[0] == 5
    assert lines.tag_chars[0] == len("<html><body><p>") + len('<a href="/x">') + len("</a>")
    # Line 1: </p> <div class="a"> <div> <p> before it, <img> (void) inside.
    assert lines.boundary[1] == 4
    assert lines.tags[1] == 5
    assert lines.images == [0, 1]
    assert lines.blank_lines_before(1) == 2
    # Html2Article's source lines break after </a>: "Hello world" and an empty remainder.
    assert lines.pieces == [(11, 0), (11,)]


def test_line_model_skips_hidden_inline_text_like_the_segment_walk() -> None:
    lines, texts = lines_of(
        "<html><body><p>Seen <span style='display: none'>hidden <b>x</b></span>text</p>"
        "<p>Next</p></body></html>"
    )
    assert texts == ["Seen text", "Next"]
    assert lines.aligned
    assert len(lines) == 2


def test_line_model_follows_every_fixture_segment() -> None:
    for path in sorted(PAGES.glob("*.html")):
        root = parse_html(path.read_bytes())
        assert root is not None
        clean_tree(root)
        page = segment_page(root)
        lines = build_lines(root, page)
        assert lines.aligned, path.name
        assert len(lines) == len(page.segments)


def test_line_model_falls_back_to_estimates_when_the_walks_disagree() -> None:
    root = parse_html("<html><body><p>one</p><p>two</p><p>three</p></body></html>")
    other = parse_html("<html><body><p>only one line here</p></body></html>")
    assert root is not None
    assert other is not None
    page = segment_page(root)
    lines = build_lines(other, page)  # a tree that is not the segments' tree
    assert not lines.aligned
    assert len(lines) == len(page.segments) == 3
    assert all(tags >= 2 for tags in lines.tags)
    assert lines.pieces == [(3,), (3,), (5,)]


# --- method internals -----------------------------------------------------------------------


def test_best_run_is_the_maximum_sum_run() -> None:
    values = [-8, 100, -8, -8, 50, -200, 120, -8]
    assert max_subsequence_module.best_run(values) == (134, 1, 4)
    assert max_subsequence_module.best_run([-1, -2]) == (0, -1, -1)
    assert max_subsequence_module.best_run(values, 5) == (120, 6, 6)


def test_html2article_takes_the_region_with_most_characters() -> None:
    small = "".join(f"<p>{'x' * 40} {i}</p>" for i in range(6))
    big = "".join(f"<p>{'y' * 90} {i}</p>" for i in range(8))
    gap = "<div><div><div><div><div><div><div><div>" + "</div>" * 8
    lines, texts = lines_of(f"<html><body>{small}{gap}{gap}{big}{gap}</body></html>")
    regions = html2article_module.content_regions(lines)
    assert len(regions) == 2
    chosen = max(regions, key=lambda region: region[0])[1]
    assert all(texts[i].startswith("y") for i in chosen)
    assert len(chosen) == 8


def test_cetr_threshold_keeps_prose_drops_links() -> None:
    links = "".join(f'<li><a href="/l{i}">Link {i}</a></li>' for i in range(20))
    prose = "".join(f"<p>{'Plain prose sentence here. ' * 8}{i}</p>" for i in range(6))
    lines, texts = lines_of(f"<html><body><ul>{links}</ul>{prose}<ul>{links}</ul></body></html>")
    kept = cetr_module.content_lines(lines)
    prose_ids = [i for i, t in enumerate(texts) if t.startswith("Plain")]
    assert set(prose_ids) <= set(kept)
    # Smoothing may carry a link line right next to the prose, never one further away.
    spill = [i for i in kept if i not in prose_ids]
    assert all(min(abs(i - j) for j in prose_ids) <= cetr_module.RADIUS for i in spill)
    assert len(spill) < 4


# --- the shipped weights --------------------------------------------------------------------


def test_weights_file_loads_with_the_right_shapes() -> None:
    raw = json.loads(
        resources.files("newsspider.extraction.strategies")
        .joinpath(classifier_module.WEIGHTS_FILE)
        .read_text(encoding="utf-8")
    )
    assert raw["features"] == list(classifier_module.FEATURES)
    hidden = raw["hidden"]
    assert hidden >= 1
    assert len(raw["w1"]) == hidden
    assert all(len(row) == 7 for row in raw["w1"])
    assert len(raw["b1"]) == hidden
    assert len(raw["w2"]) == hidden
    assert isinstance(raw["b2"], float)
    assert set(raw["training"]["corpora"]) == {"scrapinghub_aeb", "magichtml_article"}
    model = classifier_module.load_model()
    assert len(model.w1) == hidden
    # Plausible behaviour: a long line with little markup between prose lines is content, a
    # short all-markup line between link lines is not.
    assert model.probability([0.05, 0.9, 0.05, 0.9, 0.05, 0.9, 0.5]) > 0.5
    assert model.probability([0.9, 0.2, 0.9, 0.2, 0.9, 0.2, 0.05]) < 0.5


def test_model_rejects_wrong_shapes() -> None:
    with pytest.raises(ValueError):
        classifier_module.LineModel.from_json(
            {"w1": [[0.0] * 6], "b1": [0.0], "w2": [0.0], "b2": 0.0}
        )
    with pytest.raises(ValueError):
        classifier_module.LineModel.from_json({"w1": [[0.0] * 7], "b1": [], "w2": [0.0], "b2": 0.0})


def test_line_features_are_normalised() -> None:
    lines, _ = lines_of(_portal_page())
    rows = classifier_module.line_features(lines)
    assert len(rows) == len(lines)
    assert all(len(row) == 7 and all(0.0 <= v <= 1.0 for v in row) for row in rows)
    assert rows[0][2:4] == [1.0, 0.0]  # no previous line: pure markup
    assert rows[-1][4:6] == [1.0, 0.0]
    assert rows[0][6] == 0.0
    assert rows[-1][6] == 1.0


# --- pathological input ---------------------------------------------------------------------

PATHOLOGICAL: dict[str, str | bytes] = {
    "empty": "",
    "empty-bytes": b"",
    "whitespace": "   \n\t ",
    "garbage": bytes(range(256)) * 8,
    "text-only": "just some words without any markup at all",
    "no-text": "<html><body>" + "<div><img src='a.png'></div>" * 50 + "</body></html>",
    "deep": "<html><body>" + "<div>" * 100_000 + "deep text" + "</div>" * 100_000 + "</body>",
    "deep-with-text": "<html><body>" + "<div>level text " * 100_000 + "</body>",
    "deep-inline": "<p>" + "<span>" * 50_000 + "x" + "</span>" * 50_000 + "</p>",
    "links-only": "<ul>" + "<li><a href='/x'>link</a></li>" * 500 + "</ul>",
    "one-huge-line": "<p>" + "word " * 200_000 + "</p>",
    "unclosed": "<html><body><p>open <b>bold <i>italic <a href=x>link",
}


@pytest.mark.parametrize("algorithm", LINE_METHODS)
@pytest.mark.parametrize("name", list(PATHOLOGICAL))
def test_pathological_pages_give_well_formed_articles(algorithm: str, name: str) -> None:
    article = assert_well_formed(extract(PATHOLOGICAL[name], algorithm=algorithm))
    assert "internal-error" not in article.warnings

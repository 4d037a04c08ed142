"""The explain view: the explanation as data, the HTML report, the CLI and the crawl setting."""

from __future__ import annotations

import dataclasses
import json
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest
from support.services import missing_service

from newsspider import Article, cli, explain, extract
from newsspider.explain_report import confidence_kind, render_report
from newsspider.extraction.classify.content_score import Thresholds
from newsspider.extraction.explain import REASONS, Explanation
from newsspider.extraction.page_judgement import judge_page
from newsspider.settings_defaults import DEFAULTS, MIN_CONFIDENCE

PAGES = Path(__file__).parent / "fixtures" / "pages"
NEWS = PAGES / "en_news.html"
LISTING = PAGES / "en_listing.html"


def _explain(
    path: Path, url: str = "https://example.com/news/story"
) -> tuple[Article, Explanation]:
    return explain(path.read_bytes(), url=url)


def test_article_is_exactly_what_extract_returns() -> None:
    for path in sorted(PAGES.glob("*.html")):
        data = path.read_bytes()
        article, _ = explain(data, url="https://example.com/a")
        assert article == extract(data, url="https://example.com/a"), path.name


def test_body_blocks_are_the_body_and_every_other_block_has_a_reason() -> None:
    article, explanation = _explain(NEWS)
    body_blocks = [b for b in explanation.blocks if b.in_body]
    assert body_blocks, "the news fixture has a body"
    # The body's blocks, in reading order, are the body's text.
    assert "\n".join(b.text for b in body_blocks) == article.body
    indexes = [b.index for b in explanation.blocks]
    assert indexes == sorted(indexes)
    for block in explanation.blocks:
        if block.in_body:
            assert block.reason is None
        else:
            assert block.reason in REASONS and block.detail, block


def test_reasons_name_the_furniture_word_and_where_it_came_from() -> None:
    _, explanation = _explain(NEWS)
    by_text = {b.text: b for b in explanation.blocks}
    related = next(b for t, b in by_text.items() if t.startswith("Lifeboat crew"))
    assert related.reason == "furniture"
    assert related.detail is not None and '"related"' in related.detail
    assert "section.related-stories" in related.detail  # the enclosing block that carries it
    nav = by_text["Local News"]
    assert nav.reason == "furniture" and nav.detail is not None and "<nav>" in nav.detail
    caption = next(b for b in explanation.blocks if b.tag == "figcaption")
    assert caption.reason == "caption" and not caption.in_body
    headline = next(b for b in explanation.blocks if b.tag == "h1")
    assert headline.reason == "headline"


def test_a_listing_is_explained_as_page_content_not_an_article() -> None:
    article, explanation = _explain(LISTING)
    # No article on the page: the body is the listing itself, and the report says so.
    assert explanation.container is not None
    assert explanation.container.method == "page-content"
    headlines = [b for b in explanation.blocks if b.tag in {"h2", "h3"} and b.in_body]
    assert len(headlines) >= 6
    assert "no-article" in article.warnings and article.page_type == "listing"
    assert explanation.content_filter["keep"] is False  # the filter drops it all the same


def test_content_filter_section_is_the_crawl_filters_decision() -> None:
    # The same decision `judge_page` makes in a crawl, at the same threshold, from this extraction.
    for path in sorted(PAGES.glob("*.html")):
        data = path.read_bytes()
        for min_presence in (0.07, 0.9):
            _, explanation = explain(data, url="https://example.com/a", min_presence=min_presence)
            judged = judge_page(
                data, "https://example.com/a", "text/html", None,
                thresholds=Thresholds(), min_presence=min_presence,
            )  # fmt: skip
            verdict = explanation.content_filter
            assert (verdict["keep"], verdict["reason"]) == (judged.keep, judged.reason), path.name
            assert verdict["min_presence"] == min_presence
            assert verdict["text_statistics"] == judged.verdict.to_dict()
    _, news = _explain(NEWS)
    assert news.content_filter["keep"] is True and news.content_filter["presence"] > 0.5


def test_container_metadata_confidence_and_page_type() -> None:
    article, explanation = _explain(NEWS)
    container = explanation.container
    assert container is not None and container.path.startswith("div.story-body")
    assert container.score > container.runner_up_score >= 0
    sources = {m.field: m for m in explanation.metadata}
    assert sources["title"].value == article.title
    assert sources["title"].source is not None
    chosen = [c for c in sources["title"].candidates if c.chosen]
    assert len(chosen) == 1 and len(sources["title"].candidates) > 1  # the losers are listed
    assert sources["date"].source == "JSON-LD datePublished"
    confidence = explanation.confidence
    assert confidence is not None
    assert confidence.confidence == article.confidence
    # The contributions add up to the models' probabilities.
    import math

    logit = confidence.presence_intercept + sum(f.presence for f in confidence.features)
    assert abs(1 / (1 + math.exp(-logit)) - confidence.presence) < 1e-3
    assert explanation.page_type.page_type == "article"
    assert explanation.page_type.evidence["paragraphs"] >= 3


def test_trimmed_edge_lines_say_which_test_they_met() -> None:
    sentence = "Crews worked through the night to clear trees and restore power, officials said. "
    page = (
        '<html lang="en"><head><title>Storm hits the coast | Daily</title></head><body>'
        '<article class="post"><h2>Storm hits the coast</h2><p>12 May 2024 10:31</p>'
        + f"<p>{sentence * 2}</p>" * 3
        + "<p>Share</p></article></body></html>"
    )
    article, explanation = explain(page)
    trimmed = {b.text: b.detail or "" for b in explanation.blocks if b.reason == "trimmed-edge"}
    assert "repeats the headline" in trimmed["Storm hits the coast"]
    assert "dateline" in trimmed["12 May 2024 10:31"]
    assert "widget" in trimmed["Share"]
    assert "Share" not in article.body


def test_json_round_trips() -> None:
    for path in (NEWS, LISTING, PAGES / "zh_news.html", PAGES / "en_404.html"):
        _, explanation = _explain(path)
        text = explanation.to_json()
        assert Explanation.from_dict(json.loads(text)) == explanation
        assert json.loads(text)["blocks"][0]["index"] == 0


def test_pages_without_text_still_explain() -> None:
    for data in (b"", b"\x89PNG\r\n\x1a\n" + bytes(200), b"<html><body></body></html>"):
        article, explanation = explain(data)
        assert explanation.blocks == () and explanation.container is None
        assert article.page_type in ("empty", "not_html")
        Explanation.from_dict(json.loads(explanation.to_json()))
        assert "<html" in render_report(article, explanation)


def test_report_highlights_the_body_and_shows_reasons() -> None:
    article, explanation = _explain(NEWS)
    report = render_report(article, explanation)
    first_paragraph = next(b for b in explanation.blocks if b.in_body).text
    body_start = report.index('<div class="block body">')
    assert first_paragraph[:40] in report[body_start : body_start + 2000]
    assert '<span class="reason">furniture</span>' in report
    assert "section.related-stories" in report
    assert "div.story-body" in report and "runner-up" in report
    # Self-contained: no scripts, nothing loaded from elsewhere.
    lowered = report.lower()
    assert "<script" not in lowered and "src=" not in lowered and "<link" not in lowered
    assert "@import" not in lowered and "url(" not in lowered


def _confidence_chip(report: str) -> str:
    start = report.index('<div class="chips">')
    chip_start = report.index(">confidence ", start)
    return report[report.rindex("<span", start, chip_start) : chip_start]


def test_report_colours_confidence_by_the_drop_threshold() -> None:
    article, explanation = _explain(NEWS)
    default = DEFAULTS[MIN_CONFIDENCE]
    just_above = dataclasses.replace(article, confidence=default + 0.01)
    just_below = dataclasses.replace(article, confidence=default - 0.01)
    # Kept by the pipeline's default threshold: not "bad"; dropped by it: "bad".
    assert 'class="mid"' in _confidence_chip(render_report(just_above, explanation))
    assert 'class="bad"' in _confidence_chip(render_report(just_below, explanation))
    # A crawl with a stricter threshold: the same article is one it drops.
    stricter = render_report(just_above, explanation, min_confidence=default + 0.05)
    assert 'class="bad"' in _confidence_chip(stricter)
    assert confidence_kind(0.9) == "good"
    assert confidence_kind(0.65, min_confidence=0.7) == "bad"
    assert confidence_kind(0.75, min_confidence=0.7) == "good"


def test_report_escapes_page_text() -> None:
    page = (
        "<html><body><article><p>"
        + "A &lt;script&gt;alert(1)&lt;/script&gt; sentence that goes on. " * 10
        + "</p></article></body></html>"
    )
    article, explanation = explain(page)
    assert "<script>" not in render_report(article, explanation)


def test_cli_writes_report_and_prints_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report.html"
    assert cli.main(["explain", str(NEWS), "-o", str(out), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert any(b["in_body"] for b in data["blocks"])
    assert '<div class="block body">' in out.read_text(encoding="utf-8")
    assert cli.main(["explain", str(NEWS)]) == 0
    summary = capsys.readouterr().out
    assert "container div.story-body" in summary and "BODY" in summary
    assert cli.main(["explain", str(tmp_path / "missing.html")]) == 1


def test_cli_report_marks_the_threshold_given(tmp_path: Path) -> None:
    article, _ = _explain(NEWS)
    out = tmp_path / "report.html"
    above = f"{article.confidence - 0.01:.3f}"
    assert cli.main(["explain", str(NEWS), "-o", str(out), "--min-confidence", above]) == 0
    assert 'class="bad"' not in _confidence_chip(out.read_text(encoding="utf-8"))
    below = f"{min(article.confidence + 0.01, 1.0):.3f}"
    assert cli.main(["explain", str(NEWS), "-o", str(out), "--min-confidence", below]) == 0
    assert 'class="bad"' in _confidence_chip(out.read_text(encoding="utf-8"))
    assert cli.main(["explain", str(NEWS), "--min-confidence", "2"]) == 2


def test_crawl_writes_bounded_reports_for_low_confidence_pages(tmp_path: Path) -> None:
    from test_scrapy_pipeline import LISTING_PAGE, make, process

    from newsspider.items import PageItem

    folder = tmp_path / "explain"
    pipeline = make(NEWSSPIDER_EXPLAIN_DIR=str(folder), NEWSSPIDER_EXPLAIN_MAX=2)
    pages = [PageItem(url=f"http://a.example/list{i}", body=LISTING.read_bytes()) for i in range(3)]
    for page in [LISTING_PAGE, *pages]:
        with pytest.raises(Exception, match="Low confidence"):
            process(pipeline, page)
    reports = sorted(folder.glob("*.html"))
    assert len(reports) == 2  # the bound
    assert pipeline.stats.values["newsspider/pipeline/explain_report_count"] == 2
    assert all("<!DOCTYPE html>" in r.read_text(encoding="utf-8") for r in reports)
    # Off by default: no folder, no reports.
    quiet = make()
    assert quiet.config.explain_dir is None


# --- the report as a picture ------------------------------------------------------------------


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


def _png_pixels(data: bytes) -> tuple[int, int, int, bytes]:
    """(width, height, channels, raw pixel bytes) of an 8-bit RGB/RGBA PNG: the few lines of
    PNG decoding this test needs, instead of an image library in the test dependencies."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    height = channels = 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and color in (2, 6), (depth, color)
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    out = bytearray()
    previous = bytearray(stride)
    for row in range(height):
        start = row * (stride + 1)
        method, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            if method == 1:
                line[i] = (line[i] + left) & 255
            elif method == 2:
                line[i] = (line[i] + up) & 255
            elif method == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif method == 4:
                corner = previous[i - channels] if i >= channels else 0
                guess = left + up - corner
                pa, pb, pc = abs(guess - left), abs(guess - up), abs(guess - corner)
                best = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + best) & 255
        out += line
        previous = line
    return width, height, channels, bytes(out)


def render_png(report: Path, png: Path, width: int = 1000, height: int = 1300) -> None:
    browser = _chromium()
    assert browser is not None
    subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         f"--window-size={width},{height}", f"--screenshot={png}", report.as_uri()],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip


def test_report_renders_in_headless_chromium(tmp_path: Path) -> None:
    if _chromium() is None:
        missing_service("chromium is not installed (apt-get install -y chromium)")
    article, explanation = _explain(NEWS)
    report = tmp_path / "report.html"
    report.write_text(render_report(article, explanation), encoding="utf-8")
    png = tmp_path / "report.png"
    render_png(report, png, 900, 1400)
    width, height, channels, pixels = _png_pixels(png.read_bytes())
    assert (width, height) == (900, 1400)
    grey = [sum(pixels[i : i + 3]) // 3 for i in range(0, len(pixels), channels * 7)]
    mean = sum(grey) / len(grey)
    variance = sum((g - mean) ** 2 for g in grey) / len(grey)
    assert variance > 200, f"the screenshot looks blank (variance {variance:.0f})"
    colours = {pixels[i : i + 3] for i in range(0, len(pixels), channels)}
    # The body's highlight (#dff5e6) and the header (#1d2b3a) are drawn.
    assert bytes((0xDF, 0xF5, 0xE6)) in colours
    assert bytes((0x1D, 0x2B, 0x3A)) in colours


def test_lines_left_out_of_a_thread_say_why() -> None:
    """In a thread, a line inside a post has its own reason; only what lies outside every post
    is "not-a-post"."""

    def widget(html: str) -> str:
        return (
            '<div class="bw-section"><div class="bw-column"><div class="bw-element">'
            f'<div class="bw-widget"><div class="bw-text">{html}</div></div></div></div></div>'
        )

    paragraphs = [
        "The council voted on Tuesday to extend the tram line by four kilometres, a decision "
        "that residents of the northern districts had campaigned for since the last election.",
        "Construction is due to start in the spring and to last about three years, the city's "
        "transport office said, with most of the work done at night to spare the traffic.",
        "Shopkeepers along the route asked for compensation for the months of disruption, and "
        "the council promised a fund, though it did not say how large it would be.",
        "Opponents argued that buses would have served the same districts at a fraction of the "
        "cost, and said they would take the decision to the regional court.",
    ]
    share = '<div class="share-bar">Share this story with your neighbours</div>'
    teasers = "".join(
        f'<div class="card"><h3><a href="/story/{i}">Story number {i} about the harbour '
        "front and its ferries</a></h3></div>"
        for i in range(4)
    )
    page = (
        "<html><body><h1>Tram line to be extended</h1>"
        + widget(f"<p>{paragraphs[0]}</p>{share}")
        + "".join(widget(f"<p>{text}</p>") for text in paragraphs[1:])
        + widget("<h2>More from the harbour desk</h2>" + teasers)
        + "</body></html>"
    )
    _, explanation = explain(page.encode(), url="https://example.com/news/tram")
    assert explanation.container is not None and explanation.container.method == "thread"
    by_text = {b.text: b for b in explanation.blocks}
    assert all(by_text[text].in_body for text in paragraphs)
    assert by_text["More from the harbour desk"].reason == "heading-without-text"
    shared = by_text["Share this story with your neighbours"]
    assert shared.reason == "furniture" and shared.detail and "share" in shared.detail
    teaser = next(b for t, b in by_text.items() if t.startswith("Story number 0"))
    assert teaser.reason == "link-density"
    assert {b.reason for b in explanation.blocks} <= {None, *REASONS}

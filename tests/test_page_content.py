"""A page without an article: its body is the page's own content, flagged as such."""

from __future__ import annotations

from pathlib import Path

import pytest

from newsspider.extraction import api, extract
from newsspider.extraction.body.page_content import content_selection
from newsspider.extraction.classify.confidence import DROP_THRESHOLD
from newsspider.extraction.classify.content_score import Thresholds
from newsspider.extraction.page_judgement import judge_page
from newsspider.extraction.stages import StageRecord
from newsspider.settings_defaults import DEFAULTS, MIN_CONFIDENCE

SITE = Path(__file__).parent / "fixtures" / "site"

_JOB_ROWS = "".join(
    f'<tr><td class="rank">{n}.</td><td class="title"><a href="/item/{n}">Company {n} is hiring '
    f"an engineer for its data team in city {n}</a></td></tr>"
    f'<tr><td></td><td class="sub"><span class="age">{n} days ago</span></td></tr>'
    for n in range(1, 31)
)
JOB_BOARD = f"""<!DOCTYPE html><html lang="en"><head><title>Jobs | Board</title></head><body>
<table id="nav"><tr><td><a href="/">Board</a> <a href="/new">new</a> | <a href="/jobs">jobs</a>
| <a href="/submit">submit</a></td></tr></table>
<table class="items">{_JOB_ROWS}</table>
<footer><a href="/about">About</a> <a href="/legal">Legal</a></footer>
</body></html>"""


def test_a_job_board_body_is_its_listing_and_says_so() -> None:
    article = extract(JOB_BOARD, url="https://board.example/jobs")
    # Every item of the listing, link text included: the page's content.
    for n in (1, 15, 30):
        assert f"Company {n} is hiring an engineer" in article.body
    assert "submit" not in article.body and "Legal" not in article.body  # its furniture
    assert "no-article" in article.warnings
    assert article.page_type in {"listing", "other"}
    # Still not an article: the confidence is the article confidence, below the crawl's line.
    assert article.confidence < DROP_THRESHOLD


def test_a_teaser_page_body_keeps_headlines_but_not_its_title_or_navigation() -> None:
    article = extract((SITE / "en" / "world.html").read_bytes(), url="https://x.example/world")
    assert article.page_type == "listing" and "no-article" in article.warnings
    assert "Harbour city votes to ban cars from its old town" in article.body
    assert "Glacier retreat measured from space" in article.body
    assert "World news" not in article.body.splitlines()  # the h1 is the title field
    assert "Sport" not in article.body and "© 2024" not in article.body


def test_an_article_page_is_untouched() -> None:
    for name in ("rain-garden.html", "storm.html", "council-budget.html"):
        article = extract((SITE / "en" / name).read_bytes(), url=f"https://x.example/{name}")
        assert article.page_type == "article"
        assert "no-article" not in article.warnings


def test_error_and_login_pages_keep_their_own_words() -> None:
    for name, page_type in (("old-story.html", "error"), ("premium.html", "login")):
        article = extract((SITE / "en" / name).read_bytes(), url=f"https://x.example/{name}")
        if article.page_type == page_type:
            assert "no-article" not in article.warnings


def test_the_selection_skips_furniture_captions_and_the_headline() -> None:
    record = StageRecord()
    extract(JOB_BOARD, url="https://board.example/jobs", record=record)
    assert record.page is not None and record.choice is not None
    selection = content_selection(record.page, record.choice)
    tags = {record.page.segment_tags[i] for i in selection.segment_ids}
    assert "h1" not in tags
    texts = [record.page.segment(i).text for i in selection.segment_ids]
    assert not any("About" in t for t in texts)
    assert record.page_content


def test_one_line_for_the_pipeline_and_the_extractor() -> None:
    # A page-content body is always one the pipeline drops by default.
    assert DEFAULTS[MIN_CONFIDENCE] == DROP_THRESHOLD


def test_the_filter_drops_a_page_without_an_article_like_body_at_any_threshold() -> None:
    # The world page's article mode finds nothing: its presence is 0 whatever body it returns,
    # a drop outside the presence threshold's budget (as its "empty" type was).
    body = (SITE / "en" / "world.html").read_bytes()
    judgement = judge_page(
        body,
        "https://x.example/world",
        "text/html",
        "utf-8",
        thresholds=Thresholds(),
        min_presence=1e-9,
    )
    assert not judgement.keep and judgement.reason == "no_article"
    assert judgement.presence == 0.0
    assert judgement.article is not None and "Glacier retreat" in judgement.article.body


@pytest.mark.spies_on_core
def test_a_thread_is_content_already_whatever_its_confidence(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every body under the drop line: a page typed listing would get its page content, but a
    # forum thread's posts are the page's content already and stay the body.
    from test_threads import POSTS, _phpbb

    monkeypatch.setattr(api, "DROP_THRESHOLD", 2.0)
    monkeypatch.setattr(api, "classify_page", lambda *args: "listing")
    record = StageRecord()
    article = extract(_phpbb(POSTS), url="https://forum.example/t/1", record=record)
    assert record.thread and not record.page_content
    assert "no-article" not in article.warnings
    for post in POSTS:
        assert post in article.body

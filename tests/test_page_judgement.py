"""`judge_page`: the content filter's judgement, text statistics first, then the extractor."""

from __future__ import annotations

from typing import Any

import pytest
from support import fakes
from support.server import CANDIDATES, ROUTES, SITE_DIR

from newsspider.extraction.api import extract
from newsspider.extraction.classify.content_score import Thresholds
from newsspider.extraction.page_judgement import CERTAIN_REASONS, judge_page
from newsspider.extraction.parse.decoding import usable_encoding
from newsspider.settings_defaults import (
    CONTENT_FILTER_MIN_PRESENCE,
    DEFAULTS,
    FILTER_REASONS,
    MIN_CONFIDENCE,
)

MIN_PRESENCE = float(DEFAULTS[CONTENT_FILTER_MIN_PRESENCE])
FIXTURES = [(path, ROUTES[path]) for path in CANDIDATES if ROUTES[path].file]


def judge(body: bytes, content_type: str | None = "text/html", **kwargs: Any) -> Any:
    return judge_page(
        body,
        "http://a.example/p",
        content_type,
        "utf-8",
        thresholds=Thresholds(),
        min_presence=kwargs.pop("min_presence", MIN_PRESENCE),
        **kwargs,
    )


@pytest.mark.parametrize(("path", "route"), FIXTURES)
def test_filter_never_drops_what_the_pipeline_keeps(path: str, route: Any) -> None:
    """Agreement by construction: a page dropped after extraction has a confidence under the
    pipeline's default threshold (its P(present) bounds it, or its page type caps it)."""
    body = (SITE_DIR / str(route.file)).read_bytes()
    encoding = (route.content_type or "").partition("charset=")[2] or None
    judgement = judge_page(
        body, f"http://a.example{path}", route.content_type, encoding,
        thresholds=Thresholds(), min_presence=MIN_PRESENCE,
    )  # fmt: skip
    assert judgement.reason is None or judgement.reason in FILTER_REASONS
    if judgement.article is None:
        assert judgement.reason in CERTAIN_REASONS
        return
    pipeline_keeps = judgement.article.confidence >= float(DEFAULTS[MIN_CONFIDENCE])
    if not judgement.keep:
        assert not pipeline_keeps, path
    if CANDIDATES[path] is None:  # the fixture site's articles
        assert judgement.keep and judgement.article.page_type == "article", path


def test_certain_cases_skip_extraction() -> None:
    fakes.CALLS.clear()
    for body, content_type in (
        (b"%PDF-1.7 binary", "application/pdf"),
        (b"<html><body><script>render()</script></body></html>", "text/html"),
    ):
        judgement = judge(body, content_type, extract_function=fakes.extract)
        assert not judgement.keep and judgement.article is None
        assert judgement.reason in CERTAIN_REASONS
    assert fakes.CALLS == []


def test_threshold_decides_between_keep_and_no_article() -> None:
    body = (
        b"<html><body><h1>Video: the rowing race</h1><p>Watch the highlights of the race.</p>"
        b"</body></html>"
    )
    judged = judge(body)
    assert judged.presence is not None and judged.article is not None
    below = judge(body, min_presence=judged.presence + 1e-6)
    above = judge(body, min_presence=max(0.0, judged.presence - 1e-6))
    assert not below.keep and below.reason == "no_article"
    # Above the threshold the page type decides (`NEWSSPIDER_PAGE_TYPES`: articles, threads).
    assert above.keep == (judged.article.page_type in ("article", "thread"))


def test_custom_function_falls_back_to_the_text_statistics() -> None:
    """No presence from a custom function: the old verdict decides, the article still comes
    back for the pipeline."""
    thin = b"<html><body><p>Watch the highlights of the article.</p></body></html>"
    judgement = judge(thin, extract_function=fakes.extract)
    assert judgement.presence is None and judgement.article is not None
    assert not judgement.keep and judgement.reason == "thin"


def test_default_extractor_is_the_pipeline_default() -> None:
    assert judge_page.__kwdefaults__ is not None
    assert judge_page.__kwdefaults__["extract_function"] is extract


def test_usable_encoding() -> None:
    assert usable_encoding("é".encode(), "utf-8") == "utf-8"
    assert usable_encoding("é".encode("latin-1"), "utf-8") is None
    assert usable_encoding(b"x", "no-such-codec") is None
    assert usable_encoding(b"x", None) is None


_ARTICLE = (
    "<html><head><title>Harbour ferry returns after repairs</title></head><body>"
    "<nav><a href='/'>Home</a> <a href='/news'>News</a> <a href='/sport'>Sport</a></nav>"
    "<article><h1>Harbour ferry returns after repairs</h1>"
    + "".join(
        f"<p>Paragraph {n}: the ferry crossed the harbour again on Monday morning, after six "
        "weeks in the dry dock, and the first passengers said the new engines were quieter, "
        "although the timetable still runs ten minutes late on the early crossings.</p>"
        for n in range(6)
    )
    + "</article><footer>© The Harbour Gazette</footer></body></html>"
).encode()


def test_presence_without_an_explanation() -> None:
    """The filter reads the presence from a record that explains nothing: the same presence and
    the same article as a full explanation and as `extract` alone, without the explanation's
    extra stages (the committee on every page)."""
    from newsspider.extraction.stages import StageRecord

    url = "http://a.example/p"
    full, light = StageRecord(), StageRecord(explain=False)
    explained = extract(_ARTICLE, url, "utf-8", record=full)
    measured = extract(_ARTICLE, url, "utf-8", record=light)
    plain = extract(_ARTICLE, url, "utf-8")
    assert full.presence > 0 and light.presence == full.presence
    assert full.committee is not None and light.committee is None
    assert light.page is None and light.features is None
    assert measured.to_dict() == plain.to_dict() == explained.to_dict()
    judged = judge(_ARTICLE)
    assert judged.presence == full.presence
    assert judged.article is not None and judged.article.to_dict() == plain.to_dict()

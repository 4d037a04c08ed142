"""`ContentFilterMiddleware`: drop pages not worth extracting before they reach the spider.

Which responses are judged (so listing pages the crawl needs are never starved):

1. ``request.meta["newsspider_judge"]`` True/False decides, when set;
2. otherwise, with ``NEWSSPIDER_CONTENT_FILTER_SCOPE = "marked"`` (the default), only responses
   routed to a callback decorated with `article_callback` (also through `CrawlSpider` rules);
3. with ``"all"``, every response.

Only 2xx responses are judged; errors stay with Scrapy's own handling (retries, HttpError).

How (`newsspider.extraction.page_judgement.judge_page`, on the crawl's extraction workers, never
on the event loop): the text statistics of `content_score.score_page` drop the certain cases
(not HTML, no visible text) at a fraction of an extraction's cost; every other judged page is
extracted as the pipeline would extract it and dropped when the extractor's presence model puts
P(article present) under ``NEWSSPIDER_CONTENT_FILTER_MIN_PRESENCE`` or types the page empty,
error or login. The article of a kept page waits for the pipeline (`ExtractionRunner.prepared`),
which then does not extract it again. With ``NEWSSPIDER_CONTENT_FILTER_MIN_PRESENCE = 0`` the
filter judges by the text statistics alone, on the event loop, as before (cheaper, less exact).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Final, Self, TypeVar
from urllib.parse import urlsplit

from scrapy.exceptions import IgnoreRequest, NotConfigured

from newsspider.extraction.article import Article
from newsspider.extraction.classify.content_score import PageVerdict, Thresholds, score_page
from newsspider.extraction.page_judgement import Judgement, judge_page
from newsspider.settings_defaults import (
    CONTENT_FILTER_EMPTY_TEXT,
    CONTENT_FILTER_ENABLED,
    CONTENT_FILTER_LISTING_LINKS,
    CONTENT_FILTER_LISTING_SHARE,
    CONTENT_FILTER_MIN_PRESENCE,
    CONTENT_FILTER_MIN_TEXT,
    CONTENT_FILTER_REASONS,
    CONTENT_FILTER_SCOPE,
    CONTENT_FILTER_STRONG_TEXT,
    DEFAULTS,
    FILTER_REASONS,
    META_HINTS,
    META_JUDGE,
    META_VERDICT,
)
from newsspider.workers.extraction_runner import ExtractionRunner
from newsspider.workers.handoff import Prepared

__all__ = ["ContentFilterMiddleware", "PageDropped", "article_callback"]

logger = logging.getLogger(__name__)

_F = TypeVar("_F", bound=Callable[..., Any])
_MARK: Final = "_newsspider_article_callback"
_SCOPES: Final = ("marked", "all")
# Remember first drops for this many (domain, reason) pairs; later ones log at DEBUG anyway.
_MAX_LOGGED_PAIRS: Final = 10_000


def article_callback(func: _F) -> _F:
    """Mark a spider callback as receiving article pages: the content filter judges responses
    routed to it (under the default scope)."""
    setattr(func, _MARK, True)
    return func


class PageDropped(IgnoreRequest):
    """Raised for a response the content filter dropped. Errbacks get it as
    ``failure.value``, with the response, the reason, the text-statistics verdict and, when the
    page was extracted, the article and its P(article present)."""

    def __init__(
        self,
        response: Any,
        reason: str,
        verdict: PageVerdict,
        article: Article | None = None,
        presence: float | None = None,
    ) -> None:
        super().__init__(f"newsspider dropped {response.url}: {reason}")
        self.response = response
        self.reason = reason
        self.verdict = verdict
        self.article = article
        self.presence = presence


class ContentFilterMiddleware:
    """Downloader middleware; see the module docstring for what it judges."""

    def __init__(self, crawler: Any) -> None:
        settings = crawler.settings

        def get(name: str) -> Any:
            return settings.get(name, DEFAULTS[name])

        self.crawler = crawler
        self.stats = crawler.stats
        self.scope = str(get(CONTENT_FILTER_SCOPE)).lower()
        if self.scope not in _SCOPES:
            raise ValueError(f"{CONTENT_FILTER_SCOPE} must be one of {_SCOPES}: {self.scope!r}")
        reasons = settings.getlist(CONTENT_FILTER_REASONS, DEFAULTS[CONTENT_FILTER_REASONS])
        unknown = set(reasons) - set(FILTER_REASONS)
        if unknown:
            raise ValueError(f"{CONTENT_FILTER_REASONS}: unknown reasons {sorted(unknown)}")
        self.reasons = frozenset(reasons)
        self.thresholds = Thresholds(
            min_text=float(get(CONTENT_FILTER_MIN_TEXT)),
            empty_text=float(get(CONTENT_FILTER_EMPTY_TEXT)),
            listing_links=int(get(CONTENT_FILTER_LISTING_LINKS)),
            listing_share=float(get(CONTENT_FILTER_LISTING_SHARE)),
            strong_text=float(get(CONTENT_FILTER_STRONG_TEXT)),
        )
        self.min_presence = float(get(CONTENT_FILTER_MIN_PRESENCE) or 0.0)
        if not 0.0 <= self.min_presence <= 1.0:
            raise ValueError(
                f"{CONTENT_FILTER_MIN_PRESENCE} must be in [0, 1]: {self.min_presence}"
            )
        self._logged: set[tuple[str, str]] = set()
        self._runner: ExtractionRunner | None = None
        signals = getattr(crawler, "signals", None)
        if signals is not None and self.min_presence > 0:
            from scrapy import signals as scrapy_signals

            signals.connect(self._close_runner, signal=scrapy_signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Any) -> Self:
        enabled = crawler.settings.getbool(CONTENT_FILTER_ENABLED, DEFAULTS[CONTENT_FILTER_ENABLED])
        if not enabled:
            raise NotConfigured  # bare: an explicit choice, not worth a warning
        return cls(crawler)

    async def process_response(self, request: Any, response: Any) -> Any:
        if not 200 <= response.status < 300 or not self.should_judge(request):
            return response
        self.stats.inc_value("newsspider/content_filter/judged_count")
        raw_type = response.headers.get(b"Content-Type")
        content_type = raw_type.decode("latin-1") if raw_type else None
        encoding = getattr(response, "encoding", None)
        if self.min_presence <= 0:
            # Text statistics only: cheap enough for the event loop (a fraction of an extract).
            verdict = score_page(response.body, content_type, encoding, self.thresholds)
            judgement: Judgement | None = Judgement(verdict.keep, verdict.reason, verdict)
        else:
            judgement = await self._judge(request, response, content_type, encoding)
        if judgement is None:  # the judgement failed (logged): let the pipeline decide
            self.stats.inc_value("newsspider/content_filter/kept_count")
            return response
        if judgement.keep or judgement.reason not in self.reasons:
            self.stats.inc_value("newsspider/content_filter/kept_count")
            request.meta[META_VERDICT] = _verdict_dict(judgement)
            return response
        reason = judgement.reason
        assert reason is not None  # not kept implies a reason
        self.stats.inc_value("newsspider/dropped/count")
        self.stats.inc_value(f"newsspider/dropped/reason_count/{reason}")
        self._log_drop(response.url, reason, judgement)
        raise PageDropped(
            response, reason, judgement.verdict, judgement.article, judgement.presence
        )

    async def _judge(
        self, request: Any, response: Any, content_type: str | None, encoding: str | None
    ) -> Judgement | None:
        """The full judgement on an extraction worker; a kept page's article is left for the
        pipeline. None when the judgement itself failed (a dead worker process...)."""
        runner = self._ensure_runner()
        config = runner.config
        hints: dict[str, Any] = dict(request.meta.get(META_HINTS) or {})
        reference_time = datetime.now(UTC).replace(microsecond=0) if config.relative_dates else None
        extract_kwargs = {
            "reference_time": reference_time,
            "hints": hints or None,
            "algorithm": config.algorithm,
            "max_bytes": config.max_bytes,
        }
        body: bytes = response.body
        try:
            judgement = await runner.call(
                judge_page, body, response.url, content_type, encoding,
                thresholds=self.thresholds, min_presence=self.min_presence,
                extract_function=runner.extract_function, extract_kwargs=extract_kwargs,
            )  # fmt: skip
        except Exception as exc:
            self.stats.inc_value("newsspider/content_filter/error_count")
            logger.warning("Content filter could not judge %s, kept: %r", response.url, exc)
            return None
        if judgement.article is not None:
            self.stats.inc_value("newsspider/content_filter/extracted_count")
        if judgement.keep and judgement.article is not None:
            runner.prepared.put(
                response, Prepared(body, response.url, judgement.encoding, hints, judgement.article)
            )
        return judgement

    def _ensure_runner(self) -> ExtractionRunner:
        if self._runner is None or self._runner.closed:
            self._runner = ExtractionRunner.for_crawler(self.crawler)
        return self._runner

    def _close_runner(self) -> None:
        if self._runner is not None:
            self._runner.close()

    def should_judge(self, request: Any) -> bool:
        explicit = request.meta.get(META_JUDGE)
        if explicit is not None:
            return bool(explicit)
        if self.scope == "all":
            return True
        return bool(getattr(self._user_callback(request), _MARK, False))

    def _user_callback(self, request: Any) -> Any:
        callback = request.callback
        spider = getattr(self.crawler, "spider", None)
        # CrawlSpider routes every rule through its own `_callback`; the rule holds the user's.
        rule_index = request.meta.get("rule")
        rules = getattr(spider, "_rules", None)
        if rule_index is not None and rules and getattr(callback, "__name__", "") == "_callback":
            try:
                return rules[rule_index].callback
            except (IndexError, TypeError):
                return None
        return callback

    def _log_drop(self, url: str, reason: str, judgement: Judgement) -> None:
        why = _explanation(judgement, self.min_presence)
        domain = urlsplit(url).hostname or ""
        key = (domain, reason)
        if key in self._logged or len(self._logged) >= _MAX_LOGGED_PAIRS:
            logger.debug("Dropped %s: %s (%s)", url, reason, why)
            return
        self._logged.add(key)
        logger.info(
            "Dropped %s: %s (%s; first such drop on %s; the rest are counted in "
            "newsspider/dropped/reason_count/%s)",
            url,
            reason,
            why,
            domain,
            reason,
        )


def _explanation(judgement: Judgement, min_presence: float) -> str:
    """Why a page was dropped, in a few words for the log."""
    if judgement.article is None:
        v = judgement.verdict
        return (
            f"text statistics: longest run {v.score:.0f}, text {v.text:.0f}, "
            f"link text {v.link_text:.0f}, link blocks {v.link_blocks}"
        )
    page_type = judgement.article.page_type
    if judgement.presence is None or judgement.presence >= min_presence:
        return f"extracted, page type {page_type}"
    return (
        f"extracted, P(article present) {judgement.presence:.3f} < {min_presence}, "
        f"page type {page_type}"
    )


def _verdict_dict(judgement: Judgement) -> dict[str, Any]:
    verdict = judgement.verdict.to_dict()
    verdict["keep"], verdict["reason"] = judgement.keep, judgement.reason
    if judgement.article is not None:
        verdict["page_type"] = judgement.article.page_type
        verdict["presence"] = judgement.presence
    return verdict

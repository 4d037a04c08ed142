"""`ContentFilterMiddleware`: drop pages not worth extracting before they reach the spider.

Which responses are judged (so listing pages the crawl needs are never starved):

1. ``request.meta["newsspider_judge"]`` True/False decides, when set;
2. otherwise, with ``NEWSSPIDER_CONTENT_FILTER_SCOPE = "marked"`` (the default), only responses
   routed to a callback decorated with `article_callback` (also through `CrawlSpider` rules);
3. with ``"all"``, every response.

Only 2xx responses are judged; errors stay with Scrapy's own handling (retries, HttpError).
The verdict comes from `newsspider.extraction.content_score.score_page`: text statistics, no
parse tree, a small fraction of an extraction's cost.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Final, Self, TypeVar
from urllib.parse import urlsplit

from scrapy.exceptions import IgnoreRequest, NotConfigured

from newsspider.extraction.content_score import PageVerdict, Thresholds, score_page
from newsspider.settings_defaults import (
    CONTENT_FILTER_EMPTY_TEXT,
    CONTENT_FILTER_ENABLED,
    CONTENT_FILTER_LISTING_LINKS,
    CONTENT_FILTER_LISTING_SHARE,
    CONTENT_FILTER_MIN_TEXT,
    CONTENT_FILTER_REASONS,
    CONTENT_FILTER_SCOPE,
    CONTENT_FILTER_STRONG_TEXT,
    DEFAULTS,
    FILTER_REASONS,
    META_JUDGE,
    META_VERDICT,
)

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
    ``failure.value``, with the response, the reason and the full verdict."""

    def __init__(self, response: Any, reason: str, verdict: PageVerdict) -> None:
        super().__init__(f"newsspider dropped {response.url}: {reason}")
        self.response = response
        self.reason = reason
        self.verdict = verdict


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
        self._logged: set[tuple[str, str]] = set()

    @classmethod
    def from_crawler(cls, crawler: Any) -> Self:
        enabled = crawler.settings.getbool(CONTENT_FILTER_ENABLED, DEFAULTS[CONTENT_FILTER_ENABLED])
        if not enabled:
            raise NotConfigured  # bare: an explicit choice, not worth a warning
        return cls(crawler)

    def process_response(self, request: Any, response: Any) -> Any:
        if not 200 <= response.status < 300 or not self.should_judge(request):
            return response
        self.stats.inc_value("newsspider/content_filter/judged_count")
        raw_type = response.headers.get(b"Content-Type")
        verdict = score_page(
            response.body,
            raw_type.decode("latin-1") if raw_type else None,
            getattr(response, "encoding", None),
            self.thresholds,
        )
        if verdict.keep or verdict.reason not in self.reasons:
            self.stats.inc_value("newsspider/content_filter/kept_count")
            request.meta[META_VERDICT] = verdict.to_dict()
            return response
        reason = verdict.reason
        assert reason is not None  # not kept implies a reason
        self.stats.inc_value("newsspider/dropped/count")
        self.stats.inc_value(f"newsspider/dropped/reason_count/{reason}")
        self._log_drop(response.url, reason)
        raise PageDropped(response, reason, verdict)

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

    def _log_drop(self, url: str, reason: str) -> None:
        domain = urlsplit(url).hostname or ""
        key = (domain, reason)
        if key in self._logged or len(self._logged) >= _MAX_LOGGED_PAIRS:
            logger.debug("Dropped %s: %s", url, reason)
            return
        self._logged.add(key)
        logger.info(
            "Dropped %s: %s (first such drop on %s; the rest are counted in "
            "newsspider/dropped/reason_count/%s)",
            url,
            reason,
            domain,
            reason,
        )

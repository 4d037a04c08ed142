"""Every newsspider setting, its default, and the component priorities: the one place they live.

Components read settings with these defaults, so the add-on never has to write ``NEWSSPIDER_*``
keys, and enabling by hand (pipeline + middleware in the component dicts) gives the same result.
This module imports nothing from Scrapy.
"""

from __future__ import annotations

from typing import Any, Final

from newsspider.extraction.classify.confidence import DROP_THRESHOLD
from newsspider.extraction.page_judgement import DEFAULT_MIN_PRESENCE, DEFAULT_PAGE_TYPES

#: Where the add-on (and the manual-configuration docs) put the components.
#: The pipeline runs early so that user pipelines at the usual 300 see `ArticleItem`s.
PIPELINE_PRIORITY: Final = 100
#: Below 550 (RetryMiddleware): the filter sees decompressed, redirected, retried responses.
CONTENT_FILTER_PRIORITY: Final = 540

PIPELINE_PATH: Final = "newsspider.pipelines.ArticlePipeline"
CONTENT_FILTER_PATH: Final = "newsspider.middlewares.ContentFilterMiddleware"
#: Above 590 (HttpCompressionMiddleware): it sees the body still compressed.
TRUNCATION_PRIORITY: Final = 595
#: The scrapy-poet provider of `newsspider.poet.ExtractionWorkers` (the add-on registers it).
POET_PROVIDER_PATH: Final = "newsspider.poet.provider.ExtractionWorkersProvider"
POET_PROVIDER_PRIORITY: Final = 500
BUNDLED_SPIDERS_MODULE: Final = "newsspider.spiders"
TRUNCATION_PATH: Final = "newsspider.truncation.TruncationMiddleware"
#: After the bundled spiders' exact-duplicate filter (800): exact copies are dropped first.
NEAR_DUPLICATES_PRIORITY: Final = 850
NEAR_DUPLICATES_PATH: Final = "newsspider.near_duplicates.NearDuplicatePipeline"

# --- pipeline -------------------------------------------------------------------------------

#: Turn `PageItem`s into `ArticleItem`s.
PIPELINE_ENABLED: Final = "NEWSSPIDER_PIPELINE_ENABLED"
#: "thread" (default: a small thread pool, keeps the event loop responsive) or "process" (a
#: process pool, for throughput on several cores).
EXTRACT_MODE: Final = "NEWSSPIDER_EXTRACT_MODE"
#: Worker threads/processes; 0 means automatic (4 threads; CPU count - 1 processes, at least 1).
EXTRACT_WORKERS: Final = "NEWSSPIDER_EXTRACT_WORKERS"
#: multiprocessing start method of the process pool. "spawn" is safe next to the reactor's
#: threads; it re-imports the main script, so scripts need an ``if __name__ == "__main__"`` guard.
EXTRACT_START_METHOD: Final = "NEWSSPIDER_EXTRACT_START_METHOD"
#: The `algorithm` argument of `newsspider.extract`.
EXTRACT_ALGORITHM: Final = "NEWSSPIDER_EXTRACT_ALGORITHM"
#: Most bytes of a page parsed (None: the extractor's own 20 MiB cap; 0: no cap).
EXTRACT_MAX_BYTES: Final = "NEWSSPIDER_EXTRACT_MAX_BYTES"
#: Import path of the extraction function (same signature as `newsspider.extract`).
EXTRACT_FUNCTION: Final = "NEWSSPIDER_EXTRACT_FUNCTION"
#: Use the crawl time (`PageItem.fetched_at`) as the reference for "3 hours ago" dates.
RELATIVE_DATES: Final = "NEWSSPIDER_RELATIVE_DATES"
#: Articles below this confidence are dropped or flagged.
MIN_CONFIDENCE: Final = "NEWSSPIDER_MIN_CONFIDENCE"
#: "drop" (DropItem at INFO, counted) or "flag" (kept, `low_confidence=True`).
LOW_CONFIDENCE_ACTION: Final = "NEWSSPIDER_LOW_CONFIDENCE"
#: Page types (`newsspider.PAGE_TYPES`) that leave the pipeline as articles; a page of any other
#: type is dropped (reason ``page_type``) by the pipeline and by the content filter alike.
PAGE_TYPES_SETTING: Final = "NEWSSPIDER_PAGE_TYPES"
#: A folder: the explain report (``newsspider explain``) of each page below the confidence
#: threshold is written there, to see what was dropped and why. Unset: no reports.
EXPLAIN_DIR: Final = "NEWSSPIDER_EXPLAIN_DIR"
#: The add-on adds the bundled spiders to SPIDER_MODULES (False: it does not).
BUNDLED_SPIDERS: Final = "NEWSSPIDER_BUNDLED_SPIDERS"
#: "newsspider" (`ArticleItem`) or "zyte" (zyte-common-items `Article`, needs newsspider[poet]).
ITEM_SCHEMA: Final = "NEWSSPIDER_ITEM_SCHEMA"
#: At most this many explain reports per crawl.
EXPLAIN_MAX: Final = "NEWSSPIDER_EXPLAIN_MAX"
#: Fill each item's ``markdown`` field (the body as Markdown, written on the extraction
#: workers); off by default: it costs a conversion per article that most crawls do not read.
MARKDOWN: Final = "NEWSSPIDER_MARKDOWN"

# --- multi-page articles --------------------------------------------------------------------

#: Fetch an article's continuation pages (`Article.next_page_url`) and join them into one item.
MULTIPAGE_ENABLED: Final = "NEWSSPIDER_MULTIPAGE_ENABLED"
#: Most pages joined into one story (the first included); the rest are left out, with a warning.
MULTIPAGE_MAX_PAGES: Final = "NEWSSPIDER_MULTIPAGE_MAX_PAGES"

# --- content filter (downloader middleware) -------------------------------------------------

#: Drop thin, non-HTML, error, wall and listing pages before they reach the spider.
CONTENT_FILTER_ENABLED: Final = "NEWSSPIDER_CONTENT_FILTER_ENABLED"
#: Which responses are judged when the request says nothing: "marked" (requests with meta
#: ``newsspider_judge=True`` or routed to an `@article_callback`) or "all".
CONTENT_FILTER_SCOPE: Final = "NEWSSPIDER_CONTENT_FILTER_SCOPE"
#: Reasons that drop a page; a judged page failing for another reason passes through.
CONTENT_FILTER_REASONS: Final = "NEWSSPIDER_CONTENT_FILTER_REASONS"
#: Least text (Latin-equivalent characters, CJK counted x3) in the main text run to keep a page.
CONTENT_FILTER_MIN_TEXT: Final = "NEWSSPIDER_CONTENT_FILTER_MIN_TEXT"
#: Below this much visible text in total the page is "empty".
CONTENT_FILTER_EMPTY_TEXT: Final = "NEWSSPIDER_CONTENT_FILTER_EMPTY_TEXT"
#: A page with at least this many link-dominated blocks ...
CONTENT_FILTER_LISTING_LINKS: Final = "NEWSSPIDER_CONTENT_FILTER_LISTING_LINKS"
#: ... whose main text run holds less than this share of its text is a "listing".
CONTENT_FILTER_LISTING_SHARE: Final = "NEWSSPIDER_CONTENT_FILTER_LISTING_SHARE"
#: A main run this long keeps a page however many links surround it.
CONTENT_FILTER_STRONG_TEXT: Final = "NEWSSPIDER_CONTENT_FILTER_STRONG_TEXT"
#: Pages not certainly empty or non-HTML are extracted (on the extraction workers; the pipeline
#: reuses the article) and dropped when P(article present) is below this; 0: text statistics
#: only, on the event loop, no extraction.
CONTENT_FILTER_MIN_PRESENCE: Final = "NEWSSPIDER_CONTENT_FILTER_MIN_PRESENCE"

# --- bundled spiders and truncated responses --------------------------------------------------

#: Most URLs read from one sitemap by the ``sitemap`` spider (0: no limit); the rest of the
#: sitemap is not parsed. The sitemap protocol itself allows 50 000 per file.
SITEMAP_MAX_URLS: Final = "NEWSSPIDER_SITEMAP_MAX_URLS"
#: The ``site`` spider's URL patterns (regular expressions searched in link URLs) for every
#: crawl of a project; the spider argument of the same name (``-a article_allow=...``) wins.
SITE_ARTICLE_ALLOW: Final = "NEWSSPIDER_SITE_ARTICLE_ALLOW"
SITE_ARTICLE_DENY: Final = "NEWSSPIDER_SITE_ARTICLE_DENY"
SITE_LISTING_ALLOW: Final = "NEWSSPIDER_SITE_LISTING_ALLOW"
SITE_LISTING_DENY: Final = "NEWSSPIDER_SITE_LISTING_DENY"
#: Confidence ceiling of an article whose response was truncated (Scrapy's ``dataloss`` flag,
#: a compressed body that ends before its stream does): below the default minimum, so such
#: articles are dropped as ``truncated``, or kept flagged with ``NEWSSPIDER_LOW_CONFIDENCE=flag``.
TRUNCATED_MAX_CONFIDENCE: Final = "NEWSSPIDER_TRUNCATED_MAX_CONFIDENCE"

# --- shared crawl on Redis (scrapy-redis scheduler and dupefilter) --------------------------

#: ``redis://host:6379/0``: share the frontier and the seen-URL set of a crawl between worker
#: processes and hosts; unset (default), the crawl runs in this process only.
REDIS_URL: Final = "NEWSSPIDER_REDIS_URL"
#: Prefix of the crawl's Redis keys (``%(spider)s`` is the spider's name): ``PREFIX:start_urls``
#: (the seed list), ``PREFIX:requests`` (and ``:pending``), ``PREFIX:dupefilter``,
#: ``PREFIX:workers``, ``PREFIX:items``.
REDIS_KEY: Final = "NEWSSPIDER_REDIS_KEY"
#: Seconds a worker waits with nothing to do (no seeds, empty shared queue, no busy peer)
#: before it closes; 0: wait for seeds forever.
REDIS_IDLE_CLOSE: Final = "NEWSSPIDER_REDIS_IDLE_CLOSE"
#: Seconds without a new heartbeat after which a worker counts as dead and the requests it had
#: taken go back into the shared queue (docs/scale-out.md).
REDIS_DEAD_AFTER: Final = "NEWSSPIDER_REDIS_DEAD_AFTER"
#: Seconds a worker waits for an unreachable Redis (retrying, with a logged warning) before a
#: Redis call fails.
REDIS_OUTAGE: Final = "NEWSSPIDER_REDIS_OUTAGE"

# --- near-duplicate bodies (`newsspider.near_duplicates`) ------------------------------------

#: "flag" (the item's ``duplicate_of`` names the earlier URL), "drop", or None/"" (off).
NEAR_DUPLICATES: Final = "NEWSSPIDER_NEAR_DUPLICATES"
#: Estimated Jaccard similarity of two bodies' word 3-shingles from which they are copies.
NEAR_DUPLICATES_THRESHOLD: Final = "NEWSSPIDER_NEAR_DUPLICATES_THRESHOLD"
#: Bodies remembered at most (least recently matched forgotten first): bounds the memory.
NEAR_DUPLICATES_MAX_PAGES: Final = "NEWSSPIDER_NEAR_DUPLICATES_MAX_PAGES"

#: The reasons the content filter can report (a bounded set: stats keys are built from them).
FILTER_REASONS: Final = (
    "not_html",
    "empty",
    "thin",
    "listing",
    "soft_404",
    "login",
    "consent",
    "no_article",
    "page_type",
)
#: Reasons the pipeline reports under the same ``newsspider/dropped/reason_count/`` family.
PIPELINE_DROP_REASONS: Final = ("low_confidence", "truncated", "near_duplicate", "page_type")

DEFAULTS: Final[dict[str, Any]] = {
    PIPELINE_ENABLED: True,
    EXTRACT_MODE: "thread",
    EXTRACT_WORKERS: 0,
    EXTRACT_START_METHOD: "spawn",
    EXTRACT_ALGORITHM: "default",
    EXTRACT_MAX_BYTES: None,
    EXTRACT_FUNCTION: "newsspider.extraction.api.extract",
    RELATIVE_DATES: True,
    MIN_CONFIDENCE: DROP_THRESHOLD,
    LOW_CONFIDENCE_ACTION: "drop",
    PAGE_TYPES_SETTING: list(DEFAULT_PAGE_TYPES),
    EXPLAIN_DIR: None,
    ITEM_SCHEMA: "newsspider",
    BUNDLED_SPIDERS: True,
    EXPLAIN_MAX: 100,
    MARKDOWN: False,
    MULTIPAGE_ENABLED: True,
    MULTIPAGE_MAX_PAGES: 10,
    CONTENT_FILTER_ENABLED: True,
    CONTENT_FILTER_SCOPE: "marked",
    CONTENT_FILTER_REASONS: list(FILTER_REASONS),
    CONTENT_FILTER_MIN_TEXT: 250,
    CONTENT_FILTER_EMPTY_TEXT: 20,
    CONTENT_FILTER_LISTING_LINKS: 10,
    CONTENT_FILTER_LISTING_SHARE: 0.25,
    CONTENT_FILTER_STRONG_TEXT: 1000,
    CONTENT_FILTER_MIN_PRESENCE: DEFAULT_MIN_PRESENCE,
    SITEMAP_MAX_URLS: 50_000,
    SITE_ARTICLE_ALLOW: None,
    SITE_ARTICLE_DENY: None,
    SITE_LISTING_ALLOW: None,
    SITE_LISTING_DENY: None,
    TRUNCATED_MAX_CONFIDENCE: 0.2,
    REDIS_URL: None,
    REDIS_KEY: "newsspider:%(spider)s",
    REDIS_IDLE_CLOSE: 10.0,
    NEAR_DUPLICATES: None,
    NEAR_DUPLICATES_THRESHOLD: 0.4,
    NEAR_DUPLICATES_MAX_PAGES: 10_000,
    REDIS_DEAD_AFTER: 10.0,
    REDIS_OUTAGE: 300.0,
}

#: Settings the add-on sets (at "addon" priority, so project settings win) besides components.
ADDON_SETTINGS: Final[dict[str, Any]] = {
    # Article text is mostly non-ASCII; escaped JSON is unreadable and larger.
    "FEED_EXPORT_ENCODING": "utf-8",
}

# --- request meta keys ----------------------------------------------------------------------

#: bool: judge this response (True) or never judge it (False), whatever the scope setting says.
META_JUDGE: Final = "newsspider_judge"
#: dict: extraction hints (title, date, authors ...) that `PageItem.from_response` picks up.
META_HINTS: Final = "newsspider_hints"
#: str: the host (without ``www.``) of the start URL a ``site`` crawl request descends from, so
#: that any worker of a shared crawl keeps that request's links on its site.
META_SITE: Final = "newsspider_site"
#: dict: a multi-page story being joined (`newsspider.multipage.Story`), on the requests of its
#: continuation pages; plain data, so that a JOBDIR queue keeps it over a pause.
META_STORY: Final = "newsspider_story"
#: Set by the content filter on kept responses: the `PageVerdict` as a dict (for debugging).
META_VERDICT: Final = "newsspider_verdict"

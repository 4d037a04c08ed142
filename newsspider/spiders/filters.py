"""`CrawlFilterPipeline`: each article once per crawl, and none older than the spider's ``since``.

Runs after `ArticlePipeline`, on article records read through itemadapter: `ArticleItem`s, their
dict or `scrapy.Item` copies made by a pipeline in between, and zyte-common-items `Article`s
(``NEWSSPIDER_ITEM_SCHEMA = "zyte"``); anything else passes through. Only extraction knows the
canonical URL, the text and the date. A duplicate is an article whose canonical URL
(or, without one, its URL minus tracking parameters) or whose normalised body text was already
seen. Drops are counted under ``newsspider/dropped/reason_count/{duplicate,older_than_since}``.
With ``JOBDIR`` the seen keys live in ``spider.state``, which Scrapy saves between runs: a resumed
job does not report an article of an earlier run again.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any, Final, Self
from urllib.parse import unquote_plus, urlsplit, urlunsplit

from itemadapter import ItemAdapter
from scrapy.exceptions import DropItem
from w3lib.url import canonicalize_url

from newsspider.items import PageItem
from newsspider.spiders._dates import is_older

__all__ = ["CrawlFilterPipeline", "merge_key", "url_key"]

logger = logging.getLogger(__name__)

#: Bodies shorter than this (characters) are not compared: empty or stub bodies are not "same".
MIN_BODY_FOR_DEDUPE = 200
#: Key of the seen articles (identity key -> first URL) in ``spider.state``.
STATE_KEY = "newsspider/filter/seen"
#: Query parameters that only say where a click came from: campaign tags, ad click ids,
#: e-mail and marketing-automation ids, analytics cookies passed in links, referrers. Written
#: as data from the parameters the trackers document (courlan's list was the reference);
#: compared case-insensitively.
TRACKING_PARAMETERS: Final = frozenset(
    {
        # campaign tags (Google Analytics utm_* is a prefix: TRACKING_PREFIXES)
        "pk_campaign", "pk_kwd", "pk_keyword", "pk_source", "pk_medium", "pk_content",
        "piwik_campaign", "piwik_kwd", "piwik_keyword", "mtm_campaign", "mtm_kwd",
        "mtm_source", "mtm_medium", "mtm_content", "mtm_cid", "mtm_group", "mtm_placement",
        "itm_source", "itm_medium", "itm_campaign", "itm_content", "itm_term",
        "at_medium", "at_campaign", "at_custom1", "at_custom2", "at_custom3", "at_custom4",
        "wt_mc", "wt.mc_id", "wt_zmc", "wt_zs", "ns_campaign", "ns_mchannel", "ns_source",
        "ns_linkname", "ns_fee", "cmpid", "ocid", "ncid", "s_cid", "cid_source",
        # ad and social click ids
        "fbclid", "gclid", "gclsrc", "dclid", "gbraid", "wbraid", "gad_source", "msclkid",
        "yclid", "ysclid", "twclid", "ttclid", "li_fat_id", "rdt_cid", "epik", "igshid", "igsh",
        "srsltid", "irclickid", "rb_clickid", "wickedid", "_openstat", "fb_action_ids",
        "fb_action_types", "fb_ref", "fb_source", "action_object_map", "action_type_map",
        "action_ref_map", "guccounter", "guce_referrer", "guce_referrer_sig",
        # e-mail and marketing automation
        "mc_cid", "mc_eid", "_hsenc", "_hsmi", "__hssc", "__hstc", "__hsfp", "hsctatracking",
        "mkt_tok", "oly_anon_id", "oly_enc_id", "vero_id", "vero_conv", "ml_subscriber",
        "ml_subscriber_hash", "sc_channel", "sc_campaign", "trk", "trk_contact", "trk_msg",
        "trk_module", "trk_sid", "__s", "ss_source", "ss_campaign_id", "elqtrack",
        "elqtrackid", "spreportid",
        # analytics state carried in links
        "_ga", "_gl", "_gid", "_ke",
        # referrers and placement ("where on our site the link was")
        "ref", "ref_src", "ref_url", "referrer", "from", "spm", "smid", "cmp", "share",
    }
)  # fmt: skip
#: Parameter name prefixes that are tracking whatever follows (``utm_source``, ``utm_id``...).
TRACKING_PREFIXES: Final = ("utm_", "hsa_")
_DEFAULT_PORTS: Final = {"http": 80, "https": 443}


def _tracking(pair: str) -> bool:
    name = unquote_plus(pair.split("=", 1)[0]).lower()
    return name in TRACKING_PARAMETERS or name.startswith(TRACKING_PREFIXES)


def url_key(url: str) -> str:
    """A URL without fragment, tracking parameters (`TRACKING_PARAMETERS`), default port,
    ``www.`` and trailing-slash differences (w3lib sorts and re-encodes the query)."""
    try:
        parts = urlsplit(canonicalize_url(url.strip()))
        port = parts.port
    except ValueError:  # not a URL w3lib can read (a port that is no number): as written
        return url.strip()
    host = (parts.hostname or "").lower().removeprefix("www.")
    scheme = parts.scheme.lower()
    if port and port != _DEFAULT_PORTS.get(scheme):
        host = f"{host}:{port}"
    path = parts.path.rstrip("/") or "/"
    query = "&".join(p for p in parts.query.split("&") if p and not _tracking(p))
    return urlunsplit((scheme, host, path, query, ""))


def _body_key(body: str) -> str | None:
    text = " ".join(body.split())
    if len(text) < MIN_BODY_FOR_DEDUPE:
        return None
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


#: Field names of an article record: newsspider's (`ArticleItem`) and zyte-common-items'.
_SCHEMAS = (
    {"url": "url", "canonical": "canonical_url", "date": "date", "body": "body"},
    {"url": "url", "canonical": "canonicalUrl", "date": "datePublished", "body": "articleBody"},
)


def article_record(item: Any) -> dict[str, Any] | None:
    """``url``, ``canonical``, ``date`` and ``body`` of an article record (any item class
    itemadapter reads), or None for an item that is not one."""
    if isinstance(item, PageItem) or not ItemAdapter.is_item(item):
        return None
    adapter = ItemAdapter(item)
    names = set(adapter.field_names()) | set(adapter.keys())
    for schema in _SCHEMAS:
        if schema["body"] in names and schema["url"] in names:
            return {key: adapter.get(name) for key, name in schema.items()}
    return None


def merge_key(canonical_url: str | None, url: str | None, body: str | None) -> set[str]:
    """Identity keys of a record: two records sharing any key are the same article."""
    keys = {"url:" + url_key(u) for u in (canonical_url, url) if u}
    body_key = _body_key(body or "")
    if body_key is not None:
        keys.add("body:" + body_key)
    return keys


class CrawlFilterPipeline:
    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        # Identity key (see `merge_key`) -> URL of the first article that had it.
        self._seen: dict[str, str] = {}

    @classmethod
    def from_crawler(cls, crawler: Any) -> Self:
        return cls(crawler)

    def process_item(self, item: Any) -> Any:
        record = article_record(item)
        if record is None:
            return item
        url = record["url"] or ""
        date = record["date"]
        since = getattr(getattr(self.crawler, "spider", None), "since", None)
        if is_older(date, since):
            self._drop("older_than_since")
            raise DropItem(f"Published {date}, before since={since}: {url}", log_level="DEBUG")
        keys = merge_key(record["canonical"], url, record["body"])
        known = self._known()
        seen = next((known[k] for k in sorted(keys) if k in known), None)
        if seen is not None:
            self._drop("duplicate")
            raise DropItem(f"Duplicate of {seen}: {url}", log_level="INFO")
        for key in keys:
            known[key] = url
        return item

    def _known(self) -> dict[str, str]:
        """The keys seen so far, kept in ``spider.state`` when Scrapy provides it (``JOBDIR``
        saves it between runs), so that a resumed job does not report an article again."""
        state = getattr(getattr(self.crawler, "spider", None), "state", None)
        if isinstance(state, dict):
            saved = state.setdefault(STATE_KEY, self._seen)
            if saved is not self._seen:  # loaded from JOBDIR: go on from there
                for key, url in self._seen.items():
                    saved.setdefault(key, url)
                self._seen = saved
        return self._seen

    def _drop(self, reason: str) -> None:
        if self.stats is not None:
            self.stats.inc_value("newsspider/dropped/count")
            self.stats.inc_value(f"newsspider/dropped/reason_count/{reason}")

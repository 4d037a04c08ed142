"""`Addon`: enable newsspider with ``ADDONS = {"newsspider.Addon": 300}``.

It only touches settings (add-ons run before stats and components exist) and is idempotent:
components already configured by the user, even as import strings or with another priority,
are left as they are. ``NEWSSPIDER_*`` settings are not written: components read them with the
defaults in `newsspider.settings_defaults`, so manual configuration is equivalent.

Before the crawler exists it adds the bundled spiders (``newsspider.spiders``) to
``SPIDER_MODULES`` after the project's own (``NEWSSPIDER_BUNDLED_SPIDERS = False``: not);
it registers the ``scrapy check`` contract of the bundled spiders and, when scrapy-poet and
zyte-common-items are installed, the provider of the crawl's extraction workers for newsspider's
page objects (`newsspider.poet`).
"""

from __future__ import annotations

import importlib.util
from typing import Any

from scrapy.settings import SETTINGS_PRIORITIES

from newsspider.contracts import DemoPageContract
from newsspider.middlewares import ContentFilterMiddleware
from newsspider.near_duplicates import NearDuplicatePipeline
from newsspider.pipelines import ArticlePipeline
from newsspider.settings_defaults import (
    ADDON_SETTINGS,
    BUNDLED_SPIDERS,
    BUNDLED_SPIDERS_MODULE,
    CONTENT_FILTER_PRIORITY,
    DEFAULTS,
    NEAR_DUPLICATES,
    NEAR_DUPLICATES_PRIORITY,
    PIPELINE_PRIORITY,
    POET_PROVIDER_PATH,
    POET_PROVIDER_PRIORITY,
    REDIS_URL,
    TRUNCATION_PRIORITY,
)
from newsspider.truncation import TruncationMiddleware

__all__ = ["Addon"]


class Addon:
    """Scrapy add-on: the article pipeline, the content filter, the truncation check and UTF-8
    feeds; with ``NEWSSPIDER_REDIS_URL`` set, a crawl shared with other workers through Redis."""

    @classmethod
    def update_pre_crawler_settings(cls, settings: Any) -> None:
        # `scrapy check` reads its contracts from these settings, before any crawler exists.
        settings.setdefault_in_component_priority_dict("SPIDER_CONTRACTS", DemoPageContract, 10)
        if not settings.getbool(BUNDLED_SPIDERS, DEFAULTS[BUNDLED_SPIDERS]):
            return
        modules = settings.getlist("SPIDER_MODULES")
        if BUNDLED_SPIDERS_MODULE not in modules:
            # The project's modules first; at the setting's own priority so that a project's
            # SPIDER_MODULES (priority "project") is extended, not shadowed.
            priority = max(
                settings.getpriority("SPIDER_MODULES") or 0, SETTINGS_PRIORITIES["addon"]
            )
            settings.set("SPIDER_MODULES", [*modules, BUNDLED_SPIDERS_MODULE], priority)

    def update_settings(self, settings: Any) -> None:
        if _installed("scrapy_poet") and _installed("zyte_common_items"):
            from scrapy.utils.misc import load_object

            provider = load_object(POET_PROVIDER_PATH)
            settings.setdefault_in_component_priority_dict(
                "SCRAPY_POET_PROVIDERS", provider, POET_PROVIDER_PRIORITY
            )
        settings.setdefault_in_component_priority_dict(
            "ITEM_PIPELINES", ArticlePipeline, PIPELINE_PRIORITY
        )
        settings.setdefault_in_component_priority_dict(
            "DOWNLOADER_MIDDLEWARES", ContentFilterMiddleware, CONTENT_FILTER_PRIORITY
        )
        settings.setdefault_in_component_priority_dict(
            "DOWNLOADER_MIDDLEWARES", TruncationMiddleware, TRUNCATION_PRIORITY
        )
        if settings.get(NEAR_DUPLICATES):
            # Only when asked for (off by default): it needs the optional datasketch.
            settings.setdefault_in_component_priority_dict(
                "ITEM_PIPELINES", NearDuplicatePipeline, NEAR_DUPLICATES_PRIORITY
            )
        for name, value in ADDON_SETTINGS.items():
            # "addon" priority: above Scrapy's defaults, below anything the project sets.
            settings.set(name, value, priority="addon")
        if settings.get(REDIS_URL):
            # A crawl shared through Redis (scrapy-redis is imported only then).
            from newsspider.distributed.addon import apply_shared_crawl_settings

            apply_shared_crawl_settings(settings)


def _installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None

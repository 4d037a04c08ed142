"""`Addon`: enable newsspider with ``ADDONS = {"newsspider.Addon": 300}``.

It only touches settings (add-ons run before stats and components exist) and is idempotent:
components already configured by the user, even as import strings or with another priority,
are left as they are. ``NEWSSPIDER_*`` settings are not written: components read them with the
defaults in `newsspider.settings_defaults`, so manual configuration is equivalent.
"""

from __future__ import annotations

from typing import Any

from newsspider.middlewares import ContentFilterMiddleware
from newsspider.near_duplicates import NearDuplicatePipeline
from newsspider.pipelines import ArticlePipeline
from newsspider.settings_defaults import (
    ADDON_SETTINGS,
    CONTENT_FILTER_PRIORITY,
    NEAR_DUPLICATES,
    NEAR_DUPLICATES_PRIORITY,
    PIPELINE_PRIORITY,
    REDIS_URL,
    TRUNCATION_PRIORITY,
)
from newsspider.truncation import TruncationMiddleware

__all__ = ["Addon"]


class Addon:
    """Scrapy add-on: the article pipeline, the content filter, the truncation check and UTF-8
    feeds; with ``NEWSSPIDER_REDIS_URL`` set, a crawl shared with other workers through Redis."""

    def update_settings(self, settings: Any) -> None:
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

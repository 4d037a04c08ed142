"""The add-on: same settings as manual configuration, idempotent, respectful of user choices."""

from __future__ import annotations

import importlib.util
from typing import Any

from scrapy import Spider
from scrapy.addons import AddonManager
from scrapy.crawler import Crawler
from scrapy.settings import Settings
from scrapy.utils.conf import build_component_list
from scrapy.utils.misc import load_object

from newsspider.addon import Addon
from newsspider.middlewares import ContentFilterMiddleware
from newsspider.pipelines import ArticlePipeline

#: The manual configuration, exactly as the README gives it.
MANUAL = {
    "ITEM_PIPELINES": {"newsspider.pipelines.ArticlePipeline": 100},
    "DOWNLOADER_MIDDLEWARES": {
        "newsspider.middlewares.ContentFilterMiddleware": 540,
        "newsspider.truncation.TruncationMiddleware": 595,
    },
    "FEED_EXPORT_ENCODING": "utf-8",
    "SPIDER_MODULES": ["newsspider.spiders"],
    "SPIDER_CONTRACTS": {"newsspider.contracts.DemoPageContract": 10},
}
if importlib.util.find_spec("scrapy_poet") and importlib.util.find_spec("zyte_common_items"):
    MANUAL["SCRAPY_POET_PROVIDERS"] = {"newsspider.poet.provider.ExtractionWorkersProvider": 500}
COMPONENT_DICTS = (
    "ITEM_PIPELINES",
    "DOWNLOADER_MIDDLEWARES",
    "SPIDER_MIDDLEWARES",
    "EXTENSIONS",
    "SPIDER_CONTRACTS",
    "SCRAPY_POET_PROVIDERS",
)


def effective(project: dict[str, Any]) -> Settings:
    """Settings as a crawler sees them after add-ons ran (no reactor, no crawl)."""
    settings = Settings()
    settings.setdict(project, priority="project")
    # What `scrapy` / CrawlerProcess run before a crawler exists (SPIDER_MODULES), then the rest.
    crawler_process_settings = settings.copy()
    AddonManager.load_pre_crawler_settings(crawler_process_settings)
    crawler = Crawler(Spider, crawler_process_settings)
    crawler.addons.load_settings(crawler.settings)
    return crawler.settings


def components(settings: Settings, name: str) -> list[tuple[Any, int]]:
    merged = settings.get_component_priority_dict_with_base(name)
    ordered = build_component_list(merged)
    by_class = {load_object(k): v for k, v in merged.items() if v is not None}
    return [(load_object(c), by_class[load_object(c)]) for c in ordered]


def comparable(settings: Settings) -> dict[str, Any]:
    names = set(settings) - {"ADDONS"} - set(COMPONENT_DICTS)
    data: dict[str, Any] = {n: settings[n] for n in names}
    data.update({n: components(settings, n) for n in COMPONENT_DICTS})
    return data


def test_addon_equals_manual_configuration() -> None:
    with_addon = comparable(effective({"ADDONS": {"newsspider.Addon": 300}}))
    manual = comparable(effective(MANUAL))
    assert with_addon == manual
    assert (ArticlePipeline, 100) in with_addon["ITEM_PIPELINES"]
    assert (ContentFilterMiddleware, 540) in with_addon["DOWNLOADER_MIDDLEWARES"]


def test_filter_sits_after_retry_and_redirects() -> None:
    settings = effective({"ADDONS": {Addon: 300}})
    order = [cls.__name__ for cls, _ in components(settings, "DOWNLOADER_MIDDLEWARES")]
    # process_response runs from the end of this list to the start.
    for earlier in ("RetryMiddleware", "RedirectMiddleware", "HttpCompressionMiddleware"):
        assert order.index("ContentFilterMiddleware") < order.index(earlier)
    # The truncation check needs the body still compressed.
    assert order.index("HttpCompressionMiddleware") < order.index("TruncationMiddleware")


def test_addon_is_idempotent() -> None:
    settings = effective({"ADDONS": {Addon: 300}})
    before = comparable(settings)
    Addon().update_settings(settings)
    Addon().update_settings(settings)
    assert comparable(settings) == before


def test_user_choices_win() -> None:
    settings = effective(
        {
            "ADDONS": {"newsspider.Addon": 300},
            "ITEM_PIPELINES": {"newsspider.pipelines.ArticlePipeline": 700},
            "FEED_EXPORT_ENCODING": "latin-1",
        }
    )
    pipelines = components(settings, "ITEM_PIPELINES")
    assert pipelines.count((ArticlePipeline, 700)) == 1
    assert all(cls is not ArticlePipeline or prio == 700 for cls, prio in pipelines)
    assert settings["FEED_EXPORT_ENCODING"] == "latin-1"


def test_addon_writes_no_newsspider_settings() -> None:
    settings = effective({"ADDONS": {Addon: 300}})
    assert not [name for name in settings if name.startswith("NEWSSPIDER_")]


def test_addon_adds_the_bundled_spiders_after_the_project_ones() -> None:
    alone = effective({"ADDONS": {Addon: 300}})
    assert alone.getlist("SPIDER_MODULES") == ["newsspider.spiders"]
    project = effective({"ADDONS": {Addon: 300}, "SPIDER_MODULES": ["myproject.spiders"]})
    assert project.getlist("SPIDER_MODULES") == ["myproject.spiders", "newsspider.spiders"]
    listed = effective(
        {"ADDONS": {Addon: 300}, "SPIDER_MODULES": ["newsspider.spiders", "myproject.spiders"]}
    )
    assert listed.getlist("SPIDER_MODULES") == ["newsspider.spiders", "myproject.spiders"]
    opted_out = effective(
        {
            "ADDONS": {Addon: 300},
            "SPIDER_MODULES": ["myproject.spiders"],
            "NEWSSPIDER_BUNDLED_SPIDERS": False,
        }
    )
    assert opted_out.getlist("SPIDER_MODULES") == ["myproject.spiders"]

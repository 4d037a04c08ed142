"""Near-duplicate bodies (`newsspider.near_duplicates`) and the URL key's tracker list."""

from __future__ import annotations

import pickle
import random
from types import SimpleNamespace
from typing import Any

import pytest
from scrapy.exceptions import DropItem, NotConfigured
from scrapy.settings import Settings

pytest.importorskip("datasketch")

from newsspider.items import ArticleItem
from newsspider.near_duplicates import (
    STATE_KEY,
    NearDuplicateIndex,
    NearDuplicatePipeline,
)
from newsspider.spiders.filters import url_key

_WORDS = (
    "council river bridge storm market school budget mayor police hospital train station "
    "harbour festival library museum court election tax road water power farm forest "
    "village teacher doctor nurse engineer report plan vote meeting week year morning evening "
    "north south east west old new small large early late open closed public private"
).split()


def story(seed: int, sentences: int = 14) -> str:
    """A made-up article: sentences of random words (distinct per seed)."""
    rng = random.Random(seed)
    lines = []
    for _ in range(sentences):
        words = [rng.choice(_WORDS) for _ in range(rng.randint(10, 18))]
        lines.append(" ".join(words).capitalize() + ".")
    return " ".join(lines)


def syndicated(body: str, seed: int) -> str:
    """The same story as another site runs it: its own header, footer, byline, small edits."""
    rng = random.Random(seed)
    sentences = body.split(". ")
    del sentences[rng.randrange(len(sentences))]
    words = ". ".join(sentences).split(" ")
    for _ in range(3):
        words[rng.randrange(len(words))] = "edited"
    return (
        "By Staff Reporter | Metro Wire | 5 March 2024\n"
        + " ".join(words)
        + "\nCopyright 2024 Metro Wire. All rights reserved. Sign up for our newsletter."
    )


def test_an_edited_copy_is_found_and_a_distinct_article_is_not() -> None:
    index = NearDuplicateIndex(threshold=0.4)
    assert index.check("https://a.example/original", story(1)) is None
    assert index.check("https://b.example/other", story(2)) is None
    assert index.check("https://c.example/copy", syndicated(story(1), 7)) == (
        "https://a.example/original"
    )
    assert len(index) == 2  # the copy is not remembered itself


def test_short_bodies_are_not_compared() -> None:
    index = NearDuplicateIndex()
    assert index.check("https://a.example/1", "Photo: the river at dawn.") is None
    assert index.check("https://a.example/2", "Photo: the river at dawn.") is None
    assert len(index) == 0


def test_memory_is_bounded_by_forgetting_the_oldest() -> None:
    index = NearDuplicateIndex(threshold=0.4, max_pages=3)
    for i in range(5):
        index.check(f"https://a.example/{i}", story(100 + i))
    assert len(index) == 3
    # The first two were forgotten: their copies pass; a recent one's copy is caught.
    assert index.check("https://z.example/0", syndicated(story(100), 1)) is None
    assert index.check("https://z.example/4", syndicated(story(104), 1)) == "https://a.example/4"


def _crawler(state: dict[str, Any] | None, **settings: Any) -> Any:
    values = {"NEWSSPIDER_NEAR_DUPLICATES": "flag", **settings}
    stats = SimpleNamespace(counts={})
    stats.inc_value = lambda key: stats.counts.__setitem__(key, stats.counts.get(key, 0) + 1)
    spider = SimpleNamespace(state=state) if state is not None else None
    return SimpleNamespace(settings=Settings(values), stats=stats, spider=spider)


def test_the_pipeline_is_off_by_default_and_checks_its_mode() -> None:
    with pytest.raises(NotConfigured):
        NearDuplicatePipeline.from_crawler(_crawler(None, NEWSSPIDER_NEAR_DUPLICATES=None))
    with pytest.raises(NotConfigured, match="flag"):
        NearDuplicatePipeline.from_crawler(_crawler(None, NEWSSPIDER_NEAR_DUPLICATES="maybe"))


def test_flag_mode_names_the_earlier_url() -> None:
    crawler = _crawler(None)
    pipeline = NearDuplicatePipeline.from_crawler(crawler)
    first = pipeline.process_item(ArticleItem(url="https://a.example/1", body=story(3)))
    assert first.duplicate_of is None
    copy = pipeline.process_item(
        ArticleItem(url="https://b.example/9", body=syndicated(story(3), 2))
    )
    assert copy.duplicate_of == "https://a.example/1"
    other = pipeline.process_item(ArticleItem(url="https://b.example/10", body=story(4)))
    assert other.duplicate_of is None
    assert crawler.stats.counts == {"newsspider/near_duplicates/count": 1}


def test_drop_mode_drops_the_copy() -> None:
    crawler = _crawler(None, NEWSSPIDER_NEAR_DUPLICATES="drop")
    pipeline = NearDuplicatePipeline.from_crawler(crawler)
    pipeline.process_item(ArticleItem(url="https://a.example/1", body=story(5)))
    with pytest.raises(DropItem, match=r"Near duplicate of https://a\.example/1"):
        pipeline.process_item(ArticleItem(url="https://b.example/2", body=syndicated(story(5), 3)))
    assert crawler.stats.counts["newsspider/dropped/reason_count/near_duplicate"] == 1


def test_a_resumed_job_remembers_the_bodies_of_its_earlier_run() -> None:
    # With JOBDIR, Scrapy pickles spider.state at the end of a run and restores it on resume.
    state: dict[str, Any] = {}
    first = NearDuplicatePipeline.from_crawler(_crawler(state))
    first.open_spider()
    first.process_item(ArticleItem(url="https://a.example/1", body=story(6)))
    first.close_spider()
    assert STATE_KEY in state
    resumed = NearDuplicatePipeline.from_crawler(_crawler(pickle.loads(pickle.dumps(state))))
    item = resumed.process_item(
        ArticleItem(url="https://b.example/2", body=syndicated(story(6), 4))
    )
    assert item.duplicate_of == "https://a.example/1"


def test_the_addon_adds_the_pipeline_only_when_asked() -> None:
    from newsspider import Addon

    off = Settings()
    Addon().update_settings(off)
    assert NearDuplicatePipeline not in off.getdict("ITEM_PIPELINES")
    on = Settings({"NEWSSPIDER_NEAR_DUPLICATES": "drop"})
    Addon().update_settings(on)
    assert on.getdict("ITEM_PIPELINES")[NearDuplicatePipeline] == 850


@pytest.mark.parametrize(
    "tracked",
    [
        "https://news.example/a/?_ga=2.1234.5678&igshid=abc",
        "https://news.example/a?mkt_tok=xyz&_hsenc=p2&_hsmi=9",
        "https://news.example:443/a?oly_enc_id=1&oly_anon_id=2&mc_cid=3&mc_eid=4",
        "https://www.news.example/a?UTM_Source=feed&utm_whatever=1&fbclid=1&gclid=2&msclkid=3",
        "https://news.example/a#comments",
    ],
)
def test_the_url_key_drops_trackers_and_default_ports(tracked: str) -> None:
    assert url_key(tracked) == url_key("https://news.example/a")


def test_the_url_key_keeps_what_selects_content() -> None:
    assert url_key("https://news.example/a?id=2&_ga=1") == url_key("https://news.example/a?id=2")
    assert url_key("https://news.example/a?id=2") != url_key("https://news.example/a?id=3")
    assert url_key("http://news.example:80/a") == url_key("http://news.example/a")
    assert url_key("https://news.example:8443/a") != url_key("https://news.example/a")
    assert url_key("http://news.example:443/a") != url_key("http://news.example/a")
    assert url_key("http://news.example:abc/a") == "http://news.example:abc/a"  # no crash

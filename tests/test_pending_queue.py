"""The pending queue of a shared crawl against a real ``redis-server``: a popped request stays
in Redis until acknowledged, goes back as it was when its worker is dead, and the bookkeeping
that decides when Scrapy is done with a request (newsspider/distributed/pending.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from scrapy import Request, Spider
from scrapy.utils.test import get_crawler
from support.redis_server import redis_server

from newsspider.distributed.pending import (
    TOKEN_META,
    DeadWorkers,
    PendingPriorityQueue,
    reclaim,
    tracker_for,
)

KEY = "test:requests"
WORKERS = "test:workers"


class _Spider(Spider):
    name = "pending"

    def parse(self, response: Any) -> None:
        pass


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    with redis_server() as url:
        yield url


@pytest.fixture
def client(redis_url: str) -> Any:
    import redis

    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    return client


def _queue(client: Any) -> PendingPriorityQueue:
    crawler = get_crawler(_Spider)
    spider = _Spider.from_crawler(crawler)
    return PendingPriorityQueue(client, spider, KEY)


def _request(spider: Spider, url: str, priority: int = 0) -> Request:
    return Request(url, callback=spider.parse, priority=priority)  # type: ignore[attr-defined]


def test_popped_request_stays_pending_until_acknowledged(client: Any) -> None:
    queue = _queue(client)
    queue.push(_request(queue.spider, "https://a.example/low", priority=0))
    queue.push(_request(queue.spider, "https://a.example/high", priority=5))
    request = queue.pop()
    assert request.url == "https://a.example/high"  # priority order, as scrapy-redis
    token = request.meta[TOKEN_META]
    assert token.startswith(queue.worker_id + " ")
    assert len(queue) == 1 and queue.pending() == 1
    queue.ack(token)
    assert queue.pending() == 0
    assert queue.pop().url == "https://a.example/low"
    assert queue.pop() is None


def test_pop_sent_again_with_its_token_answers_the_same_request(client: Any) -> None:
    queue = _queue(client)
    for n in range(3):
        queue.push(_request(queue.spider, f"https://a.example/{n}"))
    # What redis-py's Retry does when the reply to a pop was lost: the same script, same token.
    first = queue._pop(keys=[queue.key, queue.pending_key], args=["w 1"])
    again = queue._pop(keys=[queue.key, queue.pending_key], args=["w 1"])
    assert first == again
    assert len(queue) == 2 and queue.pending() == 1


def test_retry_of_a_pending_request_replaces_it(client: Any) -> None:
    queue = _queue(client)
    queue.push(_request(queue.spider, "https://a.example/x"))
    request = queue.pop()
    retry = request.replace(dont_filter=True)  # RetryMiddleware: a copy, with the meta
    retry.meta["retry_times"] = 1
    queue.push(retry)
    assert queue.pending() == 0 and len(queue) == 1
    again = queue.pop()
    assert again.meta["retry_times"] == 1
    assert again.meta[TOKEN_META] != request.meta[TOKEN_META]


def test_dead_worker_requests_go_back_as_they_were(client: Any) -> None:
    dead, alive = _queue(client), _queue(client)
    for n, priority in enumerate((3, 1, 2)):
        dead.push(_request(dead.spider, f"https://a.example/{n}", priority=priority))
    taken = [dead.pop(), dead.pop()]
    assert {r.url for r in taken} == {"https://a.example/0", "https://a.example/2"}
    client.hset(WORKERS, dead.worker_id, "beat-1")
    now = [100.0]
    watch = DeadWorkers(dead_after=10, clock=lambda: now[0])
    assert reclaim(alive, WORKERS, watch) == 0  # first sight: not dead yet
    now[0] += 4
    client.hset(WORKERS, dead.worker_id, "beat-2")  # still beating
    assert reclaim(alive, WORKERS, watch) == 0
    for _ in range(2):
        now[0] += 4.5
        assert reclaim(alive, WORKERS, watch) == 0  # unchanged for 4.5 s, then 9 s
    now[0] += 1.5
    assert reclaim(alive, WORKERS, watch) == 2  # unchanged for 10.5 s: dead
    assert alive.pending() == 0 and not client.hexists(WORKERS, dead.worker_id)
    # Back with their priorities: the highest first.
    assert [alive.pop().url for _ in range(3)] == [
        "https://a.example/0",
        "https://a.example/2",
        "https://a.example/1",
    ]


def test_a_gap_in_looking_forgets_what_was_seen() -> None:
    now = [0.0]
    watch = DeadWorkers(dead_after=10, clock=lambda: now[0])
    assert watch.dead(["w"], {"w": b"old"}) == []
    now[0] += 20  # this worker could not look for 20 s (Redis was away): no verdict yet
    assert watch.dead(["w"], {"w": b"old"}) == []
    for _ in range(10):
        now[0] += 1
        verdict = watch.dead(["w"], {"w": b"old"})
    assert verdict == ["w"]  # unchanged for 10 s of looking: dead


def test_request_is_acknowledged_when_its_outputs_are_done(client: Any) -> None:
    queue = _queue(client)
    tracker = tracker_for(queue.spider.crawler)
    queue.push(_request(queue.spider, "https://a.example/page"))
    request = queue.pop()
    token = request.meta[TOKEN_META]

    class Response:
        meta = request.meta

    tracker.output_started(token)
    tracker.output_item(token)
    child = _request(queue.spider, "https://a.example/child")
    tracker.output_request(token, child)
    tracker.output_finished(token)  # the callback's output is consumed ...
    assert queue.pending() == 1  # ... but an item and a request are still on their way
    tracker.item_done(Response())
    assert queue.pending() == 1
    queue.push(child)  # the child reaches the queue: nothing of the page is left in memory
    assert queue.pending() == 0
    assert tracker.open == {}
    # A download that failed for good ends its request at once.
    failed = queue.pop()
    assert failed.url == "https://a.example/child" and queue.pending() == 1
    tracker.finished(failed.meta[TOKEN_META])
    assert queue.pending() == 0

"""A shared crawl that survives faults: a worker killed with SIGKILL mid-crawl, and Redis
restarted mid-crawl (persistence on), against real ``redis-server`` and ``scrapy crawl``
processes and a loopback site that counts every fetch.

Slow (about a minute together): skipped unless ``NEWSSPIDER_SLOW_TESTS=1``, which ``.ci/run``
sets for this file. Without ``redis-server`` they skip with the reason (fail under CI=true).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support.news_site import NewsSite, serve_news_site
from support.redis_persistent import persistent_redis
from support.site_worker import start_site_worker

KEY = "newsspider:site"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        os.environ.get("NEWSSPIDER_SLOW_TESTS") != "1",
        reason="about a minute: set NEWSSPIDER_SLOW_TESTS=1",
    ),
]


def _worker(out: Path, redis_url: str) -> subprocess.Popen[str]:
    out.mkdir(exist_ok=True)
    return start_site_worker(out, redis_url, NEWSSPIDER_REDIS_DEAD_AFTER=3)


def _wait(workers: list[subprocess.Popen[str]], timeout: float = 150) -> list[str]:
    errors = []
    for worker in workers:
        try:
            _, stderr = worker.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            worker.kill()
            _, stderr = worker.communicate()
        errors.append((stderr or "")[-3000:])
    return errors


def _until(condition: Callable[[], bool], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("the crawl did not get there in time")
        time.sleep(0.02)


def _urls(*outs: Path) -> list[str]:
    urls = []
    for out in outs:
        path = out / "items.jsonl"
        if path.exists():
            # Every line whole: a killed worker leaves no half-written record.
            urls += [json.loads(line)["url"] for line in path.read_text("utf-8").splitlines()]
    return urls


def _held(client: Any, pid: int) -> int:
    """Requests pending under a worker of this process id (worker ids: host:pid:suffix)."""
    return sum(
        1 for token in client.hkeys(f"{KEY}:requests:pending") if f":{pid}:".encode() in token
    )


def _lines_written(out: Path) -> int:
    path = out / "items.jsonl"
    return path.read_bytes().count(b"\n") if path.exists() else 0


def _stats(out: Path) -> dict[str, Any]:
    stats: dict[str, Any] = json.loads((out / "stats.json").read_text())
    return stats


def _article_hits(site: NewsSite) -> int:
    return sum(site.hits.get(path, 0) for path in site.articles)


def _assert_done(client: Any) -> None:
    """Nothing queued, nothing pending, no worker registered."""
    assert client.zcard(f"{KEY}:requests") == 0
    assert client.hlen(f"{KEY}:requests:pending") == 0
    assert client.hlen(f"{KEY}:workers") == 0


def test_worker_killed_mid_crawl_then_restarted(tmp_path: Path) -> None:
    import redis

    with persistent_redis(tmp_path) as server, serve_news_site(count=200, delay=0.1) as site:
        client = redis.Redis.from_url(server.url)
        a, b = tmp_path / "a", tmp_path / "b"
        first, peer = _worker(a, server.url), _worker(b, server.url)
        client.lpush(f"{KEY}:start_urls", site.url + "/")
        # Mid-crawl: the worker to kill has exported articles and holds requests it has taken
        # (pages in flight).
        _until(
            lambda: (
                _article_hits(site) >= 50
                and _lines_written(a) >= 10
                and _held(client, first.pid) > 0
            )
        )
        first.send_signal(signal.SIGKILL)
        taken = _held(client, first.pid)
        first.wait()
        killed_urls = _urls(a)
        again = _worker(a, server.url)  # the same command again, appending to the same file
        errors = _wait([peer, again])
        hits = dict(site.hits)
        assert [peer.returncode, again.returncode] == [0, 0], errors
        stats = [_stats(b), _stats(a)]
        urls = _urls(a, b)
        expected = {site.url + path for path in site.articles}
        # Every article exactly once in the union of the outputs (the killed worker's included).
        assert sorted(urls) == sorted(expected)
        assert killed_urls, "the killed worker had exported some articles"
        # No request lost: every page fetched; none more than twice.
        pages = [path for path in site.pages if path != "/robots.txt"]
        assert all(hits.get(path, 0) >= 1 for path in pages)
        assert max(hits.get(path, 0) for path in pages) <= 2
        reclaimed = sum(s.get("newsspider/shared_crawl/reclaimed_count", 0) for s in stats)
        assert taken > 0
        assert reclaimed >= taken  # the dead worker's requests went back into the queue
        assert all(s["finish_reason"] == "finished" for s in stats)
        _assert_done(client)
        twice = sum(1 for path in pages if hits.get(path, 0) == 2)
        print(f"\nkilled holding {taken} requests; reclaimed {reclaimed}; fetched twice {twice};"
              f" items {len(urls)} of {len(expected)}")  # fmt: skip

        # Exactly-once items even when every request is fetched again: forget the seen-set and
        # crawl the site once more. Each page is fetched a second time; no item is exported.
        client.delete(f"{KEY}:dupefilter")
        c = tmp_path / "c"
        rerun = _worker(c, server.url)
        client.lpush(f"{KEY}:start_urls", site.url + "/")
        errors = _wait([rerun])
        assert rerun.returncode == 0, errors
        assert _urls(c) == []
        assert _stats(c).get("newsspider/shared_crawl/duplicate_item_count") == len(expected)
        assert all(site.hits[path] >= hits.get(path, 0) + 1 for path in pages)
        _assert_done(client)


def test_redis_restarted_mid_crawl(tmp_path: Path) -> None:
    import redis

    data = tmp_path / "redis"
    data.mkdir()
    with persistent_redis(data) as server, serve_news_site(count=200, delay=0.1) as site:
        client = redis.Redis.from_url(server.url)
        outs = [tmp_path / "a", tmp_path / "b"]
        workers = [_worker(out, server.url) for out in outs]
        client.lpush(f"{KEY}:start_urls", site.url + "/")
        _until(lambda: _article_hits(site) >= 50)
        server.stop()
        time.sleep(3)  # the workers meet refused connections meanwhile
        assert all(worker.poll() is None for worker in workers), "a worker gave up"
        server.start()
        errors = _wait(workers)
        hits = dict(site.hits)
        assert [w.returncode for w in workers] == [0, 0], errors
        urls = _urls(*outs)
        expected = {site.url + path for path in site.articles}
        assert sorted(urls) == sorted(expected)
        pages = [path for path in site.pages if path != "/robots.txt"]
        assert all(hits.get(path, 0) >= 1 for path in pages)
        assert max(hits.get(path, 0) for path in pages) <= 2
        logs = [(out / "crawl.log").read_text("utf-8") for out in outs]
        assert all("Redis is unreachable" in log for log in logs)
        assert all(_stats(out)["finish_reason"] == "finished" for out in outs)
        _assert_done(redis.Redis.from_url(server.url))
        twice = sum(1 for path in pages if hits.get(path, 0) == 2)
        print(f"\nRedis down 3 s; items {len(urls)} of {len(expected)}; fetched twice {twice}")

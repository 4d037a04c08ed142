"""The offline demo: the sample site is sound and ``python -m newsspider demo`` writes JSONL."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from lxml import etree

from newsspider.demo.site import build_site

ROOT = Path(__file__).resolve().parent.parent


def test_site_is_deterministic_and_big_enough() -> None:
    one, two = build_site("http://a.example"), build_site("http://a.example")
    assert one.pages == two.pages
    assert len(one.articles) >= 40
    assert {a.lang for a in one.articles} == {"en", "zh", "ru"}
    assert len({a.body for a in one.articles}) == len(one.articles)
    assert all(len(a.paragraphs) >= 3 for a in one.articles)


def test_site_pages_parse_and_feeds_are_xml() -> None:
    site = build_site("http://a.example")
    for path, page in site.pages.items():
        if page.content_type.startswith("text/html"):
            assert etree.fromstring(page.body, etree.HTMLParser()) is not None, path
    for url in site.feed_urls:
        etree.fromstring(site.pages[url.removeprefix(site.base_url)].body)
    assert "年" in site.pages[site.articles[16].path].body.decode()
    assert site.lookup("/en/?utm_source=x") is site.pages["/en/"]


def test_demo_writes_valid_jsonl(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "newsspider", "demo", "--out", str(tmp_path), "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    summary = json.loads(proc.stdout)
    assert set(summary["per_spider"]) == {"feed", "sitemap", "site"}
    merged = tmp_path / "items.jsonl"
    records = [json.loads(line) for line in merged.read_text(encoding="utf-8").splitlines()]
    assert len(records) == summary["articles"]
    for name in ("feed", "sitemap", "site"):
        assert (tmp_path / f"{name}.jsonl").exists()
    assert summary["drops"].get("robots_txt") == 1

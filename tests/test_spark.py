"""The Spark job (`newsspider.spark`) in local mode gives the records `newsspider warc` gives on
the same files: same fields in the same order, same values, same skips.

Needs pyspark (``pip install 'newsspider[spark]'``) and Java 17+: skipped with the reason when
either is missing (a failure under CI=true, where ``.ci/run`` installs both). Slow (a JVM
start, about half a minute): skipped unless ``NEWSSPIDER_SLOW_TESTS=1``, which ``.ci/run``
sets for this file.
"""

from __future__ import annotations

import json
import os
import shutil
from collections import Counter
from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from support.services import missing_service
from support.warcs import Response, write_warc

from newsspider.cli import main
from newsspider.demo.site import build_site
from newsspider.warc import WarcArticleItem

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        os.environ.get("NEWSSPIDER_SLOW_TESTS") != "1",
        reason="a JVM start: set NEWSSPIDER_SLOW_TESTS=1",
    ),
]


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    try:
        import pyspark  # noqa: F401
    except ImportError:
        missing_service("pyspark is not installed (pip install 'newsspider[spark]')")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        missing_service("Java is not installed (Debian: apt-get install default-jre-headless)")
    from newsspider.spark import spark_session

    session = spark_session("local[2]")
    yield session
    session.stop()


def _warcs(tmp_path: Path) -> list[Path]:
    site = build_site("http://news.example")
    pages = [Response(article.url, site.pages[article.path].body) for article in site.articles[:12]]
    listing = next(iter(p for p in site.pages.values() if b"<ul" in p.body))
    noise = [
        Response("http://news.example/logo.png", b"\x89PNG\r\n", "image/png"),
        Response("http://news.example/gone", b"<p>Not found</p>", status="404 Not Found"),
        Response("http://news.example/list", listing.body),  # low confidence: dropped
    ]
    first = write_warc(tmp_path / "a.warc.gz", [*pages[:5], *noise, *pages[5:8]])
    second = write_warc(tmp_path / "b.warc.gz", [*pages[8:], pages[0]])
    return [first, second]


def _key(row: dict[str, Any]) -> tuple[str, int]:
    return (str(row["warc_file"]), int(row["warc_offset"]))


def test_spark_records_are_the_warc_command_records(spark: Any, tmp_path: Path) -> None:
    from newsspider.spark import ARTICLE_SCHEMA, SkipCounts, extract_warcs

    warcs = _warcs(tmp_path)
    paths = [str(path) for path in warcs]
    out = tmp_path / "warc.jsonl"
    # The command itself, two workers (each file split between them by byte ranges).
    assert main(["warc", *paths, "-o", str(out), "--jobs", "2", "--no-progress"]) == 0
    expected = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    skipped: Counter[str] = Counter()
    for line in Path(f"{out}.done").read_text("utf-8").splitlines():  # per file, by reason
        skipped.update(json.loads(line)["skipped"])
    assert skipped["low_confidence"] >= 1  # the listing page: a skip to compare

    names = [f.name for f in fields(WarcArticleItem)]
    assert ARTICLE_SCHEMA.fieldNames() == names

    for shards in (1, 2):  # a partition per file, and per byte range of each file
        skips = spark.sparkContext.accumulator({}, SkipCounts())
        frame = extract_warcs(spark, paths, shards_per_file=shards, min_confidence=0.3, skips=skips)
        assert frame.rdd.getNumPartitions() == len(paths) * shards
        rows = [row.asDict(recursive=True) for row in frame.collect()]
        assert all(list(row) == names for row in rows)  # same fields, same order
        assert sorted(rows, key=_key) == sorted(expected, key=_key)  # same values
        assert skips.value == dict(skipped)  # same skips

    # The same from a DataFrame of paths, and through the JSON writer of the command-line job.
    listing = spark.createDataFrame([(p,) for p in paths], "path string")
    frame = extract_warcs(listing)
    frame.write.option("ignoreNullFields", "false").json(str(tmp_path / "spark-jsonl"))
    written = [
        json.loads(line)
        for part in sorted((tmp_path / "spark-jsonl").glob("part-*"))
        for line in part.read_text("utf-8").splitlines()
    ]
    assert sorted(written, key=_key) == sorted(expected, key=_key)

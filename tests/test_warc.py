"""WARC batch extraction: records read with FastWARC, provenance, charset, sharding, the
`newsspider warc` command with a process pool, errors that stay per record, and resume."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import fields
from pathlib import Path

import pytest
from fastwarc.warc import ArchiveIterator, WarcRecordType
from support.warcs import Response, write_warc

from newsspider.cli import main
from newsspider.demo.site import DemoSite, build_site
from newsspider.items import ArticleItem
from newsspider.warc import WarcArticleItem, iter_articles, iter_pages, records, run_batch

PROVENANCE = ["warc_record_id", "warc_date", "warc_file", "warc_offset"]


@pytest.fixture(scope="module")
def site() -> DemoSite:
    return build_site("http://news.example")


def _articles(site: DemoSite, start: int, stop: int) -> list[Response]:
    return [
        Response(article.url, site.pages[article.path].body)
        for article in site.articles[start:stop]
    ]


def _noise() -> list[Response]:
    """Responses that are no article: not HTML, not 2xx."""
    return [
        Response("http://news.example/logo.png", b"\x89PNG\r\n", "image/png"),
        Response("http://news.example/gone", b"<p>Not found</p>", status="404 Not Found"),
        Response("http://news.example/moved", b"", None, status="301 Moved Permanently"),
    ]


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_iter_articles_keeps_html_2xx_with_provenance(tmp_path: Path, site: DemoSite) -> None:
    pages = _articles(site, 0, 5)
    warc = write_warc(tmp_path / "a.warc.gz", [*pages[:2], *_noise(), *pages[2:]])
    skipped: Counter[str] = Counter()
    items = list(iter_articles(warc, skipped=skipped))
    assert [item.url for item in items] == [page.url for page in pages]
    assert skipped == {"not_html": 1, "not_2xx": 2}
    assert len({item.warc_record_id for item in items}) == 5
    for item, article in zip(items, site.articles, strict=False):
        assert isinstance(item, WarcArticleItem)
        assert item.title == article.title
        assert item.warc_file == str(warc)
        assert item.warc_date is not None and item.fetched_at == item.warc_date
    # The offset leads back to the very record.
    with open(warc, "rb") as stream:
        stream.seek(items[3].warc_offset)
        record = next(iter(ArchiveIterator(stream, record_types=WarcRecordType.response)))
        assert record.record_id == items[3].warc_record_id


def test_header_charset_and_content_encoding_are_used(tmp_path: Path) -> None:
    title = "市议会通过新的公共交通预算方案"
    paragraph = "市议会周三以多数票通过了新的公共交通预算，城市北部将增加三条公交线路。" * 8
    page = (
        f"<html><head><title>{title}</title></head><body><article><h1>{title}</h1>"
        + f"<p>{paragraph}</p>" * 4
        + "</article></body></html>"
    ).encode("gbk")  # no <meta charset>: only the HTTP header says GBK
    warc = write_warc(
        tmp_path / "zh.warc.gz",
        [
            Response("http://news.example/zh/1", page, "text/html; charset=gbk"),
            Response("http://news.example/zh/2", page, "text/html; charset=GBK", gzip=True),
        ],
    )
    items = list(iter_articles(warc))
    assert [item.title for item in items] == [title, title]
    assert all(paragraph[:20] in item.body for item in items)
    assert [p.encoding for p in iter_pages(warc)] == ["gbk", "gbk"]


def test_shards_split_a_file_without_overlap(tmp_path: Path, site: DemoSite) -> None:
    warc = write_warc(tmp_path / "a.warc.gz", [*_articles(site, 0, 7), *_noise()])
    every = [page.record_id for page in iter_pages(warc)]
    first = [page.record_id for page in iter_pages(warc, shard=0, shards=2)]
    second = [page.record_id for page in iter_pages(warc, shard=1, shards=2)]
    assert len(every) == 7
    assert sorted(first + second) == sorted(every)
    assert first and second and not set(first) & set(second)


def test_gzip_shards_are_byte_ranges_in_file_order(tmp_path: Path, site: DemoSite) -> None:
    """Each shard of a gzipped WARC is a contiguous run of records (its own bytes only are
    decompressed), so the shards, one after the other, are the file in order."""
    warc = write_warc(tmp_path / "a.warc.gz", _articles(site, 0, 12))
    every = [page.record_id for page in iter_pages(warc)]
    for shards in (2, 3, 5):
        parts = [[p.record_id for p in iter_pages(warc, shard=i, shards=shards)]
                 for i in range(shards)]  # fmt: skip
        assert [rid for part in parts for rid in part] == every
        assert sum(1 for part in parts if part) >= 2


def test_one_member_gzip_file_is_read_whole_by_the_first_shard(
    tmp_path: Path, site: DemoSite
) -> None:
    """A WARC compressed as a single gzip member has no record boundary to cut at."""
    import gzip

    members = write_warc(tmp_path / "a.warc.gz", _articles(site, 0, 6)).read_bytes()
    single = tmp_path / "single.warc.gz"
    single.write_bytes(gzip.compress(gzip.decompress(members)))
    every = [page.record_id for page in iter_pages(single)]
    assert len(every) == 6
    assert [p.record_id for p in iter_pages(single, shard=0, shards=2)] == every
    assert list(iter_pages(single, shard=1, shards=2)) == []


def test_truncation_is_found_by_the_shard_that_reads_the_end(
    tmp_path: Path, site: DemoSite
) -> None:
    data = write_warc(tmp_path / "w.warc.gz", _articles(site, 0, 8)).read_bytes()
    cut = tmp_path / "cut.warc.gz"
    cut.write_bytes(data[: len(data) * 7 // 8])
    assert len(list(iter_pages(cut, shard=0, shards=2))) >= 1  # the first half is whole
    with pytest.raises(OSError, match="ends in the middle of a record"):
        list(iter_pages(cut, shard=1, shards=2))


def test_cli_writes_every_article_once_with_two_workers(tmp_path: Path, site: DemoSite) -> None:
    a = write_warc(tmp_path / "a.warc.gz", [*_articles(site, 0, 12), *_noise()])
    b = write_warc(tmp_path / "b.warc.gz", _articles(site, 12, 20))
    out = tmp_path / "out.jsonl"
    code = main(["warc", str(a), str(b), "-o", str(out), "--jobs", "2",
                 "--min-confidence", "0", "--no-progress"])  # fmt: skip
    assert code == 0
    rows = _lines(out)
    assert sorted(r["url"] for r in rows) == sorted(a.url for a in site.articles[:20])
    assert len({r["warc_record_id"] for r in rows}) == 20
    assert list(rows[0]) == [f.name for f in fields(ArticleItem)] + PROVENANCE
    done = _lines(out.with_name("out.jsonl.done"))
    assert {d["file"] for d in done} == {str(a.resolve()), str(b.resolve())}
    assert not out.with_name("out.jsonl.parts").exists()


def test_record_errors_are_counted_not_fatal(
    tmp_path: Path, site: DemoSite, monkeypatch: pytest.MonkeyPatch
) -> None:
    warc = write_warc(tmp_path / "a.warc.gz", _articles(site, 0, 6))
    bad = site.articles[2].url
    real = records.extract_page

    def failing(page: records.WarcPage, **kwargs: object) -> WarcArticleItem:
        if page.url == bad:
            raise RuntimeError("boom")
        return real(page, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr("newsspider.warc.batch.extract_page", failing)
    summary = run_batch([warc], tmp_path / "out.jsonl", jobs=1)
    assert summary.record_errors == 1
    assert summary.first_record_error is not None and bad in summary.first_record_error
    assert len(_lines(tmp_path / "out.jsonl")) == 5
    assert not summary.file_errors


def test_truncated_and_missing_files_are_reported(
    tmp_path: Path, site: DemoSite, capsys: pytest.CaptureFixture[str]
) -> None:
    whole = write_warc(tmp_path / "whole.warc.gz", _articles(site, 0, 6))
    data = whole.read_bytes()
    cut = tmp_path / "cut.warc.gz"
    cut.write_bytes(data[: len(data) * 2 // 3])
    out = tmp_path / "out.jsonl"
    code = main(["warc", str(cut), str(tmp_path / "nope.warc.gz"), str(whole), "-o", str(out),
                 "--jobs", "1", "--min-confidence", "0", "--no-progress"])  # fmt: skip
    assert code == 1
    err = capsys.readouterr().err
    assert "nope.warc.gz: no such file" in err
    assert f"{cut}: the file ends in the middle of a record" in err  # not passed off as complete
    rows = _lines(out)
    from_cut = [r for r in rows if r["warc_file"] == str(cut)]
    assert 1 <= len(from_cut) < 6  # the records before the break are kept
    assert len([r for r in rows if r["warc_file"] == str(whole)]) == 6


def test_resume_after_interruption_writes_each_record_once(
    tmp_path: Path, site: DemoSite, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = write_warc(tmp_path / "a.warc.gz", _articles(site, 0, 8))
    b = write_warc(tmp_path / "b.warc.gz", _articles(site, 8, 16))
    out = tmp_path / "out.jsonl"
    real = records.extract_page

    def interrupted(page: records.WarcPage, **kwargs: object) -> WarcArticleItem:
        if page.url == site.articles[12].url:
            raise KeyboardInterrupt  # Ctrl-C in the middle of the second file
        return real(page, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr("newsspider.warc.batch.extract_page", interrupted)
    first = run_batch([a, b], out, jobs=1)
    assert first.interrupted
    assert len(_lines(out)) == 8  # the first file only: the second was not finished
    with open(out, "a", encoding="utf-8") as stream:
        stream.write('{"half a record')  # as if the run died while appending
    monkeypatch.setattr("newsspider.warc.batch.extract_page", real)
    second = run_batch([a, b], out, jobs=1)
    assert second.already_done == 1 and not second.interrupted
    assert second.pages == 8  # only the unfinished file was read again
    rows = _lines(out)
    assert sorted(r["url"] for r in rows) == sorted(x.url for x in site.articles[:16])
    assert len({r["warc_record_id"] for r in rows}) == 16
    # Done means done: a third run reads nothing.
    third = run_batch([a, b], out, jobs=1)
    assert third.already_done == 2 and third.pages == 0
    assert len(_lines(out)) == 16

"""`newsspider` command line: extract over files, folders, stdin and URLs; schema; bench."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from newsspider.cli import main
from newsspider.demo.site import DemoSite, build_site
from newsspider.items import ArticleItem

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def site() -> DemoSite:
    return build_site("http://news.example")


@pytest.fixture
def pages(tmp_path: Path, site: DemoSite) -> Path:
    """A folder tree of demo article pages, with a non-HTML file mixed in."""
    for article in site.articles[:6]:
        path = (
            tmp_path
            / "pages"
            / article.lang
            / (article.path.strip("/").replace("/", "_") + ".html")
        )
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(site.pages[article.path].body)
    (tmp_path / "pages" / "notes.txt").write_text("not a page", encoding="utf-8")
    return tmp_path / "pages"


def _lines(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_extract_folder_round_trip(pages: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["extract", str(pages), "--no-progress"]) == 0
    records = _lines(capsys.readouterr().out)
    assert len(records) == 6
    assert all(list(r) == list(ArticleItem.__dataclass_fields__) for r in records)
    assert {str(r["url"]).rsplit("/", 1)[-1] for r in records} == {
        p.name for p in pages.rglob("*.html")
    }


def test_extract_stdin_and_min_confidence(site: DemoSite) -> None:
    page = site.pages[site.articles[0].path].body
    proc = subprocess.run(
        [sys.executable, "-m", "newsspider", "extract", "-", "--url", site.articles[0].url],
        input=page, capture_output=True, check=False, cwd=ROOT,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    (record,) = _lines(proc.stdout.decode("utf-8"))
    assert record["url"] == site.articles[0].url
    assert main(["extract", "--min-confidence", "1.5", "-"]) == 2


def test_extract_unreadable_input_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["extract", str(tmp_path / "missing.html")]) == 1
    assert "no such file or folder" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert main(["extract", str(tmp_path / "empty")]) == 1
    assert "no .html/.htm files" in capsys.readouterr().err


@pytest.fixture
def loopback() -> Iterator[DemoSite]:
    from newsspider.demo.server import serve_site

    with serve_site() as served:
        yield served


def test_extract_url_over_loopback(loopback: DemoSite, capsys: pytest.CaptureFixture[str]) -> None:
    article = loopback.articles[3]
    assert main(["extract", article.url]) == 0
    (record,) = _lines(capsys.readouterr().out)
    assert record["url"] == article.url
    assert main(["extract", loopback.base_url + "/nope/"]) == 1
    assert "HTTP 404" in capsys.readouterr().err


def test_schema_lists_the_item_fields(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert list(schema["properties"]) == list(ArticleItem.__dataclass_fields__)
    assert schema["properties"]["authors"] == {
        "type": "array", "items": {"type": "string"},
        "description": schema["properties"]["authors"]["description"],
    }  # fmt: skip


def test_bench_without_a_checkout_says_so(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    code = "import sys; from newsspider.cli import main; sys.exit(main(['bench']))"
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    if proc.returncode != 2:  # `bench` importable in this environment: nothing to check
        pytest.skip("bench is importable here")
    assert "source checkout" in proc.stderr


def test_extract_with_each_algorithm(pages: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from newsspider import ALGORITHMS

    page = next(iter(sorted(pages.rglob("*.html"))))
    bodies = {}
    for algorithm in ALGORITHMS:
        assert main(["extract", str(page), "--no-progress", "--algorithm", algorithm]) == 0
        (record,) = _lines(capsys.readouterr().out)
        bodies[algorithm] = str(record["body"])
    # Every method finds text on a plain demo article; they are not all the same method.
    assert all(len(body) > 200 for body in bodies.values()), bodies
    assert len(set(bodies.values())) > 1
    with pytest.raises(SystemExit):
        main(["extract", str(page), "--algorithm", "no-such-method"])

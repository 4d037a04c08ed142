"""Every command-line error is one line on stderr that names the input and says what to do, with
the documented exit status (1: an input could not be read; 2: a usage error, found before any
work starts). Issue 33's cases, each failing before it was fixed."""

from __future__ import annotations

from pathlib import Path

import pytest

from newsspider.cli import _parser, main
from newsspider.demo.site import build_site

OutErr = pytest.CaptureFixture[str]


def _one_line(capsys: OutErr, *needles: str) -> str:
    """The captured stderr: exactly one line, holding every needle, no traceback."""
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def warc(tmp_path: Path) -> Path:
    pytest.importorskip("fastwarc")
    from support.warcs import Response, write_warc

    site = build_site("http://news.example")
    article = site.articles[0]
    return write_warc(
        tmp_path / "a.warc.gz", [Response(article.url, site.pages[article.path].body)]
    )


@pytest.mark.parametrize("command", ["extract", "explain"])
def test_malformed_ipv6_url(command: str, capsys: OutErr) -> None:
    assert main([command, "http://[::1"]) == 1
    _one_line(capsys, "http://[::1", "not a valid URL", "check it")


def test_url_with_a_space(capsys: OutErr) -> None:
    assert main(["extract", "http://exa mple.com/"]) == 1
    _one_line(capsys, "http://exa mple.com/", "space", "%20")


def test_url_without_a_host_is_not_fetched(capsys: OutErr) -> None:
    assert main(["extract", "http://"]) == 1
    _one_line(capsys, "no host name")


@pytest.mark.parametrize(
    ("url", "needles"),
    [
        ("ftp://files.example/a.html", ("ftp://files.example/a.html", "scheme 'ftp'", "http(s)")),
        ("file:///tmp/a.html", ("file:///tmp/a.html", "give the path itself (/tmp/a.html)")),
    ],
)  # fmt: skip
def test_unsupported_schemes_are_named(url: str, needles: tuple[str, ...], capsys: OutErr) -> None:
    assert main(["extract", url]) == 1
    line = _one_line(capsys, *needles)
    assert "no such file" not in line


@pytest.mark.parametrize("command", ["extract", "explain"])
def test_unknown_encoding_is_a_usage_error(command: str, tmp_path: Path, capsys: OutErr) -> None:
    page = tmp_path / "page.html"
    page.write_bytes(b"<html><body><p>Hello</p></body></html>")
    with pytest.raises(SystemExit) as exit_info:
        main([command, str(page), "--encoding", "nope-enc"])
    assert exit_info.value.code == 2
    _one_line(capsys, "nope-enc", "not an encoding", "--help")
    # A label browsers know is accepted (w3lib maps it to a Python codec).
    assert main([command, str(page), "--encoding", "x-sjis", "--min-confidence", "0"]) == 0


def test_warc_output_in_a_missing_folder(warc: Path, tmp_path: Path, capsys: OutErr) -> None:
    out = tmp_path / "nonexistent" / "dir" / "out.jsonl"
    assert main(["warc", str(warc), "-o", str(out), "--jobs", "1"]) == 2
    _one_line(capsys, str(out), "does not exist", "create it")
    assert not out.parent.exists()


def test_warc_output_is_a_folder(warc: Path, tmp_path: Path, capsys: OutErr) -> None:
    folder = tmp_path / "some_folder"
    folder.mkdir()
    assert main(["warc", str(warc), "-o", str(folder), "--jobs", "1"]) == 2
    _one_line(capsys, str(folder), "is a folder", "file name")
    assert list(folder.iterdir()) == []


def test_warc_missing_input_leaves_no_output(warc: Path, tmp_path: Path, capsys: OutErr) -> None:
    out = tmp_path / "out.jsonl"
    missing = tmp_path / "missing.warc.gz"
    assert main(["warc", str(missing), "-o", str(out), "--jobs", "1"]) == 1
    err = capsys.readouterr().err
    assert f"{missing}: no such file" in err
    assert not out.exists()
    assert not out.with_name("out.jsonl.done").exists()
    assert not out.with_name("out.jsonl.parts").exists()


def test_warc_folder_input_is_named_a_folder(warc: Path, tmp_path: Path, capsys: OutErr) -> None:
    folder = tmp_path / "archives"
    folder.mkdir()
    out = tmp_path / "out.jsonl"
    assert main(["warc", str(folder), "-o", str(out), "--jobs", "1"]) == 1
    err = capsys.readouterr().err
    assert f"{folder}: is a folder" in err
    assert "no such file" not in err
    assert not out.exists()
    # With a readable file next to it, the file is read and the folder reported.
    assert main(["warc", str(folder), str(warc), "-o", str(out), "--jobs", "1"]) == 1
    err = capsys.readouterr().err
    assert f"{folder}: is a folder" in err
    assert out.read_text(encoding="utf-8").count("\n") == 1


def test_demo_output_that_cannot_be_made(tmp_path: Path, capsys: OutErr) -> None:
    blocker = tmp_path / "existing_file"
    blocker.write_text("keep me", encoding="utf-8")
    assert main(["demo", "--out", str(blocker)]) == 2
    _one_line(capsys, str(blocker), "is a file", "give a folder")
    assert blocker.read_text(encoding="utf-8") == "keep me"
    below_a_file = blocker / "out"
    assert main(["demo", "--out", str(below_a_file)]) == 2
    _one_line(capsys, str(below_a_file), "cannot create", "another path")


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="needs /proc (Linux)")
def test_demo_output_under_proc(capsys: OutErr) -> None:
    assert main(["demo", "--out", "/proc/nope"]) == 2
    _one_line(capsys, "/proc/nope", "cannot create", "another path")


def test_one_min_confidence_default_for_every_command() -> None:
    from newsspider.settings_defaults import DEFAULTS, MIN_CONFIDENCE

    parser = _parser()
    defaults = {
        parser.parse_args(["extract", "x"]).min_confidence,
        parser.parse_args(["explain", "x"]).min_confidence,
        parser.parse_args(["warc", "x", "-o", "y"]).min_confidence,
    }
    assert defaults == {DEFAULTS[MIN_CONFIDENCE]}


def test_usage_errors_are_one_line(capsys: OutErr) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["extract", "--jobs", "3", "x"])
    assert exit_info.value.code == 2
    _one_line(capsys, "newsspider", "--jobs", "--help")

"""The "this is not text" gate: binary, compressed and noise input is `not_html`, confidence 0.

Every input here would otherwise parse as HTML and yield a "body" of noise (before the gate,
100 kB of random bytes came out as an article with confidence 0.998).
"""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import random
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path

import hypothesis
import pytest
from hypothesis import strategies as st

from newsspider import extract
from newsspider.cli import main
from newsspider.extraction.classify.content_score import score_page
from newsspider.extraction.parse.binary import binary_signature, mostly_not_text

PAGE = (
    "<html><head><title>Budget report</title></head><body><article><h1>Budget report</h1>"
    + "<p>The committee met on Thursday evening and, after a long discussion about the budget, "
    "agreed to publish its full report before the end of the month.</p>"
    * 8
    + "</article></body></html>"
).encode()


def _noise(size: int = 20_000, seed: int = 7) -> bytes:
    return random.Random(seed).randbytes(size)


def _zip(data: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("page.html", data)
    return out.getvalue()


# Each format's real leading bytes (or a real encoder's output) followed by binary.
BINARY_INPUTS = {
    "gzip": gzip.compress(PAGE),
    "zlib": zlib.compress(PAGE),
    "bz2": bz2.compress(PAGE),
    "xz": lzma.compress(PAGE),
    "zip": _zip(PAGE),
    "zstd": b"\x28\xb5\x2f\xfd\x04\x58" + _noise(),
    "7z": b"7z\xbc\xaf\x27\x1c\x00\x04" + _noise(),
    "rar": b"Rar!\x1a\x07\x01\x00" + _noise(),
    "png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + _noise(),
    "jpeg": b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + _noise(),
    "gif": b"GIF89a\x01\x00\x01\x00" + _noise(),
    "webp": b"RIFF\x24\x00\x00\x00WEBPVP8 " + _noise(),
    "tiff": b"II*\x00\x08\x00\x00\x00" + _noise(),
    "pdf": b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n" + _noise(),
    "elf": b"\x7fELF\x02\x01\x01\x00" + _noise(),
    "wasm": b"\x00asm\x01\x00\x00\x00" + _noise(),
    "woff": b"wOFF\x00\x01\x00\x00" + _noise(),
    "woff2": b"wOF2\x00\x01\x00\x00" + _noise(),
    "mp4": b"\x00\x00\x00\x18ftypmp42" + _noise(),
    "ogg": b"OggS\x00\x02" + _noise(),
    "mp3": b"ID3\x04\x00\x00" + _noise(),
    "sqlite": b"SQLite format 3\x00" + _noise(),
    "ole": b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + _noise(),
}


@pytest.mark.parametrize("kind", sorted(BINARY_INPUTS))
def test_binary_signature_is_not_html(kind: str) -> None:
    article = extract(BINARY_INPUTS[kind], url="https://example.org/file")
    assert article.page_type == "not_html"
    assert article.confidence == 0.0
    assert article.body == "" and article.body_html == ""
    assert f"binary-{kind}" in article.warnings


@pytest.mark.parametrize("seed", range(4))
def test_random_bytes_are_not_text(seed: int) -> None:
    article = extract(_noise(100_000, seed))
    assert (article.page_type, article.confidence, article.body) == ("not_html", 0.0, "")
    assert "not-text" in article.warnings


def test_compressed_bytes_without_a_signature_are_not_text() -> None:
    # Raw deflate (no zlib header), as a server that mislabels Content-Encoding sends it.
    raw = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = raw.compress(PAGE * 20) + raw.flush()
    assert binary_signature(data) is None
    article = extract(data + _noise(5000))
    assert (article.page_type, article.confidence) == ("not_html", 0.0)


def test_binary_as_text_is_not_html() -> None:
    # A caller that decoded the bytes itself (latin-1 keeps every byte) passes a str.
    assert extract(BINARY_INPUTS["gzip"].decode("latin-1")).page_type == "not_html"
    noise = _noise(50_000).decode("latin-1")
    assert extract(noise).warnings == ("not-text",)


def test_truncated_binary_keeps_both_warnings() -> None:
    article = extract(BINARY_INPUTS["png"], max_bytes=1000)
    assert article.warnings == ("truncated", "binary-png")


@pytest.mark.parametrize(
    "page",
    [
        PAGE,
        # Text that happens to start like a signature's first letters.
        b"BZh, said the sign. " + PAGE,
        b"ID3 tags explained " + PAGE,
        b"x marks the spot " + PAGE,
        # ISO-2022-JP uses ESC; UTF-16 is half NUL bytes (its BOM says so).
        "<p>日本語のテキストです。</p>".encode("iso2022_jp") + PAGE,
        "\ufeff".encode("utf-16-le") + PAGE.decode().encode("utf-16-le"),
        # A few stray control bytes in a real page.
        PAGE.replace(b"budget", b"bud\x00get", 3),
        # XHTML with an XML declaration; text that opens with a bracket or braces.
        b'<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html>\n' + PAGE,
        b"[Updated] " + PAGE,
        b"{{ title }} " + PAGE,
    ],
)
def test_text_pages_pass_the_gate(page: bytes) -> None:
    article = extract(page)
    assert article.page_type != "not_html"
    assert not any(w.startswith(("binary-", "not-")) for w in article.warnings)
    assert "committee met" in article.body


_ITEM = "<item><title>Budget report</title><description>The committee met.</description></item>"


@pytest.mark.parametrize(
    ("document", "warning"),
    [
        (json.dumps({"title": "Budget report", "body": "The committee met."}), "not-html-json"),
        (json.dumps([{"title": "Budget report"}], indent=2), "not-html-json"),
        (
            f'<?xml version="1.0"?>\n<rss version="2.0"><channel>{_ITEM * 5}</channel></rss>',
            "not-html-feed",
        ),
        (
            '<?xml version="1.0"?><?xml-stylesheet href="/feed.xsl"?><!-- generated -->'
            f'<feed xmlns="http://www.w3.org/2005/Atom"><entry>{_ITEM}</entry></feed>',
            "not-html-feed",
        ),
        (
            f'<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">{_ITEM}</rdf:RDF>',
            "not-html-feed",
        ),
        (
            '\ufeff<?xml version="1.0"?><urlset><url><loc>https://example.com/a</loc></url></urlset>',
            "not-html-sitemap",
        ),
        (
            '<?xml version="1.0"?><sitemapindex><sitemap><loc>x</loc></sitemap></sitemapindex>',
            "not-html-sitemap",
        ),
    ],
)
def test_data_formats_are_not_pages(document: str, warning: str) -> None:
    # A feed given to `extract` as a page came out as an "article" at confidence 0.8; the
    # feed and sitemap parsers are what reads those.
    for given in (document, document.encode("utf-8")):
        article = extract(given)
        assert article.page_type == "not_html"
        assert article.confidence == 0.0
        assert article.body == ""
        assert warning in article.warnings


def test_mostly_not_text_threshold() -> None:
    assert not mostly_not_text("")
    assert not mostly_not_text("plain text " * 100 + "\x00" * 100)
    assert mostly_not_text("plain text " * 10 + "\x01 \ufffd " * 100)
    assert mostly_not_text("\x00" * 5000)


def test_cli_reports_binary_as_not_html(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "page.html").write_bytes(BINARY_INPUTS["gzip"])
    assert main(["extract", str(tmp_path / "page.html"), "--no-progress"]) == 0
    [record] = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line]
    assert (record["page_type"], record["confidence"], record["body"]) == ("not_html", 0.0, "")


def test_a_text_head_before_binary_is_not_text() -> None:
    # A server that prepends an HTML error header to a binary download.
    data = b"<html><head><title>x</title></head><body>" + b" " * 3000 + _noise(30_000)
    assert extract(data).page_type == "not_html"


def test_the_content_filter_agrees_on_data_formats() -> None:
    feed = f'<?xml version="1.0"?><rss version="2.0"><channel>{_ITEM * 40}</channel></rss>'
    verdict = score_page(feed.encode(), "text/html")
    assert not verdict.keep
    assert verdict.reason == "not_html"


# The noise counts' compiled twin (`_utf8_c.noise_runs`) against the regular expressions they
# stand for, on every code point and on generated text.
_NOISE_EDGES = [
    chr(c) for c in (*range(0x21), 0x1B, 0x7E, 0x7F, 0x80, 0x9F, 0xA0, 0xFF, 0x100, 0xFFFC, 0xFFFD)
] + ["\ufffe", "\U0001f600", "\U0010ffff", "a", "é", " ", "\u4e00"]


def _compiled_noise_runs() -> Callable[[str], tuple[int, int]]:
    from newsspider.extraction.parse import binary

    if binary.NOISE_RUNS.built is None:
        pytest.skip("the compiled noise counts are not built here")
    return binary.NOISE_RUNS.built


def test_compiled_noise_counts_match_the_regular_expressions_on_every_code_point() -> None:
    from newsspider.extraction.parse.binary import _noise_runs

    compiled = _compiled_noise_runs()
    for code in range(0x110000):
        char = chr(code)
        assert compiled(char) == _noise_runs(char), hex(code)
    for code in range(0x100):  # the low characters in two- and four-byte strings too
        for text in (chr(code) + "\u4e00", chr(code) + "\U0001f600"):
            assert compiled(text) == _noise_runs(text), hex(code)


@hypothesis.given(st.lists(st.sampled_from(_NOISE_EDGES), max_size=30))
def test_compiled_noise_counts_match_the_regular_expressions_on_generated_text(
    chars: list[str],
) -> None:
    from newsspider.extraction.parse.binary import _noise_runs

    text = "".join(chars)
    assert _compiled_noise_runs()(text) == _noise_runs(text)

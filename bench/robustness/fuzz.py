"""Fuzz `newsspider.extract` for a fixed time: it must never raise and always return a sane Article.

    python -m bench.robustness.fuzz --seconds 600 --seed 1          # random multi-strategy inputs
    python -m bench.robustness.fuzz --seconds 300 --engine atheris  # coverage-guided (atheris)
    python -m bench.robustness.fuzz --seed 1 --replay 12345         # save input 12345 of seed 1
    nice -n 19 python -m bench.robustness.fuzz --inputs 1000000 --workers 8 --seed 2   # resumable

With ``--inputs`` the run is split into chunks of ``--chunk`` input numbers, run by ``--workers``
processes (each at ``--nice`` 19); every finished chunk is appended to
``bench-results/fuzz-progress-seed<S>.jsonl`` with the commit it ran, and the same command run
again skips the chunks already there, so runs can be resumed and summed. Each input's CPU time
is checked against issue 14's bound (`time_bound`: 2 s per MB, at least 50 ms); an input over it
counts only if three more runs are over it too.

Inputs (engine "random"; input ``i`` of seed ``s`` comes from its own RNG, so any input can be
regenerated with ``--replay``):

- ``bytes``: arbitrary bytes, uniform or from an alphabet of markup bytes;
- ``text``: arbitrary ``str`` (lone surrogates, controls, RTL, CJK, emoji), as str or UTF-8;
- ``tag-soup``: random nested tags, attributes (absurd spans, hidden, classes) and texts;
- ``mutate``: the team's fixture pages, the demo site's pages and small pathological pages, with
  1-8 byte and tag mutations (deletions, duplications, splices, truncation, NULs, invalid UTF-8,
  BOMs, unclosed and stray tags, lying meta charsets, XML declarations and entity DTDs, bit
  flips, JSON-LD, date and entity noise);
- ``reencode``: a page re-encoded into gbk, big5, cp1251, koi8-r, shift_jis, euc-kr, utf-16,
  utf-32, … with a truthful, lying or bogus charset declaration and maybe a BOM;
- ``feed``, ``sitemap``, ``json-ld``: structured documents (`bench.robustness.fuzz_documents`):
  RSS, Atom and RDF feeds through `FeedReader`, sitemaps and sitemap indexes through
  `SitemapReader`, and
  pages with JSON-LD through `extract` (its metadata stage).

Every input also gets a random ``encoding=`` (real, wrong or bogus labels), ``algorithm=`` (any
of `newsspider.ALGORITHMS` registered at run time), and sometimes ``max_bytes``, ``url``,
``hints`` and ``reference_time``.

Checks per input: no exception; a well-formed `Article` (types, ``page_type`` in `PAGE_TYPES`,
``confidence`` in [0, 1], JSON-ready); no "internal-error" warning (extract's catch-all: a bug);
every text field encodable as UTF-8 (no lone surrogates) and free of NUL. A failing input is
saved to ``bench-results/fuzz-failures/`` (bytes, plus a JSON with the arguments and the
traceback) for reproduction. Inputs slower than ``--slow`` seconds are saved there too.
"""

from __future__ import annotations

import argparse
import contextlib
import faulthandler
import hashlib
import json
import logging
import os
import random
import resource
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from bench import ROOT
from bench.robustness import fuzz_documents

FAILURES = ROOT / "bench-results" / "fuzz-failures"

# --- vocabularies ---------------------------------------------------------------------------

REAL_ENCODINGS = (
    "utf-8", "gbk", "gb2312", "gb18030", "big5", "big5hkscs", "cp1251", "koi8-r", "koi8-u",
    "shift_jis", "cp932", "euc-jp", "iso2022_jp", "euc-kr", "cp949", "utf-16", "utf-16-le",
    "utf-16-be", "utf-32", "iso-8859-1", "windows-1252", "iso-8859-2", "iso-8859-7", "cp1256",
    "tis-620", "mac-roman", "cp437", "cp037", "utf-7", "ascii", "latin-1", "hz",
)  # fmt: skip
BOGUS_ENCODINGS = (
    "", " ", "x-user-defined", "unknown-8bit", "base64", "hex", "rot13", "zlib", "bz2", "uu",
    "quopri", "idna", "punycode", "undefined", "unicode-escape", "raw_unicode_escape", "mbcs",
    "utf-8-sig", "utf8mb4", "UTF-8\x00", "\x00", "charset=utf-8", "utf-8; foo", "ü", "a" * 300,
    "replacement", "iso-2022-kr", "csISO2022KR", "x-mac-cyrillic", "windows-874",
)  # fmt: skip
TARGET_ENCODINGS = (
    "gbk", "gb18030", "big5", "cp1251", "koi8-r", "shift_jis", "euc-jp", "euc-kr", "utf-16",
    "utf-16-le", "utf-16-be", "utf-32", "iso-8859-5", "cp1252", "iso-8859-7", "utf-8", "utf-7",
    "cp037", "cp866", "mac-cyrillic", "iso2022_jp", "hz",
)  # fmt: skip
BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")
BROKEN_UTF8 = (
    b"\xff", b"\xfe", b"\xc3\x28", b"\xe2\x82", b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xc0\xaf",
    b"\xf8\x88\x80\x80\x80", b"\xf4\x90\x80\x80", b"\x80", b"\xbf\xbf", b"\xe0\x80\xaf",
)  # fmt: skip
TAGS = (
    "html", "head", "body", "title", "meta", "script", "style", "div", "p", "span", "a",
    "article", "section", "main", "header", "footer", "nav", "aside", "h1", "h2", "h3", "ul",
    "ol", "li", "table", "tr", "td", "th", "tbody", "caption", "figure", "figcaption", "img",
    "br", "hr", "pre", "code", "blockquote", "form", "input", "button", "iframe", "svg", "math",
    "time", "font", "b", "i", "em", "strong", "select", "option", "template", "noscript",
    "textarea", "xmp", "plaintext", "frameset", "frame", "object", "embed", "dl", "dt", "dd",
    "x-y", "custom-element", "o:p", "fb:like", "mi", "mo", "annotation", "mjx-container", "",
)  # fmt: skip
UNCLOSED = (
    "<div>", "<p>", "<table>", "<td>", "<ul><li>", "<script>", "<style>", "<textarea>",
    "<title>", "<!--", "<![CDATA[", "<noscript>", "<iframe>", "<svg>", "<math>", "<template>",
    "<select>", "<a href='", '<div class="', "<plaintext>", "<xmp>", "<frameset>", "<?php ",
    "<!DOCTYPE", "<", "</", "<p <p <p",
)  # fmt: skip
ATTRIBUTES = (
    'colspan="999999999"', 'rowspan="2147483648"', 'colspan="-1"', "rowspan=0",
    'class="article-body content"', 'class="comments sidebar"', 'id="main"', "hidden",
    'style="display:none"', 'aria-hidden="true"', 'itemprop="articleBody"',
    'itemtype="http://schema.org/NewsArticle"', 'lang="zh-CN"', 'dir="rtl"',
    'datetime="2024-02-30T25:61:61+99:99"', 'content="9999-99-99"', "class=" + "x " * 500,
    'href="javascript:alert(1)"', 'src="file:///etc/passwd"', 'srcset="a 1x, , ,b 99999w"',
    'class="\u202e\u200b"', 'x="<>"', "a=b=c", '"=""', "=", "class", "class=a class=b",
)  # fmt: skip
ENTITIES = (
    "&#0;", "&#x110000;", "&#xD800;", "&#99999999999999999999;", "&nbsp", "&amp;amp;",
    "&lt;script&gt;", "&bogus;", "&#x;", "&#;", "&", "&&&&", "&#x202e;", "&NotANamedEntity;",
)  # fmt: skip
DATES = (
    "2024-05-20", "2024-02-30", "9999-99-99", "0000-00-00", "1e400", "-1", "", "yesterday",
    "3 hours ago", "2024-05-20T25:61:61+99:99", "99999999999999999999", "20240520", "T",
    "2024-05-20T10:00:00Z", "Mon, 32 Foo 2024 99:99:99 GMT", "２０２４年５月２０日", "١٢/٣/٢٠٢٤",
)  # fmt: skip
TEXT_POOLS = (
    "The committee met on Thursday evening and agreed to publish the report. ",
    "新闻正文内容，记者报道。山区小学开通了远程音乐课。",
    "Текст статьи, новости. Жители района собрались на площади. ",
    "日本語の記事です。東京で会議が開かれました。",
    "مرحبا بالعالم، هذا نص تجريبي. ",
    "\u200b\u200c\u200d\u202e\u2066\ufeff",
    "e\u0301\u0301\u0301\u0301",
    "😀👍🏽🇺🇳",
    "\x00\x01\x08\x0b\x0c\x1f\x7f\x85",
)
URLS = (
    None, "http://example.com/news/2024/05/20/story.html", "https://例え.jp/記事?id=1#top",
    "http://[::1", "javascript:alert(1)", "file:///etc/passwd", "", "http://", "//cdn.x/y",
    "http://example.com/" + "a" * 5000, "http://user:pw@host:99999/p", "\x00http://x/",
    "https://news.example.co.uk/2024/02/30/x",
)  # fmt: skip


# --- one input ------------------------------------------------------------------------------


@dataclass(slots=True)
class FuzzInput:
    strategy: str
    html: bytes | str
    #: "extract", "feed" (`FeedReader`) or "sitemap" (`SitemapReader`; ``url`` is the base).
    target: str = "extract"
    #: For sitemaps: the reader's ``max_urls``.
    max_urls: int = 50_000
    encoding: str | None = None
    url: str | None = None
    algorithm: str = "default"
    #: None means "no limit"; "default" means the argument is not passed.
    max_bytes: int | str | None = "default"
    hints: dict[str, Any] | None = None
    reference_time: datetime | None = None

    def kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "url": self.url,
            "encoding": self.encoding,
            "algorithm": self.algorithm,
            "hints": self.hints,
            "reference_time": self.reference_time,
        }
        if self.max_bytes != "default":
            kwargs["max_bytes"] = self.max_bytes
        return kwargs

    def describe(self) -> dict[str, Any]:
        return {
            "strategy": self.strategy,
            "target": self.target,
            "type": type(self.html).__name__,
            "size": len(self.html),
            "encoding": self.encoding,
            "url": self.url,
            "algorithm": self.algorithm,
            "max_bytes": self.max_bytes,
            "hints": repr(self.hints) if self.hints is not None else None,
            "reference_time": self.reference_time.isoformat() if self.reference_time else None,
        }


# --- seeds ----------------------------------------------------------------------------------


def load_seeds() -> list[bytes]:
    """Fixture pages, the demo site's pages (HTML, feeds, sitemaps) and small hostile pages."""
    seeds: list[bytes] = []
    fixtures = ROOT / "tests" / "fixtures"
    for path in sorted(fixtures.rglob("*")):
        if path.is_file() and path.suffix in (".html", ".htm", ".xml", ".json", ".txt"):
            seeds.append(path.read_bytes())
    try:
        from newsspider.demo.site import build_site

        site = build_site("http://127.0.0.1:8000")
        seeds += [page.body for _, page in sorted(site.pages.items())]
    except Exception as error:  # the demo is a convenience here, not a requirement
        print(f"fuzz: demo site unavailable ({error})", file=sys.stderr)
    from support import pathological as p

    box = p.Sandbox()
    seeds += [
        p.deep_100k(box, depth=3000),
        p.deep_100k_unclosed(box, depth=3000),
        p.table_spans(box, rows=5),
        p.nul_bytes(box, size=2000),
        p.invalid_utf8(box, size=6000),
        p.charset_mismatch_cp1251(box, size=3000),
        p.charset_mismatch_gbk(box, size=3000),
        p.billion_laughs(box),
        p.quadratic_blowup(box, entity_kb=1, refs=100),
        p.external_entities(box),
        p.million_elements(box, count=300),
        p.text_node_10mb_no_spaces(box, size=5000),
    ]
    return [s for s in seeds if s]


# --- generators -----------------------------------------------------------------------------


#: Share of inputs drawn at their typical size; the rest come from a log-uniform tail up to the
#: generator's cap. Small typical sizes keep a million inputs affordable; the tail keeps large
#: pages (where super-linear time shows) in every run.
TYPICAL_SHARE = 0.99


def _size(rng: random.Random, typical: int, cap: int) -> int:
    """Mostly around ``typical``, sometimes up to ``cap`` (log-uniform tail)."""
    if rng.random() < TYPICAL_SHARE:
        return rng.randint(0, typical)
    return int(2 ** rng.uniform(0, cap.bit_length() - 1))


def gen_bytes(rng: random.Random, seeds: Sequence[bytes]) -> bytes | str:
    n = _size(rng, 2048, 256 * 1024)
    if rng.random() < 0.5:
        return rng.randbytes(n)
    alphabet = b"<>/=\"' !-?[]&#;abcdehilmnoprstuvxy\x00\xff\xfe\xc3\xe2\x80\n\t"
    return bytes(rng.choices(alphabet, k=n))


def random_text(rng: random.Random, n: int) -> str:
    parts: list[str] = []
    while sum(map(len, parts)) < n:
        roll = rng.random()
        if roll < 0.3:
            parts.append(rng.choice(TEXT_POOLS))
        elif roll < 0.6:
            parts.append("".join(chr(rng.randint(0, 0x10FFFF)) for _ in range(rng.randint(1, 40))))
        elif roll < 0.8:
            parts.append("".join(chr(rng.randint(0, 0x2FF)) for _ in range(rng.randint(1, 40))))
        else:
            parts.append(rng.choice(("<", ">", "&", "</p>", "<p>", "\n", " ", "\ud800", "\udfff")))
    return "".join(parts)[:n]


def gen_text(rng: random.Random, seeds: Sequence[bytes]) -> bytes | str:
    text = random_text(rng, _size(rng, 2048, 128 * 1024))
    if rng.random() < 0.3:
        text = f"<html><body><article><p>{text}</p></article></body></html>"
    if rng.random() < 0.5:
        return text
    return text.encode("utf-8", errors=rng.choice(("surrogatepass", "replace", "ignore")))


def _tag_soup(rng: random.Random, budget: int, depth: int = 0) -> str:
    out: list[str] = []
    while budget > 0:
        roll = rng.random()
        if roll < 0.35 or depth > 40:
            piece = random_text(rng, rng.randint(0, 120))
        elif roll < 0.45:
            piece = rng.choice(ENTITIES + UNCLOSED)
        else:
            tag = rng.choice(TAGS)
            attrs = " ".join(rng.choices(ATTRIBUTES, k=rng.randint(0, 3)))
            inner = _tag_soup(rng, rng.randint(0, budget // 2), depth + 1)
            close = f"</{tag}>" if rng.random() < 0.8 else ""
            piece = f"<{tag} {attrs}>{inner}{close}" if attrs else f"<{tag}>{inner}{close}"
        out.append(piece)
        budget -= max(1, len(piece))
    return "".join(out)


def gen_tag_soup(rng: random.Random, seeds: Sequence[bytes]) -> bytes | str:
    soup = _tag_soup(rng, _size(rng, 3000, 64 * 1024))
    if rng.random() < 0.5:
        return soup
    return soup.encode("utf-8", errors="replace")


def _meta_charset(rng: random.Random) -> bytes:
    label = rng.choice(REAL_ENCODINGS + BOGUS_ENCODINGS)
    template = rng.choice(
        (
            '<meta charset="{}">',
            "<meta charset={}>",
            '<meta http-equiv="Content-Type" content="text/html; charset={}">',
            '<?xml version="1.0" encoding="{}"?>',
            "<meta content='text/html;charset={}' http-equiv=content-type>",
        )
    )
    return template.format(label).encode("utf-8", errors="replace")


def _json_ld(rng: random.Random) -> bytes:
    bodies = (
        '{"@type":"NewsArticle","headline":"H","datePublished":"%s","author":%s,'
        '"articleBody":"%s"}',
        '[{"@graph":[{"@type":["NewsArticle",null,7],"author":{"name":{"name":"%s"}}}]}, %s, %s]',
        '{"@type":"NewsArticle","datePublished":%s,"author":[%s],"image":{"url":[%s]}}',
    )
    fill = (rng.choice(DATES), rng.choice(('"A"', "null", "[[[]]]", "1e999", '{"@id":1}')), "x")
    body = rng.choice(bodies) % fill
    if rng.random() < 0.3:
        body = body[: rng.randint(0, len(body))]
    if rng.random() < 0.1:
        body = "[" * 5000 + "]" * rng.choice((0, 5000))
    return f'<script type="application/ld+json">{body}</script>'.encode()


def _doctype(rng: random.Random) -> bytes:
    decls = rng.choice(
        (
            '<!ENTITY a "&b;&b;&b;&b;"><!ENTITY b "&c;&c;&c;&c;"><!ENTITY c "ccc">',
            '<!ENTITY x SYSTEM "file:///etc/passwd">',
            '<!ENTITY % p SYSTEM "http://127.0.0.1:9/x.dtd"> %p;',
            "<!ELEMENT html ANY>",
            "",
        )
    )
    return f"<!DOCTYPE html [{decls}]>".encode()


def _mutate_once(rng: random.Random, data: bytearray, seeds: Sequence[bytes]) -> None:
    n = len(data)
    at = rng.randint(0, n)
    kind = rng.randrange(18)
    if kind == 0 and n:  # delete a range
        end = min(n, at + _size(rng, 200, 64 * 1024))
        del data[at:end]
    elif kind == 1 and n:  # duplicate a range, maybe many times
        start = rng.randint(0, n - 1)
        chunk = bytes(data[start : start + _size(rng, 300, 8192)])
        data[at:at] = chunk * (1000 if rng.random() < 0.02 else rng.choice((1, 2, 10, 100)))
    elif kind == 2:  # splice in part of another seed
        other = rng.choice(seeds)
        start = rng.randint(0, len(other))
        data[at:at] = other[start : start + _size(rng, 2000, 64 * 1024)]
    elif kind == 3:  # truncate
        del data[at:]
    elif kind == 4:
        data[at:at] = b"\x00" * rng.choice((1, 1, 2, 16, 4096))
    elif kind == 5:
        data[at:at] = b"".join(rng.choices(BROKEN_UTF8, k=rng.randint(1, 8)))
    elif kind == 6:
        data[0 if rng.random() < 0.6 else at : 0 if rng.random() < 0.6 else at] = rng.choice(BOMS)
    elif kind == 7:
        data[at:at] = rng.choice(UNCLOSED).encode() * rng.choice((1, 1, 3, 300, 3000))
    elif kind == 8:
        data[at:at] = f"</{rng.choice(TAGS)}>".encode() * rng.randint(1, 20)
    elif kind == 9:
        head = data.find(b"<head")
        pos = head if head >= 0 and rng.random() < 0.7 else at
        data[pos:pos] = _meta_charset(rng)
    elif kind == 10:
        data[0:0] = _doctype(rng)
        if rng.random() < 0.5:
            data[0:0] = b'<?xml version="1.0" encoding="utf-8"?>'
    elif kind == 11:  # absurd attributes inside a random tag
        tag = data.find(b"<", at)
        if tag >= 0:
            end = data.find(b">", tag)
            if end > tag:
                data[end:end] = b" " + rng.choice(ATTRIBUTES).encode()
    elif kind == 12 and n:  # bit flips
        for _ in range(rng.randint(1, 32)):
            i = rng.randrange(len(data)) if data else 0
            if data:
                data[i] ^= 1 << rng.randrange(8)
    elif kind == 13 and n:  # random bytes over a range
        end = min(len(data), at + rng.randint(1, 64))
        data[at:end] = rng.randbytes(end - at)
    elif kind == 14:
        data[at:at] = "".join(rng.choices(ENTITIES, k=rng.randint(1, 20))).encode()
    elif kind == 15:
        data[at:at] = _json_ld(rng)
    elif kind == 16:
        date = rng.choice(DATES)
        data[at:at] = rng.choice(
            (
                f'<meta property="article:published_time" content="{date}">',
                f'<time datetime="{date}">{date}</time>',
                f"<p>Published {date} by {rng.choice(TEXT_POOLS)}</p>",
            )
        ).encode()
    else:
        data[at:at] = random_text(rng, rng.randint(1, 400)).encode("utf-8", "surrogatepass")


def gen_mutate(rng: random.Random, seeds: Sequence[bytes]) -> bytes | str:
    seed = rng.choice(seeds)
    if rng.random() < 0.5:  # a window of the page: cheaper, and starts and ends mid-markup
        start = rng.randrange(len(seed))
        seed = seed[start : start + rng.randint(256, 4096)]
    data = bytearray(seed)
    for _ in range(rng.randint(1, 8)):
        _mutate_once(rng, data, seeds)
    page = bytes(data)
    if rng.random() < 0.1:
        return page.decode("utf-8", errors=rng.choice(("replace", "surrogateescape", "ignore")))
    return page


def gen_reencode(rng: random.Random, seeds: Sequence[bytes]) -> bytes | str:
    from newsspider.extraction.parse.decoding import decode_html

    text = decode_html(rng.choice(seeds)).text
    target = rng.choice(TARGET_ENCODINGS)
    declared = rng.choice((target, rng.choice(REAL_ENCODINGS), rng.choice(BOGUS_ENCODINGS), None))
    if declared is not None:
        meta = f'<meta charset="{declared}">'
        head = text.find("<head>")
        text = text[: head + 6] + meta + text[head + 6 :] if head >= 0 else meta + text
    errors = rng.choice(("replace", "xmlcharrefreplace", "ignore", "backslashreplace"))
    try:
        page = text.encode(target, errors=errors)
    except (UnicodeError, LookupError):
        page = text.encode("utf-8", errors="replace")
    if rng.random() < 0.2:
        page = rng.choice(BOMS) + page
    if rng.random() < 0.2:
        data = bytearray(page)
        _mutate_once(rng, data, seeds)
        page = bytes(data)
    return page


def _mutator(seeds: Sequence[bytes]) -> Callable[[random.Random, bytes], bytes]:
    """1-3 of the byte and tag mutations of ``gen_mutate``, for the structured documents."""

    def mutate(rng: random.Random, page: bytes) -> bytes:
        data = bytearray(page)
        for _ in range(rng.randint(1, 3)):
            _mutate_once(rng, data, seeds)
        return bytes(data)

    return mutate


def gen_feed(rng: random.Random, seeds: Sequence[bytes]) -> bytes | str:
    return fuzz_documents.gen_feed(rng, _mutator(seeds))


def gen_sitemap(rng: random.Random, seeds: Sequence[bytes]) -> bytes | str:
    return fuzz_documents.gen_sitemap(rng, _mutator(seeds))


def gen_json_ld(rng: random.Random, seeds: Sequence[bytes]) -> bytes | str:
    return fuzz_documents.gen_json_ld_page(rng, _mutator(seeds))


GENERATORS: dict[str, Callable[[random.Random, Sequence[bytes]], bytes | str]] = {
    "bytes": gen_bytes,
    "text": gen_text,
    "tag-soup": gen_tag_soup,
    "mutate": gen_mutate,
    "reencode": gen_reencode,
    "feed": gen_feed,
    "sitemap": gen_sitemap,
    "json-ld": gen_json_ld,
}
WEIGHTS = {
    "bytes": 1,
    "text": 1,
    "tag-soup": 2,
    "mutate": 4,
    "reencode": 1,
    "feed": 2,
    "sitemap": 2,
    "json-ld": 2,
}
#: What each strategy's input is fed to: `extract` unless named here.
TARGETS = {"feed": "feed", "sitemap": "sitemap"}


def _hints(rng: random.Random) -> dict[str, Any]:
    values: tuple[Any, ...] = (
        "Title", "", None, 7, ["a", 1, None], "Ann, Bob", ("A",), {"x": 1}, rng.choice(DATES),
        datetime(2024, 5, 20, tzinfo=UTC), datetime(1, 1, 1), b"bytes", float("nan"),
    )  # fmt: skip
    return {key: rng.choice(values) for key in rng.sample(("title", "date", "authors", "extra"), 2)}


def make_input(
    seed: int, index: int, seeds: Sequence[bytes], algorithms: Sequence[str]
) -> FuzzInput:
    """Input ``index`` of run ``seed``: a pure function of both (and the seeds)."""
    rng = random.Random(f"{seed}:{index}")
    strategy = rng.choices(list(WEIGHTS), weights=list(WEIGHTS.values()))[0]
    item = FuzzInput(strategy, GENERATORS[strategy](rng, seeds), TARGETS.get(strategy, "extract"))
    if item.target != "extract":
        item.url = rng.choice(URLS[1:]) if rng.random() < 0.3 else "http://example.com/feed.xml"
        item.max_urls = rng.choice((50_000, 50_000, 1, 10, 0))
        return item
    roll = rng.random()
    if roll < 0.3:
        item.encoding = rng.choice(REAL_ENCODINGS)
    elif roll < 0.45:
        item.encoding = rng.choice(BOGUS_ENCODINGS)
    item.url = rng.choice(URLS) if rng.random() < 0.5 else "http://example.com/news/a.html"
    others = [a for a in algorithms if a != "default"]
    item.algorithm = rng.choice(others) if others and rng.random() < 0.6 else "default"
    roll = rng.random()
    if roll < 0.08:
        item.max_bytes = rng.randint(0, len(item.html) + 10)
    elif roll < 0.12:
        item.max_bytes = None
    if rng.random() < 0.1:
        item.hints = _hints(rng)
    if rng.random() < 0.1:
        zone = timezone(timedelta(minutes=rng.randint(-720, 840)))
        item.reference_time = rng.choice(
            (datetime(2026, 11, 22, 12, tzinfo=zone), datetime(2026, 11, 22), datetime(1, 1, 2))
        )
    return item


# --- checking -------------------------------------------------------------------------------

MB = 1024 * 1024
#: issue 14's bound: 2 s of CPU per MB of input...
SECONDS_PER_MB = 2.0
#: ... and, for small inputs, 50 ms (2 s/MB of a 25 kB page): a small page costs 0.3-5 ms, so
#: this is 10-150 times its normal cost, and still well under what a quadratic path costs on
#: tens of kilobytes (a 31 kB unclosed "<script>" page cost 3.1 s before issue 14's fixes).
FLOOR_SECONDS = 0.05


def time_bound(size: int) -> float:
    """The most CPU one input of ``size`` bytes may cost."""
    return max(FLOOR_SECONDS, SECONDS_PER_MB * size / MB)


def check_entry(entry: Any) -> list[str]:
    """Problems with one feed or sitemap entry: types, and text a Request and JSON can carry."""
    problems: list[str] = []
    if not isinstance(entry.url, str) or not entry.url:
        problems.append("entry without a str url")
    for name in ("title", "date", "lastmod", "language"):
        value = getattr(entry, name, None)
        if value is not None and not isinstance(value, str):
            problems.append(f"entry {name} is {type(value).__name__}")
    if not all(isinstance(author, str) for author in getattr(entry, "authors", ())):
        problems.append("non-str entry author")
    try:
        json.dumps(entry.hints()).encode("utf-8")
    except (TypeError, ValueError, UnicodeError) as error:
        problems.append(f"entry hints not JSON-ready: {error}")
    return problems


class _LastError(logging.Handler):
    """Keeps the traceback `extract` logs when its catch-all turns a bug into "internal-error"."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.text: str | None = None

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info:
            self.text = "".join(traceback.format_exception(*record.exc_info))
        else:
            self.text = record.getMessage()


def check_output(article: Any) -> list[str]:
    """Problems with one result (empty: fine). Well-formedness as tests/support/articles.py."""
    from support.pathological import check_article

    problems: list[str] = check_article(article)
    if problems:
        return problems
    for name in ("body", "body_html", "title", "description", "site_name", "url", "image"):
        value = getattr(article, name)
        if not isinstance(value, str):
            continue
        if "\x00" in value and name not in ("url",):
            problems.append(f"NUL in {name}")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            problems.append(f"{name} not UTF-8 encodable (lone surrogate)")
    for author in article.authors:
        if not isinstance(author, str):
            problems.append("non-str author")
    return problems


@dataclass(slots=True)
class Stats:
    engine: str
    seed: int
    started: float = field(default_factory=time.perf_counter)
    inputs: int = 0
    input_bytes: int = 0
    by_strategy: Counter[str] = field(default_factory=Counter)
    cpu_by_strategy: dict[str, float] = field(default_factory=dict)
    by_algorithm: Counter[str] = field(default_factory=Counter)
    by_encoding_arg: Counter[str] = field(default_factory=Counter)
    failures: Counter[str] = field(default_factory=Counter)
    failures_by_strategy: Counter[str] = field(default_factory=Counter)
    failures_by_algorithm: Counter[str] = field(default_factory=Counter)
    internal_errors: int = 0
    exceptions: int = 0
    saved: list[str] = field(default_factory=list)
    slow: list[dict[str, Any]] = field(default_factory=list)
    max_seconds: float = 0.0
    max_input: dict[str, Any] = field(default_factory=dict)
    max_size: int = 0
    #: Inputs over `time_bound` (confirmed by a second run).
    over_bound: list[dict[str, Any]] = field(default_factory=list)
    #: The highest CPU s/MB among inputs of 64 kB or more, and that input.
    max_s_per_mb: float = 0.0
    max_s_per_mb_input: dict[str, Any] = field(default_factory=dict)

    def report(self) -> dict[str, Any]:
        elapsed = time.perf_counter() - self.started
        peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return {
            "engine": self.engine,
            "seed": self.seed,
            "seconds": round(elapsed, 1),
            "inputs": self.inputs,
            "inputs_per_second": round(self.inputs / elapsed, 1) if elapsed else 0.0,
            "input_megabytes": round(self.input_bytes / 1024 / 1024, 1),
            "largest_input_bytes": self.max_size,
            "by_strategy": dict(self.by_strategy.most_common()),
            "by_algorithm": dict(self.by_algorithm.most_common()),
            "by_encoding_argument": dict(self.by_encoding_arg.most_common(12)),
            "failing_inputs": sum(self.failures_by_strategy.values()),
            "failures": dict(self.failures.most_common()),
            "failures_by_strategy": dict(self.failures_by_strategy),
            "failures_by_algorithm": dict(self.failures_by_algorithm),
            "internal_errors": self.internal_errors,
            "exceptions": self.exceptions,
            "saved": self.saved,
            "slow_inputs": self.slow,
            "max_seconds_per_input": round(self.max_seconds, 3),
            "slowest_input": self.max_input,
            "over_time_bound": self.over_bound,
            "max_cpu_s_per_mb_64kb_plus": round(self.max_s_per_mb, 3),
            "max_cpu_s_per_mb_input": self.max_s_per_mb_input,
            "peak_rss_mb": round(peak_kb / 1024, 1),
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
        }


class Runner:
    """Runs inputs through `extract`, checks results, counts and saves failures."""

    def __init__(self, stats: Stats, out: Path, *, slow_seconds: float, max_saved: int) -> None:
        from newsspider import extract

        self.extract = extract
        self.stats = stats
        self.out = out
        self.slow_seconds = slow_seconds
        self.max_saved = max_saved
        self.saved_by_signature: Counter[str] = Counter()
        self.measured_size = 0
        self.last_error = _LastError()
        logger = logging.getLogger("newsspider")
        logger.addHandler(self.last_error)
        logger.propagate = False  # the tracebacks are saved with the input, not printed

    def run(self, item: FuzzInput, label: str) -> list[str]:
        stats = self.stats
        self.last_error.text = None
        start = time.perf_counter()
        cpu_start = time.process_time()
        error_text = None
        try:
            problems = self.call(item)
        except Exception as error:  # the promise under test
            problems = [f"raised {type(error).__name__}"]
            error_text = traceback.format_exc()
            stats.exceptions += 1
        else:
            if "internal-error" in problems or "metadata-error" in problems:
                stats.internal_errors += 1
                error_text = self.last_error.text
        seconds = time.perf_counter() - start
        cpu = time.process_time() - cpu_start
        size = max(len(item.html), self.measured_size)
        if cpu > time_bound(size):
            # Confirmed only if later runs are over the bound too (a page fault storm or a
            # collection of an earlier input's garbage is not the input's cost).
            for _ in range(3):  # the least of four runs: a loaded machine inflates CPU time
                again = time.process_time()
                with contextlib.suppress(Exception):
                    self.call(item)
                cpu = min(cpu, time.process_time() - again)
            if cpu > time_bound(size):
                stats.over_bound.append(
                    {"input": label, "cpu_seconds": round(cpu, 3), "measured_size": size,
                     "s_per_mb": round(cpu / max(size, 1) * MB, 2), **item.describe()}
                )  # fmt: skip
                self.save(item, label, ["over-time-bound"], f"{cpu:.3f} s CPU for {size} bytes")
        if size >= 64 * 1024 and cpu / size * MB > stats.max_s_per_mb:
            stats.max_s_per_mb = cpu / size * MB
            stats.max_s_per_mb_input = {
                "input": label,
                "cpu_seconds": round(cpu, 3),
                **item.describe(),
            }
        stats.inputs += 1
        stats.input_bytes += len(item.html)
        stats.max_size = max(stats.max_size, len(item.html))
        stats.by_strategy[item.strategy] += 1
        stats.cpu_by_strategy[item.strategy] = stats.cpu_by_strategy.get(item.strategy, 0) + cpu
        stats.by_algorithm[item.algorithm] += 1
        stats.by_encoding_arg[repr(item.encoding)[:30]] += 1
        if seconds > stats.max_seconds:
            stats.max_seconds = seconds
            stats.max_input = {"input": label, "seconds": round(seconds, 3), **item.describe()}
        if seconds > self.slow_seconds:
            stats.slow.append({"input": label, "seconds": round(seconds, 2), **item.describe()})
            self.save(item, label, ["slow"], f"took {seconds:.1f}s")
        if problems:
            stats.failures_by_strategy[item.strategy] += 1
            stats.failures_by_algorithm[item.algorithm] += 1
            for problem in problems:
                stats.failures[problem] += 1
            self.save(item, label, problems, error_text)
        return problems

    def call(self, item: FuzzInput) -> list[str]:
        """Run ``item`` through its target; the problems with the result."""
        self.measured_size = 0
        if item.target == "extract":
            return check_output(self.extract(item.html, **item.kwargs()))
        return self.read_document(item)

    def read_document(self, item: FuzzInput) -> list[str]:
        from newsspider.spiders._feeds import FeedReader
        from newsspider.spiders._sitemaps import SitemapReader
        from newsspider.spiders._xml import xml_bytes

        assert isinstance(item.html, bytes)
        base = item.url or ""
        # The work follows the decompressed size: that is the input the bound is per MB of.
        self.measured_size = len(xml_bytes(item.html))
        reader: FeedReader | SitemapReader
        if item.target == "feed":
            reader = FeedReader(item.html, base)
        else:
            reader = SitemapReader(item.html, base, item.max_urls)
        problems: list[str] = []
        count = 0
        for batch in reader.batches():
            for entry in batch:
                count += 1
                problems += check_entry(entry)
        if item.target == "sitemap" and item.max_urls and count > item.max_urls:
            problems.append(f"{count} entries over max_urls {item.max_urls}")
        return problems

    def save(self, item: FuzzInput, label: str, problems: list[str], error: str | None) -> None:
        # At most `max_saved` inputs per kind of failure (problem + innermost frame).
        where = error.strip().splitlines()[-3:] if error else []
        signature = hashlib.sha1(repr((problems, where)).encode()).hexdigest()[:10]
        self.saved_by_signature[signature] += 1
        if self.saved_by_signature[signature] > self.max_saved:
            return
        self.out.mkdir(parents=True, exist_ok=True)
        data = (
            item.html.encode("utf-8", "surrogatepass") if isinstance(item.html, str) else item.html
        )
        digest = hashlib.sha1(data).hexdigest()[:12]
        stem = self.out / f"{problems[0].split()[0]}-{item.strategy}-{digest}"
        stem.with_suffix(".bin").write_bytes(data)
        meta = {"input": label, "problems": problems, "signature": signature, **item.describe()}
        meta["traceback"] = error
        load = f"Path({str(stem.with_suffix('.bin'))!r}).read_bytes()"
        if item.target != "extract":
            reader = "FeedReader" if item.target == "feed" else "SitemapReader"
            meta["reproduce"] = f"list({reader}({load}, {item.url!r}))"
            stem.with_suffix(".json").write_text(json.dumps(meta, indent=1, default=repr) + "\n")
            self.stats.saved.append(str(stem.with_suffix(".bin")))
            return
        if isinstance(item.html, str):
            load += '.decode("utf-8", "surrogatepass")'
        arguments = ", ".join(f"{k}={v!r}" for k, v in item.kwargs().items())
        meta["reproduce"] = f"extract({load}, {arguments})"
        stem.with_suffix(".json").write_text(json.dumps(meta, indent=1, default=repr) + "\n")
        saved = stem.with_suffix(".bin").resolve()
        self.stats.saved.append(
            str(saved.relative_to(ROOT) if saved.is_relative_to(ROOT) else saved)
        )


# --- engines --------------------------------------------------------------------------------


def run_random(args: argparse.Namespace, stats: Stats) -> None:
    from newsspider import ALGORITHMS

    seeds = load_seeds()
    runner = Runner(stats, args.out, slow_seconds=args.slow, max_saved=args.max_saved)
    print(
        f"fuzz: {len(seeds)} seed pages, algorithms: {', '.join(ALGORITHMS)}",
        file=sys.stderr,
        flush=True,
    )
    deadline = time.perf_counter() + args.seconds
    next_progress = time.perf_counter() + args.progress
    # A hang inside C code cannot be interrupted: a watchdog thread dumps the stacks and exits;
    # the input number written just before each call says which one (--replay regenerates it).
    args.out.mkdir(parents=True, exist_ok=True)
    current = (args.out / "current-input.txt").open("w")
    index = args.start
    with contextlib.closing(current):
        while time.perf_counter() < deadline:
            item = make_input(args.seed, index, seeds, ALGORITHMS)
            current.seek(0)
            current.write(f"--seed {args.seed} --replay {index:<12}\n")
            current.flush()
            faulthandler.dump_traceback_later(args.hang, exit=True)
            runner.run(item, f"seed {args.seed} input {index}")
            faulthandler.cancel_dump_traceback_later()
            index += 1
            if time.perf_counter() >= next_progress:
                next_progress += args.progress
                print(_progress(stats), file=sys.stderr, flush=True)
    (args.out / "current-input.txt").unlink(missing_ok=True)


# --- many processes, resumable ------------------------------------------------------------
# Input i of a seed is a pure function of (seed, i), so a run is a set of chunks of input
# numbers: workers take chunks, the parent appends each finished chunk's counts to a JSON-lines
# file, and a later run with the same seed and file skips the chunks already there. The total
# is the sum over the file.

_worker: dict[str, Any] = {}


def _worker_start(out: Path, hang: float, niceness: int) -> None:
    if niceness:
        os.nice(niceness)  # a background job: never starve the interactive work on the machine
    from newsspider import ALGORITHMS
    from newsspider.spiders import _feeds, _sitemaps  # noqa: F401  (not inside a timed input)

    stats = Stats("random", 0)
    runner = Runner(stats, out, slow_seconds=float("inf"), max_saved=3)
    out.mkdir(parents=True, exist_ok=True)
    current = (out / f"current-{os.getpid()}.txt").open("w")
    _worker.update(runner=runner, algorithms=ALGORITHMS, hang=hang, current=current)


def _run_chunk(seed: int, chunk: int, size: int, seeds: Sequence[bytes]) -> dict[str, Any]:
    runner: Runner = _worker["runner"]
    stats = Stats("random", seed)
    runner.stats = stats
    current = _worker["current"]
    cpu_start = time.process_time()
    for index in range(chunk * size, (chunk + 1) * size):
        item = make_input(seed, index, seeds, _worker["algorithms"])
        current.seek(0)
        current.write(f"--seed {seed} --replay {index:<12}\n")
        current.flush()
        faulthandler.dump_traceback_later(_worker["hang"], exit=True)
        runner.run(item, f"seed {seed} input {index}")
        faulthandler.cancel_dump_traceback_later()
    current.seek(0)
    current.write("idle" + " " * 40 + "\n")
    current.flush()
    return {
        "chunk": chunk,
        "inputs": stats.inputs,
        "input_bytes": stats.input_bytes,
        "cpu_seconds": round(time.process_time() - cpu_start, 3),
        "max_size": stats.max_size,
        "by_strategy": dict(stats.by_strategy),
        "cpu_by_strategy": {k: round(v, 3) for k, v in stats.cpu_by_strategy.items()},
        "failures": dict(stats.failures),
        "failures_by_strategy": dict(stats.failures_by_strategy),
        "exceptions": stats.exceptions,
        "internal_errors": stats.internal_errors,
        "over_bound": stats.over_bound,
        "max_seconds": round(stats.max_seconds, 4),
        "max_input": stats.max_input,
        "max_s_per_mb": round(stats.max_s_per_mb, 4),
        "max_s_per_mb_input": stats.max_s_per_mb_input,
        "saved": stats.saved,
    }


def run_parallel(args: argparse.Namespace) -> dict[str, Any]:
    """``args.inputs`` inputs of ``args.seed`` over ``args.workers`` processes; the summed
    report of every chunk in ``args.progress_file`` (this run's and earlier runs')."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from concurrent.futures.process import BrokenProcessPool

    progress = args.progress_file or ROOT / "bench-results" / f"fuzz-progress-seed{args.seed}.jsonl"
    progress.parent.mkdir(parents=True, exist_ok=True)
    done = {record["chunk"] for record in _read_progress(progress, args.chunk)}
    chunks = [c for c in range(-(-args.inputs // args.chunk)) if c not in done]
    print(f"fuzz: {len(done)} chunks done earlier, {len(chunks)} to run", file=sys.stderr)
    seeds = load_seeds()
    code = _code_version()
    started = time.perf_counter()
    context = multiprocessing.get_context("fork")  # workers inherit the seeds and imports
    while chunks:
        crashed = False
        with (
            ProcessPoolExecutor(
                args.workers, context, _worker_start, (args.out, args.hang, args.nice)
            ) as pool,
            progress.open("a") as log,
        ):
            futures = [pool.submit(_run_chunk, args.seed, c, args.chunk, seeds) for c in chunks]
            for future in as_completed(futures):
                try:
                    record = future.result()
                except BrokenProcessPool:
                    crashed = True
                    continue
                record["chunk_size"] = args.chunk
                record["code"] = code
                log.write(json.dumps(record, default=repr) + "\n")
                log.flush()
                chunks.remove(record["chunk"])
                elapsed = time.perf_counter() - started
                print(
                    f"fuzz: chunk {record['chunk']} done, {len(chunks)} left, "
                    f"{elapsed:.0f} s", file=sys.stderr, flush=True,
                )  # fmt: skip
        if crashed:  # a worker died (a hang or a crash in C): record its input, go on
            with progress.open("a") as log:
                for path in args.out.glob("current-*.txt"):
                    line = path.read_text().strip()
                    path.unlink()
                    if not line.startswith("--seed"):
                        continue
                    index = int(line.split()[-1])
                    chunk = index // args.chunk
                    record = {
                        "chunk": chunk, "chunk_size": args.chunk, "inputs": index % args.chunk + 1,
                        "input_bytes": 0, "exceptions": 0, "internal_errors": 0,
                        "failures": {"worker died (hang or crash)": 1},
                        "failures_by_strategy": {"unknown": 1}, "crashed_input": line,
                    }  # fmt: skip
                    log.write(json.dumps(record) + "\n")
                    if chunk in chunks:
                        chunks.remove(chunk)
    for path in args.out.glob("current-*.txt"):
        path.unlink()
    return _summed_report(args, progress)


def _code_version() -> str:
    """The commit the workers run, "+dirty" when the work tree differs from it."""
    import subprocess

    def git(*command: str) -> str:
        run = subprocess.run(
            ["git", *command], check=False, cwd=ROOT, capture_output=True, text=True
        )
        return run.stdout.strip()

    dirty = git("status", "--porcelain", "--untracked-files=no", "newsspider", "bench")
    return git("rev-parse", "--short", "HEAD") + ("+dirty" if dirty else "")


def _read_progress(path: Path, chunk_size: int) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    mixed = {r.get("chunk_size") for r in records} - {chunk_size}
    if mixed:
        raise SystemExit(f"{path} holds chunks of size {mixed}: use --chunk {mixed.pop()}")
    return records


def _summed_report(args: argparse.Namespace, progress: Path) -> dict[str, Any]:
    records = _read_progress(progress, args.chunk)
    by_strategy: Counter[str] = Counter()
    cpu_by_strategy: dict[str, float] = {}
    failures: Counter[str] = Counter()
    failures_by_strategy: Counter[str] = Counter()
    over: list[dict[str, Any]] = []
    saved: list[str] = []
    worst_time: dict[str, Any] = {"max_seconds": 0.0}
    worst_rate: dict[str, Any] = {"max_s_per_mb": 0.0}
    inputs_by_code: Counter[str] = Counter()
    for record in records:
        inputs_by_code[record.get("code", "?")] += record["inputs"]
        by_strategy.update(record.get("by_strategy", {}))
        for name, seconds in record.get("cpu_by_strategy", {}).items():
            cpu_by_strategy[name] = cpu_by_strategy.get(name, 0.0) + seconds
        failures.update(record.get("failures", {}))
        failures_by_strategy.update(record.get("failures_by_strategy", {}))
        over += record.get("over_bound", [])
        saved += record.get("saved", [])
        if record.get("max_seconds", 0) > worst_time["max_seconds"]:
            worst_time = record
        if record.get("max_s_per_mb", 0) > worst_rate["max_s_per_mb"]:
            worst_rate = record
    return {
        "seed": args.seed,
        "progress_file": str(progress),
        "inputs_by_code": dict(inputs_by_code),
        "chunks": len(records),
        "inputs": sum(r["inputs"] for r in records),
        "input_megabytes": round(sum(r["input_bytes"] for r in records) / MB, 1),
        "cpu_seconds": round(sum(r.get("cpu_seconds", 0) for r in records), 1),
        "largest_input_bytes": max((r.get("max_size", 0) for r in records), default=0),
        "by_strategy": dict(by_strategy.most_common()),
        "cpu_ms_per_input_by_strategy": {
            name: round(1000 * cpu_by_strategy.get(name, 0.0) / count, 2)
            for name, count in by_strategy.most_common()
        },
        "exceptions": sum(r["exceptions"] for r in records),
        "internal_errors": sum(r["internal_errors"] for r in records),
        "failing_inputs": sum(failures_by_strategy.values()),
        "failures": dict(failures),
        "over_time_bound": over,
        "time_bound": f"max({FLOOR_SECONDS} s, {SECONDS_PER_MB} s/MB) of CPU",
        "max_seconds_per_input": worst_time.get("max_seconds"),
        "slowest_input": worst_time.get("max_input"),
        "max_cpu_s_per_mb_64kb_plus": worst_rate.get("max_s_per_mb"),
        "max_cpu_s_per_mb_input": worst_rate.get("max_s_per_mb_input"),
        "saved": saved,
        "command": " ".join(["python -m bench.robustness.fuzz", *sys.argv[1:]]),
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def _progress(stats: Stats) -> str:
    report = stats.report()
    return (
        f"fuzz: {report['inputs']} inputs, {report['inputs_per_second']}/s, "
        f"{report['failing_inputs']} failing, max {report['max_seconds_per_input']}s/input, "
        f"peak RSS {report['peak_rss_mb']} MB"
    )


def run_atheris(args: argparse.Namespace, stats: Stats) -> None:
    """Coverage-guided: libFuzzer mutates bytes, guided by branch coverage of newsspider."""
    import atheris

    with atheris.instrument_imports(include=["newsspider"]):
        import newsspider.extraction  # noqa: F401
        from newsspider import ALGORITHMS

    seeds = load_seeds()
    runner = Runner(stats, args.out, slow_seconds=args.slow, max_saved=args.max_saved)
    encodings: tuple[str | None, ...] = (None, *REAL_ENCODINGS, *BOGUS_ENCODINGS)
    deadline = time.perf_counter() + args.seconds
    next_progress = time.perf_counter() + args.progress

    def one_input(data: bytes) -> None:
        nonlocal next_progress
        now = time.perf_counter()
        if now >= deadline:
            finish(args, stats)
            sys.stdout.flush()
            os._exit(0)  # libFuzzer would exit without running Python's shutdown
        if now >= next_progress:
            next_progress += args.progress
            print(_progress(stats), file=sys.stderr, flush=True)
        # The algorithm from a hash of the whole input: uniform over ALGORITHMS, and the same
        # input always meets the same algorithm (libFuzzer's coverage stays meaningful).
        pick = int.from_bytes(hashlib.blake2b(data, digest_size=4).digest(), "big")
        algorithm = ALGORITHMS[pick % len(ALGORITHMS)]
        fdp = atheris.FuzzedDataProvider(data)
        encoding = encodings[fdp.ConsumeIntInRange(0, 3 * len(encodings)) % len(encodings)]
        as_text = fdp.ConsumeIntInRange(0, 7) == 0
        page = fdp.ConsumeBytes(fdp.remaining_bytes())
        html: bytes | str = page.decode("utf-8", "surrogateescape") if as_text else page
        item = FuzzInput("atheris", html, encoding=encoding, algorithm=algorithm)
        item.url = "http://example.com/news/a.html"
        runner.run(item, f"atheris {hashlib.sha1(data).hexdigest()[:12]}")

    with tempfile.TemporaryDirectory(prefix="newsspider-atheris-") as corpus:
        for i, seed in enumerate(seeds):
            # Control bytes first (encoding, str?): seeds start as bytes with no encoding.
            Path(corpus, f"seed-{i}").write_bytes(b"\x00\x00\x01\x01" + seed[:65536])
        libfuzzer = [
            sys.argv[0],
            corpus,
            f"-seed={args.seed or 1}",
            "-max_len=65536",
            "-rss_limit_mb=4096",
            f"-timeout={int(args.hang)}",
            f"-max_total_time={int(args.seconds) + 60}",
            "-print_final_stats=1",
        ]
        atheris.Setup(libfuzzer, one_input)
        atheris.Fuzz()


def finish(args: argparse.Namespace, stats: Stats) -> dict[str, Any]:
    report = stats.report()
    report["command"] = " ".join(["python -m bench.robustness.fuzz", *sys.argv[1:]])
    if args.report:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(json.dumps(report, indent=1) + "\n")
    print(_markdown(report))
    return report


def _markdown(report: dict[str, Any]) -> str:
    lines = [
        f"## Fuzz run ({report['engine']}, seed {report['seed']}, {report['date']})",
        "",
        f"- {report['inputs']:,} inputs in {report['seconds']:,} s "
        f"({report['inputs_per_second']:,}/s, {report['input_megabytes']:,} MB in total, "
        f"largest {report['largest_input_bytes']:,} bytes)",
        f"- failing inputs: {report['failing_inputs']} (internal-error: "
        f"{report['internal_errors']}, exceptions: {report['exceptions']}); slow inputs: "
        f"{len(report['slow_inputs'])}",
        f"- max time per input: {report['max_seconds_per_input']} s "
        f"({report['slowest_input'].get('strategy')}, "
        f"{report['slowest_input'].get('size', 0):,} bytes, "
        f"algorithm {report['slowest_input'].get('algorithm')}); peak RSS "
        f"{report['peak_rss_mb']} MB",
        "",
        "| strategy | inputs | failing |",
        "|---|--:|--:|",
        *(
            f"| {name} | {count:,} | {report['failures_by_strategy'].get(name, 0)} |"
            for name, count in report["by_strategy"].items()
        ),
        "",
        "| algorithm | inputs | failing |",
        "|---|--:|--:|",
        *(
            f"| {name} | {count:,} | {report['failures_by_algorithm'].get(name, 0)} |"
            for name, count in report["by_algorithm"].items()
        ),
    ]
    if report["failures"]:
        lines += ["", "Failures:", *(f"- {k}: {v}" for k, v in report["failures"].items())]
        lines += ["", "Saved:", *(f"- {path}" for path in report["saved"])]
    return "\n".join(lines)


def replay(args: argparse.Namespace) -> int:
    from newsspider import ALGORITHMS

    item = make_input(args.seed, args.replay, load_seeds(), ALGORITHMS)
    stats = Stats("replay", args.seed)
    runner = Runner(stats, args.out, slow_seconds=float("inf"), max_saved=1)
    label = f"seed {args.seed} input {args.replay}"
    problems = runner.run(item, label)
    if not problems:  # a failing input was saved by `run`
        runner.save(item, label, ["replay"], None)
    print(json.dumps({"problems": problems, **item.describe(), "saved": stats.saved}, indent=1))
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to fuzz")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--engine", choices=("random", "atheris"), default="random")
    parser.add_argument("--start", type=int, default=0, help="first input number (random)")
    parser.add_argument("--replay", type=int, help="regenerate, run and save one input")
    parser.add_argument("--out", type=Path, default=FAILURES, help="where failing inputs go")
    parser.add_argument("--report", type=Path, help="write the JSON report here")
    parser.add_argument("--slow", type=float, default=10.0, help="save inputs slower than this")
    parser.add_argument("--hang", type=float, default=300.0, help="abort on an input this slow")
    parser.add_argument("--max-saved", type=int, default=3, help="inputs kept per failure kind")
    parser.add_argument("--progress", type=float, default=60.0, help="seconds between reports")
    parser.add_argument("--inputs", type=int, help="run this many inputs over --workers processes")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--chunk", type=int, default=2000, help="inputs per unit of work")
    parser.add_argument("--nice", type=int, default=19, help="workers' niceness increment")
    parser.add_argument("--progress-file", type=Path, help="finished chunks (JSON lines)")
    args = parser.parse_args(argv)
    if args.replay is not None:
        return replay(args)
    if args.inputs is not None:
        summed = run_parallel(args)
        if args.report:
            args.report.parent.mkdir(parents=True, exist_ok=True)
            args.report.write_text(json.dumps(summed, indent=1, default=repr) + "\n")
        print(json.dumps({k: v for k, v in summed.items() if k != "saved"}, indent=1, default=repr))
        return 1 if summed["failing_inputs"] or summed["over_time_bound"] else 0
    stats = Stats(args.engine, args.seed)
    if args.engine == "atheris":
        run_atheris(args, stats)  # exits the process itself when time is up
    else:
        run_random(args, stats)
    report = finish(args, stats)
    return 1 if report["failing_inputs"] else 0


if __name__ == "__main__":
    raise SystemExit(main())

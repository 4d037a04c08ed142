"""Pathological pages, and a child process that measures one extraction of one of them.

The pages are generated here (never read from disk) at the sizes of issue 5: 50 MB of HTML, a
million elements, 100 000-deep nesting, a 10 MB text node, absurd table spans, NUL bytes,
invalid UTF-8, a declared charset that lies, an XHTML entity bomb and external-entity tricks.

`measure(case, max_bytes)` runs ``python -m support.pathological CASE`` (``tests/`` on the path) in
a fresh interpreter so that time and peak RSS belong to that one page: the child builds the
page, resets its RSS high-water mark (``/proc/self/clear_refs``), calls `newsspider.extract`
once and reports as JSON.
While `extract` runs the child records every Python audit event that touches files, sockets or
processes, and holds a listening socket and a secret file that the external-entity page points
at; under ``strace`` (`measure(..., strace=True)`) every file and network syscall in that window
is recorded too, which covers libxml2's C code that audit hooks cannot see.

    python -m bench.robustness.pathological --list
    python -m bench.robustness.pathological deep-100k --max-bytes none [--engine lxml]

Issue 14's adversarial patterns (`PATTERNS`: unclosed script/comment/anchor, "<" * N + 0xff,
many attributes, dense "<p>x", huge class values, ...) at two sizes, each in a child, for
`extract` and for the crawl-time content score: CPU s/MB, RSS MB/MB and CPU growth per doubling.

    python -m bench.robustness.pathological --growth [--sizes 2097152,8388608] [--patterns a,b]
    python -m bench.robustness.pathological --pattern dense-p --size 20971520 --engine extract
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gc
import json
import math
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MB = 1024 * 1024
ROOT = Path(__file__).resolve().parent.parent.parent
TESTS = ROOT / "tests"
#: Text of the secret file the external-entity page references; it must never reach the output.
SECRET = "NEWSSPIDER-SECRET-0b7e5c"
#: Paths stat()ed by the child around `extract`, so that strace output can be cut to that window.
BEGIN_MARK = "/newsspider-extract-begin"
END_MARK = "/newsspider-extract-end"

PROSE = (
    "The committee met on Thursday evening and, after a long discussion about the budget, "
    "agreed to publish its full report before the end of the month.",
    "Residents who attended the meeting asked why the bridge repairs had been delayed again, "
    "and the council promised a written answer within two weeks.",
    "The mayor said the town would not raise taxes this year, although several members "
    "warned that the cost of heating the schools had doubled since the spring.",
)
LEAD = "The committee met on Thursday evening"
RU_TEXT = (
    "Жители района собрались на площади, чтобы обсудить строительство новой школы. "
    "Проект обсуждали почти два часа, и большинство выступавших поддержали его."
)
ZH_TEXT = "山区小学开通了远程音乐课，孩子们跟着城里的老师学唱民歌，教室里不时传出笑声。"


@dataclass(frozen=True, slots=True)
class Sandbox:
    """What a page may point at to try to escape: a local listener and a secret file."""

    http_base: str = "http://127.0.0.1:9"
    secret_path: str = "/nonexistent/newsspider-secret"


@dataclass(frozen=True, slots=True)
class Case:
    name: str
    description: str
    build: Callable[[Sandbox], bytes]
    #: Text the body must contain (None: only well-formedness is promised).
    expect: str | None = None
    #: Caller-supplied encoding (an HTTP header), if the case needs one.
    encoding: str | None = None


def _paragraphs(count: int) -> str:
    return "".join(f"<p>{PROSE[i % len(PROSE)]}</p>" for i in range(count))


def _page(body: str, *, title: str = "Council report", head: str = "") -> str:
    """A real-looking page around ``body``: head metadata, navigation, article, footer."""
    nav = "".join(f'<li><a href="/section/{i}/">Section {i}</a></li>' for i in range(12))
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f'<title>{title} | The Town Gazette</title><meta name="author" content="Ann Reporter">'
        f'<meta property="article:published_time" content="2026-11-20T09:30:00Z">{head}</head>'
        f'<body><header><nav class="menu"><ul>{nav}</ul></nav></header><main><article>'
        f"<h1>{title}</h1>{body}</article></main>"
        '<footer><p>© The Town Gazette · <a href="/contact/">Contact</a></p></footer>'
        "</body></html>"
    )


def _fill(unit: Callable[[int], str], size: int) -> str:
    """Units of markup, numbered from 0, until they reach ``size`` bytes (ASCII units)."""
    parts: list[str] = []
    total = 0
    i = 0
    while total < size:
        part = unit(i)
        parts.append(part)
        total += len(part)
        i += 1
    return "".join(parts)


# --- the pages --------------------------------------------------------------------------------


def html_50mb(_: Sandbox, size: int = 50 * MB) -> bytes:
    def section(i: int) -> str:
        related = "".join(
            f'<li><a href="/story/{i}-{j}/">Related story {i}.{j}</a></li>' for j in range(3)
        )
        return (
            f'<section id="part-{i}"><h2>Part {i}</h2>{_paragraphs(3)}'
            f'<aside class="related"><ul>{related}</ul></aside></section>'
        )

    return _page(_fill(section, size)).encode()


def million_elements(_: Sandbox, count: int = 1_000_000) -> bytes:
    # The costly kind: every element a block of its own with a line of text (a comment thread).
    # Short enough (16 MB) that the default max_bytes parses all of them.
    comments = "".join(f"<p>{i} ok.</p>" for i in range(count))
    return _page(_paragraphs(6) + f'<div class="comments">{comments}</div>').encode()


def densest(_: Sandbox, size: int = 20 * MB) -> bytes:
    # The most blocks the default max_bytes lets through: 2.6 million one-letter paragraphs.
    return _page(_paragraphs(6) + "<p>x</p>" * (size // 8)).encode()


def million_inline_elements(_: Sandbox, count: int = 1_000_000) -> bytes:
    # Inline elements inside paragraphs: <a> and <b> add nodes, not blocks.
    per_paragraph = 50
    words = "".join(f'<a href="/w/{i}">word</a> <b>{i}</b> ' for i in range(per_paragraph // 2))
    paragraphs = f"<p>{PROSE[0]} {words}</p>" * (count // per_paragraph)
    return _page(_paragraphs(6) + paragraphs).encode()


def deep_100k(_: Sandbox, depth: int = 100_000) -> bytes:
    return _page("<div>" * depth + _paragraphs(6) + "</div>" * depth).encode()


def deep_100k_unclosed(_: Sandbox, depth: int = 100_000) -> bytes:
    return _page(_paragraphs(6) + "<div><span>" * (depth // 2) + "tail").encode()


def text_node_10mb(_: Sandbox, size: int = 10 * MB) -> bytes:
    sentence = PROSE[0] + " "
    return _page(f"<p>{sentence * (size // len(sentence))}</p>").encode()


def text_node_10mb_no_spaces(_: Sandbox, size: int = 10 * MB) -> bytes:
    return _page(_paragraphs(6) + "<p>" + "x" * size + "</p>").encode()


def table_spans(_: Sandbox, rows: int = 2000) -> bytes:
    spans = ("999999999", "2147483648", "-5", "0", "1e9", "NaN", "", "x", "65535", "1" * 400)
    cells = "".join(
        f'<td colspan="{span}" rowspan="{span}">cell {i}</td>' for i, span in enumerate(spans)
    )
    head = '<colgroup span="999999999"><col span="2147483647"></colgroup>'
    table = f"<table>{head}{f'<tr>{cells}</tr>' * rows}</table>"
    nested = '<table><tr><td colspan="99999999" rowspan="99999999">' * 200
    return _page(table + nested + "</td></tr></table>" * 200 + _paragraphs(8)).encode()


def nul_bytes(_: Sandbox, size: int = 1 * MB) -> bytes:
    article = _paragraphs(8).encode()
    # A run of NULs, NULs inside every word, and UTF-16-looking text without a BOM.
    spotted = article.replace(b"e", b"e\x00").replace(b"<p>", b"<p>\x00\x00")
    utf16ish = b"".join(bytes((b, 0)) for b in b"<p>" + PROSE[1].encode() + b"</p>") * (size // 400)
    page = _page("BODY").encode()
    return page.replace(b"BODY", article + spotted + b"\x00" * size + utf16ish + article)


def invalid_utf8(_: Sandbox, size: int = 2 * MB) -> bytes:
    broken = (
        b"\xff",
        b"\xc3\x28",  # bad continuation
        b"\xe2\x82",  # cut short
        b"\xed\xa0\x80",  # a surrogate
        b"\xf8\x88\x80\x80\x80",  # five-byte form
        b"\xc0\xaf",  # overlong
        b"\xf4\x90\x80\x80",  # above U+10FFFF
        b"\xef\xbb\xbf",  # a BOM in the middle
    )
    good = _paragraphs(6).encode()
    unit = b"".join(
        b"<p>" + PROSE[i % 3].encode().replace(b" ", broken[i % len(broken)], 3) + b"</p>"
        for i in range(64)
    )
    page = _page("BODY").encode()
    return page.replace(b"BODY", good + unit * (size // len(unit)))


def charset_mismatch_cp1251(_: Sandbox, size: int = 1 * MB) -> bytes:
    body = f"<p>{RU_TEXT}</p>" * (size // (len(RU_TEXT) + 7))
    return _page(body, title="Школа").encode("cp1251")  # the template says utf-8


def charset_mismatch_gbk(_: Sandbox, size: int = 1 * MB) -> bytes:
    body = f"<p>{ZH_TEXT}</p>" * (size // (2 * len(ZH_TEXT) + 7))
    page = _page(body, title="音乐课").replace(
        '<meta charset="utf-8">',
        '<meta http-equiv="Content-Type" content="text/html; '
        'charset=iso-8859-1"><meta charset="shift_jis">',
    )
    return page.encode("gbk", errors="xmlcharrefreplace")


_LOLS = "\n".join(
    f'  <!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' if i else '  <!ENTITY lol0 "lol">'
    for i in range(10)
)


def billion_laughs(_: Sandbox) -> bytes:
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        f"<!DOCTYPE html [\n{_LOLS}\n]>\n"
        '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Entity test</title></head>'
        f"<body><article><h1>Entity test</h1><p>&lol9;</p>{_paragraphs(6)}"
        "<p>&lol9;&lol9;&lol9;&lol9;</p></article></body></html>"
    ).encode()


def quadratic_blowup(_: Sandbox, entity_kb: int = 100, refs: int = 50_000) -> bytes:
    # One 100 kB entity referenced 50 000 times: 5 GB if anything expanded it.
    return (
        '<?xml version="1.0"?>\n'
        f'<!DOCTYPE html [<!ENTITY a "{"a" * (entity_kb * 1024)}">]>\n'
        '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Blowup</title></head>'
        f"<body><article>{_paragraphs(6)}<p>{'&a;' * refs}</p></article></body></html>"
    ).encode()


def external_entities(box: Sandbox) -> bytes:
    http = box.http_base
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        f'<?xml-stylesheet type="text/xsl" href="{http}/style.xsl"?>\n'
        f'<!DOCTYPE html SYSTEM "{http}/xhtml.dtd" [\n'
        '  <!ENTITY passwd SYSTEM "file:///etc/passwd">\n'
        f'  <!ENTITY secret SYSTEM "file://{box.secret_path}">\n'
        f'  <!ENTITY plain SYSTEM "{box.secret_path}">\n'
        f'  <!ENTITY remote SYSTEM "{http}/remote.txt">\n'
        f'  <!ENTITY % dtd SYSTEM "{http}/evil.dtd">\n'
        f'  <!ENTITY % file SYSTEM "file://{box.secret_path}">\n'
        "  %dtd; %file;\n"
        "]>\n"
        '<html xmlns="http://www.w3.org/1999/xhtml" xmlns:xi="http://www.w3.org/2001/XInclude">'
        f'<head><title>Entity test</title><base href="file:///etc/"/>'
        f'<link rel="stylesheet" href="{http}/site.css"/>'
        f'<script src="{http}/app.js"></script></head>'
        "<body><article><h1>Entity test</h1><p>&passwd;</p><p>&secret;</p><p>&plain;</p>"
        f'<p>&remote;</p><xi:include href="file:///etc/passwd" parse="text"/>'
        f'<xi:include href="{box.secret_path}" parse="text"/><xi:include href="{http}/x.xml"/>'
        f'<img src="file:///etc/passwd"/><iframe src="{http}/frame.html"></iframe>'
        f"{_paragraphs(6)}</article></body></html>"
    ).encode()


CASES: dict[str, Case] = {
    case.name: case
    for case in (
        Case("html-50mb", "50 MB of article HTML (sections, lists)", html_50mb, LEAD),
        Case("million-elements", "1 000 000 sibling <p> blocks", million_elements, LEAD),
        Case("densest-20mb", "20 MB of <p>x</p>: 2.6 million blocks", densest, LEAD),
        Case("million-inline", "1 000 000 inline <a>/<b> in paragraphs", million_inline_elements),
        Case("deep-100k", "100 000 nested <div>, article at the bottom", deep_100k),
        Case("deep-100k-unclosed", "article, then 100 000 unclosed tags", deep_100k_unclosed),
        Case("text-node-10mb", "one 10 MB text node (words)", text_node_10mb, LEAD),
        Case("text-node-10mb-nospace", "one 10 MB text node, no spaces", text_node_10mb_no_spaces),
        Case("table-spans", "2000-row table, absurd colspan/rowspan", table_spans, LEAD),
        Case("nul-bytes", "1 MB of NULs, NULs in words, BOM-less UTF-16", nul_bytes),
        Case("invalid-utf8", "2 MB, invalid UTF-8 in every paragraph", invalid_utf8, LEAD),
        Case(
            "charset-mismatch-cp1251",
            "cp1251 bytes, meta utf-8, header shift_jis",
            charset_mismatch_cp1251,
            RU_TEXT[:40],
            encoding="shift_jis",
        ),
        Case(
            "charset-mismatch-gbk",
            "gbk bytes, meta iso-8859-1 and shift_jis",
            charset_mismatch_gbk,
            ZH_TEXT[:12],
        ),
        Case("billion-laughs", "XHTML, 10^9-fold nested entities", billion_laughs, LEAD),
        Case("quadratic-blowup", "XHTML, 100 kB entity used 50 000 times", quadratic_blowup, LEAD),
        Case("external-entities", "XXE: file://, http://, %pe;, XInclude", external_entities, LEAD),
    )
}


# --- adversarial patterns at any size (issue 14) ---------------------------------------------
#
# Each pattern is one unit of hostile markup repeated to a given size, after a small real page
# head, so that time per MB and its growth per doubling show any super-linear path: in the
# regexes (unclosed constructs scanned to the end again at every start), in libxml2 (attributes
# checked for duplicates by a linear scan), in the tree walk, in memory.

_PATTERN_HEAD = _page(_paragraphs(6)).split("</body>")[0]


def _repeat(unit: str | bytes, size: int) -> bytes:
    raw = unit.encode() if isinstance(unit, str) else unit
    return raw * max(1, size // len(raw))


def _spaced_words(size: int, sep: str = " ") -> str:
    return sep.join(f"w{i}" for i in range(size // 6))[:size]


def _attrs(size: int) -> str:
    return "".join(f" a{i}=x" for i in range(size // 8))


def _long_meta(size: int) -> bytes:
    description = f'<meta name="description" content="{_spaced_words(size // 2)}">'
    date = f'<meta property="article:published_time" content="{"2020-01-01 " * (size // 22)}">'
    return (description + date).encode()


PATTERNS: dict[str, tuple[str, Callable[[int], bytes]]] = {
    "unclosed-script": ("<script> repeated", lambda n: _repeat("<script>", n)),
    "unclosed-comment": ("<!-- repeated", lambda n: _repeat("<!--", n)),
    "unclosed-anchor": ("<a repeated (no >)", lambda n: _repeat("<a", n)),
    "unclosed-title": ("<title> repeated", lambda n: _repeat("<title>", n)),
    "lt-then-ff": ("'<' * N + \\xff (charset detection)", lambda n: b"<" * n + b"\xff"),
    "lt-gt-ff": ("'<' * N + '>' + \\xff", lambda n: b"<" * n + b">\xff"),
    "many-attributes": (
        "one <div> with N/8 attributes",
        lambda n: f"<div{_attrs(n)}>x</div>".encode(),
    ),
    "many-attributes-dup": (
        "one <div>, one attribute repeated",
        lambda n: ("<div" + " a=x" * (n // 4) + ">x</div>").encode(),
    ),
    "deep-nesting": ("<div> repeated (never closed)", lambda n: _repeat("<div>", n)),
    "dense-p": ("<p>x repeated", lambda n: _repeat("<p>x", n)),
    "dense-p-closed": ("<p>x</p> repeated", lambda n: _repeat("<p>x</p>", n)),
    "huge-class": (
        "one class value of N bytes (words)",
        lambda n: f'<div class="{_spaced_words(n)}"><p>{PROSE[0]}</p></div>'.encode(),
    ),
    "many-classes": (
        "<div class=unique> per element",
        lambda n: _fill(lambda i: f'<div class="c{i} d{i}">x</div>', n).encode(),
    ),
    "long-attr-value": ("one href of N bytes", lambda n: f'<a href="/{"x" * n}">link</a>'.encode()),
    "many-entities": (
        "&amp;&#x41;&eacute; repeated",
        lambda n: _repeat("&amp;&#x41;&eacute;&bogus", n),
    ),
    "unclosed-entity": ("&#x repeated", lambda n: _repeat("&#x", n)),
    "spaces-title": ("<title> of N spaces", lambda n: f"<title>a{' ' * n}b</title>".encode()),
    "separators-title": (
        "<title> of ' | ' repeated",
        lambda n: f"<title>{' | a' * (n // 4)}</title>".encode(),
    ),
    "long-meta": ("<meta description/date> of N bytes", _long_meta),
    "many-meta-names": (
        "<meta name=unique> repeated",
        lambda n: _fill(lambda i: f'<meta name="m{i}" content="v">', n).encode(),
    ),
    "date-digits": (
        "digits and separators in text",
        lambda n: f"<p>{'2020/12/' * (n // 8)}</p>".encode(),
    ),
    "unclosed-input": ("<input type= repeated", lambda n: _repeat("<input type=", n) + b">"),
    "unclosed-meta": ("<meta og:type repeated", lambda n: _repeat("<meta og:type", n) + b">"),
    "json-ld": (
        "one JSON-LD script of N bytes",
        lambda n: (
            '<script type="application/ld+json">{"@type":"NewsArticle","headline":"'
            + "x " * (n // 2)
            + '"}</script>'
        ).encode(),
    ),
    "long-text-no-space": ("one text node without spaces", lambda n: f"<p>{'x' * n}</p>".encode()),
    "long-url-text": (
        "http:// repeated in text",
        lambda n: f"<p>{'http://a' * (n // 8)}</p>".encode(),
    ),
    "many-tables": ("<table><tr><td> repeated", lambda n: _repeat("<table><tr><td>x", n)),
    "streamed-parts": (
        "React boundaries deep, hidden parts after",
        lambda n: (
            "<div>" * 500
            + _fill(lambda i: f'<template id="B:{i}"></template>', n // 2)
            + "</div>" * 500
            + _fill(lambda i: f'<div hidden id="S:{i}"><p>{PROSE[i % 3]}</p></div>', n // 2)
        ).encode(),
    ),
    "nested-buttons": (
        "<div>We use cookies. <button>OK repeated (never closed), a <p> at the bottom",
        lambda n: _repeat("<div>We use cookies. <button>OK", n - 12) + b"<p>end</p>",
    ),
    "nested-formulas": (
        "<math> inside <math>, each with a token",
        lambda n: (
            "<p>" + "<math><mi>x</mi>" * (n // 16) + "</math>" * (n // 16) + "</p>"
        ).encode(),
    ),
    "custom-formula-wrappers": (
        "custom elements nested deep, a formula at every level after its child",
        lambda n: ("<x-a>" * (n // 40) + "<math><mi>x</mi></math></x-a>" * (n // 40)).encode(),
    ),
    "controlled-panels": (
        "buttons with aria-controls, hidden panels",
        lambda n: _fill(
            lambda i: f'<button aria-controls="p{i}">Q</button><div id="p{i}" hidden>x</div>', n
        ).encode(),
    ),
    "utf16-label": (
        "cp1251 text labelled UTF-16",
        lambda n: (
            _page("<p>" + RU_TEXT * (n // 200) + "</p>")
            .replace('charset="utf-8"', 'charset="utf-16"')
            .encode("cp1251")
        ),
    ),
}


def pattern_page(name: str, size: int) -> bytes:
    """The pattern's page at about ``size`` bytes: a real head and article, then the pattern."""
    build = PATTERNS[name][1]
    if name == "utf16-label":
        return build(size)
    head = _PATTERN_HEAD.encode()
    return head + build(max(1, size - len(head)))


def run_pattern_child(name: str, size: int, engine: str, repeat: int = 1) -> dict[str, Any]:
    """Build one pattern page, run one engine on it ``repeat`` times, report the least CPU time
    (the others include noise from a shared machine) and the peak RSS growth."""
    from newsspider import extract
    from newsspider.extraction.classify.content_score import score_page

    extract(_page(_paragraphs(6)).encode("cp1251"), url="http://example.com/warm-up")
    score_page(_page(_paragraphs(6)).encode(), "text/html")
    page = pattern_page(name, size)
    gc.collect()
    rss_before = _rss_kb("VmRSS")
    peak_reset = _reset_peak()
    error = None
    cpu = float("inf")
    for _ in range(repeat):
        cpu_start = time.process_time()
        try:
            if engine == "score":
                score_page(page, "text/html")
            else:
                extract(page, url="http://example.com/page")
        except BaseException as exc:
            error = f"{type(exc).__name__}: {exc}"
        cpu = min(cpu, time.process_time() - cpu_start)
    peak = _rss_kb("VmHWM")
    return {
        "pattern": name,
        "engine": engine,
        "input_bytes": len(page),
        "cpu_seconds": cpu,
        "peak_growth_mb": (peak - rss_before) / 1024,
        "peak_exact": peak_reset,
        "error": error,
    }


def measure_pattern(
    name: str, size: int, engine: str, timeout: float, repeat: int = 1
) -> dict[str, Any]:
    """`run_pattern_child` in a fresh interpreter; a timeout is reported, not raised."""
    command = [sys.executable, "-m", "support.pathological", "--pattern", name]
    command += ["--size", str(size), "--engine", engine, "--repeat", str(repeat)]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(
            filter(None, [str(TESTS), str(ROOT), os.environ.get("PYTHONPATH")])
        ),
    }
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=timeout, cwd=ROOT, env=env, check=False
        )
    except subprocess.TimeoutExpired:
        return {"pattern": name, "engine": engine, "input_bytes": size, "timeout": timeout}
    if done.returncode != 0:
        return {"pattern": name, "engine": engine, "input_bytes": size, "error": done.stderr[-500:]}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def growth_table(
    names: list[str], sizes: tuple[int, int], engines: list[str], timeout: float, repeat: int = 1
) -> tuple[list[dict[str, Any]], str]:
    """Every pattern at two sizes per engine: CPU s/MB, RSS MB/MB, time growth per doubling."""
    rows: list[dict[str, Any]] = []
    lines = [
        f"| pattern | engine | CPU s/MB @{sizes[0] // 1024} kB | @{sizes[1] // 1024} kB "
        "| RSS MB/MB (larger) | CPU growth per doubling |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for name in names:
        for engine in engines:
            small = measure_pattern(name, sizes[0], engine, timeout, repeat)
            large = (
                measure_pattern(name, sizes[1], engine, timeout, repeat)
                if "timeout" not in small
                else {"timeout": timeout, "input_bytes": sizes[1]}
            )
            row = {"pattern": name, "engine": engine, "small": small, "large": large}
            rows.append(row)

            def per_mb(m: dict[str, Any], key: str) -> str:
                if "timeout" in m:
                    return f"> {m['timeout'] / (m['input_bytes'] / MB):.0f} (timeout)"
                if m.get("error"):
                    return "error"
                return f"{m[key] / (m['input_bytes'] / MB):.2f}"

            growth = "?"
            if all("cpu_seconds" in m for m in (small, large)) and large["cpu_seconds"] < 0.1:
                growth = "– (< 0.1 s)"  # below what a shared machine's timer can compare
            elif all("cpu_seconds" in m for m in (small, large)):
                doublings = max(1e-9, math.log2(large["input_bytes"] / small["input_bytes"]))
                ratio = max(large["cpu_seconds"], 1e-3) / max(small["cpu_seconds"], 1e-3)
                growth = f"{ratio ** (1 / doublings):.2f}x"
            elif "timeout" in large:
                growth = "timeout"
            lines.append(
                f"| {name} | {engine} | {per_mb(small, 'cpu_seconds')} | "
                f"{per_mb(large, 'cpu_seconds')} | {per_mb(large, 'peak_growth_mb')} | {growth} |"
            )
            print(lines[-1], flush=True)
    return rows, "\n".join(lines)


# --- the child --------------------------------------------------------------------------------

# Audit events that touch the outside world. "open" and directory listings are also raised by
# the import system reading Python's own modules; those are counted apart (`imports`).
_AUDIT_PREFIXES = (
    "open",
    "os.",
    "socket.",
    "subprocess.",
    "shutil.",
    "urllib.",
    "http.",
    "ftplib.",
    "smtplib.",
    "webbrowser.",
    "ctypes.dlopen",
    "glob.",
    "tempfile.",
    "sqlite3.",
)
_IMPORT_SUFFIXES = (".py", ".pyc", ".so", ".pth")


def _python_roots() -> tuple[str, ...]:
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, str(ROOT)}
    roots.update(p for p in sys.path if p)
    return tuple(sorted(roots))


def _is_import_path(path: str, roots: tuple[str, ...]) -> bool:
    if not path.startswith(roots):
        return False
    return path.endswith(_IMPORT_SUFFIXES) or "__pycache__" in path or os.path.isdir(path)


def _rss_kb(field_name: str) -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field_name + ":"):
                return int(line.split()[1])
    return 0


def _reset_peak() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as clear:
            clear.write("5")
    except OSError:
        return False
    return True


@contextlib.contextmanager
def _sandbox() -> Iterator[tuple[Sandbox, socket.socket]]:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    listener.setblocking(False)
    with tempfile.TemporaryDirectory(prefix="newsspider-") as tmp:
        secret = Path(tmp) / "secret.txt"
        secret.write_text(SECRET + "\n")
        try:
            yield Sandbox(f"http://127.0.0.1:{listener.getsockname()[1]}", str(secret)), listener
        finally:
            listener.close()


def _connections(listener: socket.socket) -> int:
    count = 0
    while True:
        try:
            conn, _ = listener.accept()
        except OSError:  # BlockingIOError: nobody connected
            return count
        conn.close()
        count += 1


def check_article(article: Any) -> list[str]:
    """The well-formedness promise (tests/support/articles.py), as a list of problems."""
    from newsspider import PAGE_TYPES, Article

    problems: list[str] = []
    if not isinstance(article, Article):
        return [f"not an Article: {type(article).__name__}"]
    if not isinstance(article.body, str) or not isinstance(article.body_html, str):
        problems.append("body or body_html is not a str")
    if not 0.0 <= article.confidence <= 1.0:
        problems.append(f"confidence {article.confidence!r} outside [0, 1]")
    if article.page_type not in PAGE_TYPES:
        problems.append(f"unknown page_type {article.page_type!r}")
    for flagged in ("internal-error", "metadata-error"):  # a bug, caught and logged
        if flagged in article.warnings:
            problems.append(flagged)
    try:
        json.dumps(article.to_dict())
    except (TypeError, ValueError) as error:
        problems.append(f"not JSON-ready: {error}")
    return problems


def run_child(
    case_name: str, max_bytes: int | str | None, *, engine: str = "extract"
) -> dict[str, Any]:
    """Build one page, extract it once, report (the body of ``python -m support.pathological``).

    engine "lxml" parses the same bytes with a bare ``lxml.etree.HTMLParser`` instead, for
    comparison (a separate process: freed memory would hide the second measurement's peak).
    """
    from lxml import etree

    import newsspider
    from newsspider import extract

    case = CASES[case_name]
    # Warm-up: the imports and lazy initialisations of a first call are not the page's cost.
    extract(_page(_paragraphs(6)).encode("cp1251"), url="http://example.com/warm-up")
    lxml_parser = etree.HTMLParser(huge_tree=True, no_network=True, remove_comments=True)
    with _sandbox() as (box, listener):
        page = case.build(box)
        gc.collect()
        roots = _python_roots()
        events: list[str] = []
        imports = 0
        recording = False

        def hook(event: str, args: tuple[Any, ...]) -> None:
            nonlocal imports
            if not recording or not event.startswith(_AUDIT_PREFIXES):
                return
            first = args[0] if args else None
            path = os.fsdecode(first) if isinstance(first, str | bytes) else None
            listing = event in ("open", "os.listdir", "os.scandir")
            if listing and path is not None and _is_import_path(os.path.abspath(path), roots):
                imports += 1
                return
            events.append(f"{event} {args!r}"[:300])

        sys.addaudithook(hook)
        rss_before = _rss_kb("VmRSS")
        peak_reset = _reset_peak()
        kwargs: dict[str, Any] = {} if max_bytes == "default" else {"max_bytes": max_bytes}
        with contextlib.suppress(OSError):
            os.stat(BEGIN_MARK)
        recording = True
        start = time.perf_counter()
        cpu_start = time.process_time()
        error = None
        article: Any = None
        try:
            if engine == "lxml":
                etree.fromstring(page, lxml_parser)
            elif engine == "xml-resolving":  # the control: a parser that does follow entities
                resolving = etree.XMLParser(resolve_entities=True, load_dtd=True, no_network=False)
                etree.fromstring(page, resolving)
            else:
                article = extract(
                    page, url="http://example.com/page", encoding=case.encoding, **kwargs
                )
        except BaseException as exc:  # the promise under test: this never happens
            error = f"{type(exc).__name__}: {exc}"
        seconds = time.perf_counter() - start
        cpu_seconds = time.process_time() - cpu_start
        recording = False
        with contextlib.suppress(OSError):
            os.stat(END_MARK)
        peak = _rss_kb("VmHWM")
        connections = _connections(listener)
    result: dict[str, Any] = {
        "case": case.name,
        "engine": engine,
        "max_bytes": max_bytes,
        "input_bytes": len(page),
        "seconds": seconds,
        "cpu_seconds": cpu_seconds,
        "load_average": os.getloadavg()[0],
        "rss_before_mb": rss_before / 1024,
        # Without clear_refs the high-water mark may date from building the page: an upper bound.
        "peak_growth_mb": (peak - rss_before) / 1024,
        "peak_exact": peak_reset,
        "audit_events": events,
        "import_reads": imports,
        "connections": connections,
        "error": error,
        "problems": []
        if engine != "extract"
        else check_article(article)
        if error is None
        else ["raised"],
        "version": newsspider.__version__,
    }
    if article is not None:
        output = article.body + article.body_html + (article.title or "")
        result.update(
            body_chars=len(article.body),
            warnings=list(article.warnings),
            page_type=article.page_type,
            confidence=article.confidence,
            encoding=article.encoding,
            expected_found=case.expect is None or case.expect in article.body,
            leaked=SECRET in output or "root:x:" in output or "lollollol" in output,
        )
    return result


# --- the parent -------------------------------------------------------------------------------


@dataclass(slots=True)
class Measurement:
    case: str
    max_bytes: int | str | None
    input_bytes: int
    seconds: float
    cpu_seconds: float
    peak_growth_mb: float | None
    problems: list[str]
    audit_events: list[str]
    connections: int
    engine: str = "extract"
    #: False when the RSS high-water mark could not be reset: peak_growth_mb is an upper bound.
    peak_exact: bool = True
    body_chars: int = 0
    warnings: list[str] = field(default_factory=list)
    page_type: str = ""
    confidence: float = 0.0
    expected_found: bool = True
    leaked: bool = False
    import_reads: int = 0
    error: str | None = None
    encoding: str | None = None
    #: File and network syscalls made while `extract` ran (None: not traced).
    syscalls: list[str] | None = None
    wall_seconds: float = 0.0
    load_average: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def input_mb(self) -> float:
        return self.input_bytes / MB

    @property
    def parsed_mb(self) -> float:
        """Megabytes `extract` parsed: the input, cut to ``max_bytes``."""
        from newsspider.extraction.api import DEFAULT_MAX_BYTES

        limit = DEFAULT_MAX_BYTES if self.max_bytes == "default" else self.max_bytes
        size = self.input_bytes if not isinstance(limit, int) else min(limit, self.input_bytes)
        return size / MB


@functools.cache
def _strace_command() -> tuple[str, ...] | None:
    """strace and its options, if it is installed and allowed to trace (ptrace is often off in
    containers). With ``--seccomp-bpf`` only the traced syscalls stop the child, so the
    measurement stays close to an untraced run."""
    strace = shutil.which("strace")
    if strace is None:
        return None
    base = (strace, "-f", "-qq", "-e", "trace=%file,%network,%process")
    for options in ((*base, "--seccomp-bpf"), base):
        probe = subprocess.run(
            [*options, "-o", os.devnull, sys.executable, "-c", "pass"],
            capture_output=True,
            timeout=60,
            check=False,
        )
        if probe.returncode == 0:
            return options
    return None


def strace_available() -> bool:
    return _strace_command() is not None


_SYSCALL = re.compile(r"^(?:\[pid\s+)?\d*\]?\s*(\w+)\((.*)")
_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')


def _traced_syscalls(log: str, roots: tuple[str, ...]) -> list[str]:
    """File and network syscalls between the child's begin and end marks, minus imports."""
    found: list[str] = []
    inside = False
    for line in log.splitlines():
        if BEGIN_MARK in line:
            inside = True
            continue
        if END_MARK in line:
            break
        match = _SYSCALL.match(line.strip())
        if not inside or match is None or "resumed>" in line:
            continue
        name, rest = match.groups()
        paths = _QUOTED.findall(rest)
        if paths and all(_is_import_path(p, roots) for p in paths):
            continue
        found.append(f"{name}({rest}"[:300])
    return found


def measure(
    case: str,
    max_bytes: int | str | None = "default",
    *,
    engine: str = "extract",
    strace: bool = False,
    timeout: float = 600,
) -> Measurement:
    """Run one case in a fresh interpreter (optionally under strace) and return what it saw."""
    limit = "default" if max_bytes == "default" else "none" if max_bytes is None else max_bytes
    command = [sys.executable, "-m", "support.pathological", case, "--max-bytes", str(limit)]
    command += ["--engine", engine]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(
            filter(None, [str(TESTS), str(ROOT), os.environ.get("PYTHONPATH")])
        ),
    }
    with tempfile.TemporaryDirectory(prefix="newsspider-strace-") as tmp:
        log_path = Path(tmp) / "strace.log"
        if strace:
            options = _strace_command()
            if options is None:
                raise RuntimeError("strace is not available")
            command = [*options, "-o", str(log_path), *command]
        start = time.perf_counter()
        completed = subprocess.run(
            command, capture_output=True, text=True, timeout=timeout, cwd=ROOT, env=env, check=False
        )
        wall = time.perf_counter() - start
        if completed.returncode != 0:
            raise RuntimeError(f"{case}: child exited {completed.returncode}\n{completed.stderr}")
        raw: dict[str, Any] = json.loads(completed.stdout.strip().splitlines()[-1])
        syscalls = None
        if strace:
            roots = (*_python_roots(), sys.prefix, sys.base_prefix)
            syscalls = _traced_syscalls(log_path.read_text(errors="replace"), roots)
    known = set(Measurement.__dataclass_fields__)
    fields = {k: v for k, v in raw.items() if k in known}
    extra = {k: v for k, v in raw.items() if k not in known}
    return Measurement(**fields, syscalls=syscalls, wall_seconds=wall, extra=extra)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("case", nargs="?", choices=sorted(CASES))
    parser.add_argument("--max-bytes", default="default", help="default, none or a number")
    parser.add_argument(
        "--engine",
        choices=("extract", "lxml", "xml-resolving", "score"),
        default="extract",
        help="lxml: a bare HTML parse; xml-resolving: an unsafe XML parse (a control); "
        "score: the crawl-time content score (patterns only)",
    )
    parser.add_argument("--list", action="store_true", help="list the cases")
    parser.add_argument("--pattern", help="child: one adversarial pattern (see --growth)")
    parser.add_argument("--size", type=int, default=MB, help="child: the pattern's size")
    parser.add_argument(
        "--growth",
        action="store_true",
        help="every pattern at two sizes, each in a child: CPU s/MB, RSS MB/MB, growth",
    )
    parser.add_argument("--sizes", default=f"{2 * MB},{8 * MB}", help="growth: two sizes in bytes")
    parser.add_argument("--patterns", help="growth: comma-separated subset")
    parser.add_argument("--engines", default="extract,score", help="growth: extract,score")
    parser.add_argument("--timeout", type=float, default=120, help="growth: seconds per child")
    parser.add_argument("--repeat", type=int, default=3, help="runs per child (least CPU)")
    parser.add_argument("--json", type=Path, help="growth: write the measurements here")
    args = parser.parse_args(argv)
    if args.pattern:
        print(json.dumps(run_pattern_child(args.pattern, args.size, args.engine, args.repeat)))
        return 0
    if args.growth:
        small, large = (int(x) for x in args.sizes.split(","))
        names = args.patterns.split(",") if args.patterns else list(PATTERNS)
        engines = args.engines.split(",")
        rows, _table = growth_table(names, (small, large), engines, args.timeout, args.repeat)
        if args.json:
            args.json.write_text(json.dumps(rows, indent=1))
        return 0
    if args.list or args.case is None:
        for case in CASES.values():
            print(f"{case.name:26} {case.description}")
        return 0
    limit: int | str | None = args.max_bytes
    if args.max_bytes == "none":
        limit = None
    elif args.max_bytes != "default":
        limit = int(args.max_bytes)
    result = run_child(args.case, limit, engine=args.engine)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

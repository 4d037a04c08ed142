"""Issue 5's pathological pages at full size: bounded time and memory, no file or network access.

Each page is built and extracted in a fresh interpreter (`support.pathological.measure`), so its
time and peak RSS are its own: the child resets its RSS high-water mark after building the page
(lxml's C allocations are invisible to tracemalloc; RSS sees them). The child also records every
Python audit event that touches files, sockets or processes while `extract` runs, holds a
listening socket and a secret file that the external-entity page points at, and, under strace
when it is available, every file and network syscall (libxml2's C code included).

Bounds (docs/robustness.md), per megabyte parsed (the input cut to ``max_bytes``): CPU time
``CPU_BASE + CPU_PER_MB * MB``; peak RSS growth ``RSS_BASE + RSS_PER_MB * MB``. They are
deliberately generous (a loaded 2-core CI machine); the measured figures are in the docs.

Pages over 20 s (1 000 000 block elements, 50 MB without the byte cap, the densest 20 MB page)
are marked ``slow`` and skipped unless ``NEWSSPIDER_SLOW_TESTS=1``.
"""

from __future__ import annotations

import builtins
import gc
import io
import os
import socket
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from support import pathological
from support.articles import assert_well_formed
from support.pathological import CASES, LEAD, SECRET, Measurement, Sandbox, measure

from newsspider import ALGORITHMS, extract
from newsspider.extraction.page import class_words

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="peak RSS is read from /proc"
)

CPU_BASE, CPU_PER_MB = 10.0, 4.0
RSS_BASE, RSS_PER_MB = 64.0, 120.0

RUN_SLOW = os.environ.get("NEWSSPIDER_SLOW_TESTS") == "1"
SLOW = (
    pytest.mark.slow,
    pytest.mark.skipif(not RUN_SLOW, reason="over 20 s: set NEWSSPIDER_SLOW_TESTS=1"),
)
SLOW_CASES = {"million-elements", "densest-20mb"}
#: (case, max_bytes) pairs; "default" leaves extract's own 20 MiB cap in place.
RUNS = [
    *((name, "default") for name in CASES if name not in SLOW_CASES),
    *(pytest.param(name, "default", marks=SLOW) for name in sorted(SLOW_CASES)),
    pytest.param("html-50mb", None, marks=SLOW),
]
STRACE = pathological.strace_available()


def within_bounds(m: Measurement) -> None:
    cpu_limit = CPU_BASE + CPU_PER_MB * m.parsed_mb
    assert m.cpu_seconds < cpu_limit, f"{m.case}: {m.cpu_seconds:.1f}s CPU (limit {cpu_limit:.0f})"
    assert m.peak_growth_mb is not None
    rss_limit = RSS_BASE + RSS_PER_MB * m.parsed_mb
    assert m.peak_growth_mb < rss_limit, (
        f"{m.case}: +{m.peak_growth_mb:.0f} MB (limit {rss_limit:.0f})"
    )


def touched_nothing(m: Measurement) -> None:
    assert m.audit_events == [], m.audit_events
    assert m.connections == 0, "something connected to the page's http:// URLs"
    if m.syscalls is not None:
        assert m.syscalls == [], m.syscalls


@pytest.mark.parametrize(("case", "max_bytes"), RUNS)
def test_pathological_page(case: str, max_bytes: int | str | None) -> None:
    m = measure(case, max_bytes, strace=STRACE)
    assert m.error is None
    assert m.problems == []  # well-formed Article, no internal-error
    within_bounds(m)
    touched_nothing(m)
    assert not m.leaked, "entity text, /etc/passwd or the secret file reached the output"
    assert m.expected_found, f"{CASES[case].expect!r} missing from the body"
    if max_bytes == "default" and m.input_bytes > 20 * 1024 * 1024:
        assert "truncated" in m.warnings  # 50 MB: the first 20 MiB are parsed


@pytest.mark.skipif(not STRACE, reason="strace is not installed or may not trace here")
def test_the_probe_sees_file_access_when_a_parser_resolves_entities() -> None:
    # The control for `touched_nothing`: an XML parser that does follow external entities, on
    # the same page in the same child, is caught reading the secret file.
    m = measure("external-entities", engine="xml-resolving", strace=True)
    assert m.syscalls
    assert any("secret.txt" in call for call in m.syscalls)


@pytest.mark.xfail(
    strict=True,
    reason="the article below 100 000 open <div>s is lost twice over: the element budget (one "
    "start tag per 12 bytes) parses only the first part of a page this dense, and libxml2 2.14 "
    "stops building the tree at depth 2048 (even with huge_tree). Bounded and well-formed, but "
    "empty; see docs/robustness.md.",
)
def test_article_below_a_hundred_thousand_levels_is_found() -> None:
    article = assert_well_formed(extract(pathological.deep_100k(Sandbox())))
    assert LEAD in article.body


# --- in-process: every algorithm, and a patched-out outside world ----------------------------

SMALL_PAGES: dict[str, Callable[[Sandbox], bytes]] = {
    "deep-100k": pathological.deep_100k,
    "deep-100k-unclosed": pathological.deep_100k_unclosed,
    "table-spans": lambda box: pathological.table_spans(box, rows=100),
    "nul-bytes": lambda box: pathological.nul_bytes(box, size=64 * 1024),
    "invalid-utf8": lambda box: pathological.invalid_utf8(box, size=64 * 1024),
    "charset-mismatch-cp1251": lambda box: pathological.charset_mismatch_cp1251(box, 64 * 1024),
    "charset-mismatch-gbk": lambda box: pathological.charset_mismatch_gbk(box, 64 * 1024),
    "billion-laughs": pathological.billion_laughs,
    "quadratic-blowup": pathological.quadratic_blowup,
    "external-entities": pathological.external_entities,
    "text-node-no-spaces": lambda box: pathological.text_node_10mb_no_spaces(box, 256 * 1024),
}


@pytest.fixture
def secret_file(tmp_path: Path) -> Path:
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET)
    return secret


@pytest.fixture
def outside_world(secret_file: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Files and sockets patched to record and refuse (after the secret file exists); yields
    the record."""
    # A first call may load what an algorithm ships with (line-classifier reads its bundled
    # model once): that is the package, not the page, touching the disk.
    for algorithm in ALGORITHMS:
        extract(pathological.billion_laughs(Sandbox()), algorithm=algorithm)
    calls: list[str] = []

    def refuse(name: str) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            calls.append(f"{name}{args[:2]!r}")
            raise PermissionError(f"{name} is off during extract")

        return call

    for target, name in (
        (socket.socket, "connect"),
        (socket.socket, "connect_ex"),
        (socket.socket, "sendto"),
        (socket, "create_connection"),
        (socket, "getaddrinfo"),
        (builtins, "open"),
        (io, "open"),
        (os, "open"),
        (urllib.request, "urlopen"),
    ):
        monkeypatch.setattr(target, name, refuse(f"{getattr(target, '__name__', '')}.{name}"))
    yield calls


@pytest.mark.parametrize("name", SMALL_PAGES)
def test_every_algorithm_on_small_pathological_pages(
    name: str, secret_file: Path, outside_world: list[str]
) -> None:
    page = SMALL_PAGES[name](Sandbox("http://127.0.0.1:9", str(secret_file)))
    encoding = CASES[name].encoding if name in CASES else None
    for algorithm in ALGORITHMS:
        start = time.process_time()
        article = assert_well_formed(extract(page, encoding=encoding, algorithm=algorithm))
        elapsed = time.process_time() - start
        assert "internal-error" not in article.warnings, algorithm
        assert elapsed < 20, f"{algorithm}: {elapsed:.1f}s"
        output = article.body + article.body_html
        assert SECRET not in output and "root:x:" not in output and "lollol" not in output
    assert outside_world == []


# --- issue 14: every adversarial pattern grows linearly (cheap version of --growth) ----------

#: Two doublings apart. Linear work grows 4x, quadratic 16x; the bound allows 9x (3x per
#: doubling, the benchmark's target is 2.3x) plus timer noise on a loaded machine.
GROWTH_SIZES = (128 * 1024, 512 * 1024)
GROWTH_LIMIT = 9.0
GROWTH_NOISE = 0.05  # seconds
CPU_PER_MB_LIMIT = 4.0  # the benchmark's target is 2


def _cpu(run: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(3):  # the fastest of three: the others are noise from the shared machine
        # Each run from a cold class cache, as a new page of unique class values meets it: a
        # small page's second run would otherwise find every value cached, a large one's not.
        class_words.clear_cache()
        # The objects the test session holds are frozen out of the collector's reach: a full
        # collection over them is the session's size, not the page's (the page's own objects
        # are still collected and timed). Seen as a 0.2 s step on one run of the full suite.
        gc.collect()
        gc.freeze()
        try:
            start = time.process_time()
            run()
            best = min(best, time.process_time() - start)
        finally:
            gc.unfreeze()
    return best


@pytest.mark.parametrize("engine", ["extract", "score"])
@pytest.mark.parametrize("pattern", sorted(pathological.PATTERNS))
def test_adversarial_pattern_costs_grow_linearly(pattern: str, engine: str) -> None:
    from newsspider.extraction.classify.content_score import score_page

    def cost(size: int) -> tuple[float, float]:
        page = pathological.pattern_page(pattern, size)
        if engine == "score":
            return _cpu(lambda: score_page(page, "text/html")), len(page) / 2**20
        return _cpu(lambda: assert_well_formed(extract(page))), len(page) / 2**20

    (small, _), (large, megabytes) = cost(GROWTH_SIZES[0]), cost(GROWTH_SIZES[1])
    assert large <= GROWTH_LIMIT * small + GROWTH_NOISE, f"{small:.3f}s -> {large:.3f}s"
    assert large <= CPU_PER_MB_LIMIT * megabytes + GROWTH_NOISE, f"{large:.2f}s"


def test_buttons_left_open_inside_each_other_cost_linear_time() -> None:
    # A button left open takes the rest of the page inside it; a thousand of them nest. Asking
    # each whether it holds a paragraph read the subtrees of the ones inside it again (seed 32
    # of the fuzzer: 2 s for 300 kB); depth is capped by libxml2, so the cost did not grow with
    # the page, only per byte: the bound here is per megabyte.
    page = pathological.pattern_page("nested-buttons", GROWTH_SIZES[0])
    seconds = _cpu(lambda: assert_well_formed(extract(page)))
    assert seconds <= CPU_PER_MB_LIMIT * len(page) / 2**20 + GROWTH_NOISE, f"{seconds:.2f}s"

"""Run every extractor over the same in-memory pages, in one process, and score them.

    python -m bench [--corpus NAME ...] [--peers a,b] [--algorithms all|a,b] [--repeat N]
                    [--json out.json] [--markdown out.md] [--limit N] [--by-lang]

Prints one markdown table per corpus to stdout (progress goes to stderr).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import logging
import math
import os
import platform
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.accuracy import metric
from bench.accuracy.peers import (
    EMPTY,
    PEER_NAMES,
    Peer,
    PeerOutput,
    PeerUnavailable,
    load_peer,
    lxml_parse,
    newsspider_peer,
)
from bench.corpus import Page, available_corpora, corpora_root, load_corpus

__all__ = ["CorpusRun", "ExtractorResult", "PageResult", "evaluate", "main", "run_timed"]

#: Per-corpus sub-tables restricted to one language: corpus → languages.
LANG_SUBSETS: dict[str, tuple[str, ...]] = {"magichtml_article": ("zh",)}
#: The timing reference peer for the "× trafilatura" column.
REFERENCE_PEER = "trafilatura"
#: --by-lang shows languages with at least this many pages with a body truth.
MIN_LANG_PAGES = 5


# --- results --------------------------------------------------------------------------------


@dataclass(slots=True)
class PageResult:
    """One extractor on one page; None where there is no truth or no such output."""

    id: str
    lang: str | None
    url: str | None
    f1: float | None = None
    precision: float | None = None
    recall: float | None = None
    confidence: float | None = None
    title_ok: bool | None = None
    title_ok_lenient: bool | None = None
    date_ok: bool | None = None
    pred_title: str | None = None
    pred_date: str | None = None
    true_title: str | None = None
    true_date: str | None = None
    body_chars: int = 0
    error: str | None = None
    #: The page-type group it is reported under (wceb2026_llm_dev), None elsewhere.
    group: str | None = None
    match: metric.Match | None = field(default=None, repr=False)
    snippets: metric.SnippetHits | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        skip = ("match", "snippets")
        data = {k: getattr(self, k) for k in self.__slots__ if k not in skip}
        if self.match is not None:
            data["tp"], data["fp"], data["fn"] = self.match.tp, self.match.fp, self.match.fn
        if self.snippets is not None:
            data["with_found"], data["with_total"] = (
                self.snippets.with_found,
                self.snippets.with_total,
            )
            data["without_absent"], data["without_total"] = (
                self.snippets.without_absent,
                self.snippets.without_total,
            )
        return data


@dataclass(slots=True)
class ExtractorResult:
    name: str
    label: str
    produces: frozenset[str]
    seconds: float
    pages: list[PageResult]
    body: metric.BodyScore | None
    title_acc: float | None
    title_acc_lenient: float | None
    date_acc: float | None
    auroc: float | None
    errors: int

    @property
    def pages_per_s(self) -> float:
        return len(self.pages) / self.seconds if self.seconds > 0 else float("inf")

    def summary(self) -> dict[str, Any]:
        body = self.body
        return {
            "label": self.label,
            "f1": body.f1 if body else None,
            "precision": body.precision if body else None,
            "recall": body.recall if body else None,
            "title_acc": self.title_acc,
            "title_acc_lenient": self.title_acc_lenient,
            "date_acc": self.date_acc,
            "auroc": self.auroc,
            "seconds": self.seconds,
            "pages_per_s": self.pages_per_s,
            "errors": self.errors,
            "n_pages": len(self.pages),
        }


@dataclass(slots=True)
class CorpusRun:
    name: str
    n_pages: int
    #: Pages with a body / title / date truth.
    n_body: int
    n_title: int
    n_date: int
    baseline_seconds: float
    baseline_errors: int
    results: list[ExtractorResult]
    skipped: list[tuple[str, str]]
    #: Page id → path of its .html.gz, for error analysis.
    page_paths: dict[str, str]

    def result(self, name: str) -> ExtractorResult | None:
        return next((r for r in self.results if r.name == name), None)

    def groups(self) -> list[str]:
        """The page-type groups present, in first-seen order (empty for ungrouped corpora)."""
        seen: dict[str, None] = {}
        for res in self.results[:1]:
            for pr in res.pages:
                if pr.group is not None:
                    seen.setdefault(pr.group)
        return list(seen)

    def group_pages(self, res: ExtractorResult, group: str | None) -> list[PageResult]:
        """``res``'s pages in ``group`` (all of them for None)."""
        return [pr for pr in res.pages if group is None or pr.group == group]

    def subset_scores(self, lang: str) -> dict[str, metric.BodyScore]:
        """Body scores over the pages in ``lang``, per extractor that produces a body."""
        scores = {}
        for res in self.results:
            matches = [pr.match for pr in res.pages if pr.lang == lang and pr.match is not None]
            if matches:
                scores[res.name] = metric.body_score(matches)
        return scores


# --- running --------------------------------------------------------------------------------


def run_timed(
    fn: Callable[[bytes, str | None], Any], pages: Sequence[Page], repeat: int
) -> tuple[list[Any], list[str | None], float]:
    """Call ``fn`` on every page ``repeat`` times; outputs and errors of the first round, best time.

    An exception on a page counts as an empty output (None) and its message is kept.
    """
    best = float("inf")
    outputs: list[Any] = []
    errors: list[str | None] = []
    for round_no in range(max(1, repeat)):
        outs: list[Any] = []
        errs: list[str | None] = []
        gc.collect()
        start = time.perf_counter()
        for page in pages:
            try:
                outs.append(fn(page.html, page.url))
                errs.append(None)
            except Exception as exc:
                outs.append(None)
                errs.append(f"{type(exc).__name__}: {exc}"[:300])
        best = min(best, time.perf_counter() - start)
        if round_no == 0:
            outputs, errors = outs, errs
    return outputs, errors, best


def _clean(out: object) -> PeerOutput:
    """Coerce whatever an adapter returned into a PeerOutput of the right types."""
    if not isinstance(out, PeerOutput):
        return EMPTY
    body = out.body if isinstance(out.body, str) else ""
    title = out.title if isinstance(out.title, str) and out.title.strip() else None
    date = out.date if isinstance(out.date, str) and out.date.strip() else None
    conf = out.confidence
    conf = float(conf) if isinstance(conf, int | float) and math.isfinite(conf) else None
    return PeerOutput(body, title, date, conf)


def evaluate(
    peer: Peer,
    pages: Sequence[Page],
    outputs: Sequence[object],
    errors: Sequence[str | None],
    seconds: float,
) -> ExtractorResult:
    """Score one extractor's outputs against the pages' truth."""
    results: list[PageResult] = []
    for page, raw, error in zip(pages, outputs, errors, strict=True):
        out = _clean(raw)
        pr = PageResult(
            page.id, page.lang, page.url, error=error, body_chars=len(out.body), group=page.group
        )
        if "body" in peer.produces and page.body is not None:
            pr.match = metric.shingle_match(page.body, out.body)
            pr.f1, pr.precision, pr.recall = pr.match.f1, pr.match.precision, pr.match.recall
        if "body" in peer.produces and (page.with_snippets or page.without_snippets):
            pr.snippets = metric.snippet_hits(
                out.body, page.with_snippets or (), page.without_snippets or ()
            )
        if "confidence" in peer.produces:
            pr.confidence = out.confidence if out.confidence is not None else 0.0
        if "title" in peer.produces:
            pr.pred_title = out.title
            if page.title is not None:
                pr.true_title = page.title
                pr.title_ok = metric.title_correct(out.title, page.title)
                pr.title_ok_lenient = metric.title_correct_lenient(out.title, page.title)
        if "date" in peer.produces:
            pr.pred_date = out.date
            if page.date is not None:
                pr.true_date = page.date
                pr.date_ok = metric.date_correct(out.date, page.date)
        results.append(pr)

    matches = [pr.match for pr in results if pr.match is not None]
    auroc = None
    if "confidence" in peer.produces and matches:
        scored = [pr for pr in results if pr.match is not None]
        auroc = metric.auroc(
            [pr.confidence or 0.0 for pr in scored],
            [(pr.f1 or 0.0) >= metric.GOOD_F1 for pr in scored],
        )
    return ExtractorResult(
        name=peer.name,
        label=peer.label,
        produces=peer.produces,
        seconds=seconds,
        pages=results,
        body=metric.body_score(matches) if matches else None,
        title_acc=metric.accuracy(pr.title_ok for pr in results if pr.title_ok is not None),
        title_acc_lenient=metric.accuracy(
            pr.title_ok_lenient for pr in results if pr.title_ok_lenient is not None
        ),
        date_acc=metric.accuracy(pr.date_ok for pr in results if pr.date_ok is not None),
        auroc=auroc,
        errors=sum(e is not None for e in errors),
    )


def _truth_kinds(pages: Sequence[Page]) -> set[str]:
    kinds = set()
    if any(p.body is not None for p in pages):
        kinds |= {"body", "confidence"}
    if any(p.title is not None for p in pages):
        kinds.add("title")
    if any(p.date is not None for p in pages):
        kinds.add("date")
    return kinds


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _warm_up(peer: Peer, page: Page) -> None:
    """One untimed call, so lazy imports and first-use setup are not charged to the corpus."""
    with contextlib.suppress(Exception):
        peer.fn(page.html, page.url)


def run_corpus(name: str, pages: list[Page], peers: Sequence[Peer], repeat: int) -> CorpusRun:
    lxml_parse(pages[0].html)
    _, base_errors, base_seconds = run_timed(lambda html, _url: lxml_parse(html), pages, repeat)
    n_base_errors = sum(e is not None for e in base_errors)
    _log(f"[{name}] {len(pages)} pages; lxml.html.fromstring: {base_seconds:.2f}s")
    kinds = _truth_kinds(pages)
    results: list[ExtractorResult] = []
    skipped: list[tuple[str, str]] = []
    for peer in peers:
        if not peer.produces & kinds:
            skipped.append((peer.label, "no truth for what it extracts"))
            continue
        _warm_up(peer, pages[0])
        outputs, errors, seconds = run_timed(peer.fn, pages, repeat)
        result = evaluate(peer, pages, outputs, errors, seconds)
        del outputs
        _log(f"[{name}] {peer.label}: {seconds:.2f}s, {result.errors} errors")
        results.append(result)
    return CorpusRun(
        name=name,
        n_pages=len(pages),
        n_body=sum(p.body is not None for p in pages),
        n_title=sum(p.title is not None for p in pages),
        n_date=sum(p.date is not None for p in pages),
        baseline_seconds=base_seconds,
        baseline_errors=n_base_errors,
        results=results,
        skipped=skipped,
        page_paths={p.id: str(p.path) for p in pages if p.path is not None},
    )


# --- command line ---------------------------------------------------------------------------


def _split(values: Sequence[str] | None) -> list[str]:
    return [v.strip() for item in values or () for v in item.split(",") if v.strip()]


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description="Accuracy and speed of newsspider and its peers on ../shared/corpora.",
    )
    parser.add_argument(
        "--corpus",
        action="append",
        metavar="NAME",
        help="corpus to run (repeatable or comma-separated; default: all)",
    )
    parser.add_argument(
        "--corpora",
        metavar="PATH",
        help="corpora folder (default: $NEWSSPIDER_CORPORA or "
        "../shared/corpora next to the repository)",
    )
    parser.add_argument(
        "--peers",
        action="append",
        metavar="A,B",
        help=f"extractors to run (default: all = {','.join(PEER_NAMES)})",
    )
    parser.add_argument(
        "--algorithms",
        action="append",
        metavar="A,B",
        help="also run newsspider.extract(algorithm=X) for these (or 'all' of ALGORITHMS)",
    )
    parser.add_argument("--repeat", type=int, default=1, help="timing: best of N runs")
    parser.add_argument("--limit", type=int, help="first N pages of each corpus")
    parser.add_argument("--json", type=Path, metavar="OUT", help="write results (per page too)")
    parser.add_argument("--markdown", type=Path, metavar="OUT", help="write the tables")
    parser.add_argument(
        "--by-lang",
        action="store_true",
        help=f"body sub-tables per language (>= {MIN_LANG_PAGES} pages)",
    )
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be >= 1")
    if args.limit is not None and args.limit < 1:
        parser.error("--limit must be >= 1")
    return args


def select_peers(
    peer_names: list[str], algorithms: list[str]
) -> tuple[list[Peer], list[tuple[str, str]]]:
    """Load the requested peers (newsspider algorithm rows first); report the missing ones."""
    if not peer_names or "all" in peer_names:
        peer_names = list(PEER_NAMES)
    unknown = [n for n in peer_names if n not in PEER_NAMES]
    if unknown:
        raise SystemExit(f"unknown peer(s): {', '.join(unknown)}; choose from {PEER_NAMES}")
    peers: list[Peer] = []
    unavailable: list[tuple[str, str]] = []
    for name in peer_names:
        try:
            peers.append(load_peer(name))
        except PeerUnavailable as exc:
            unavailable.append((name, f"not installed ({exc})"))
    if algorithms:
        from newsspider import ALGORITHMS

        wanted = list(ALGORITHMS) if "all" in algorithms else algorithms
        bad = [a for a in wanted if a not in ALGORITHMS]
        if bad:
            raise SystemExit(f"unknown algorithm(s): {', '.join(bad)}; have {ALGORITHMS}")
        have = {p.name for p in peers}
        extra = [newsspider_peer(a) for a in wanted]
        extra = [p for p in extra if p.name not in have]
        at = next((i + 1 for i, p in enumerate(peers) if p.name == "newsspider"), 0)
        peers[at:at] = extra
    return peers, unavailable


def _environment() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
    }


def main(argv: Sequence[str] | None = None) -> int:
    from bench.accuracy import report

    argv = list(sys.argv[1:] if argv is None else argv)
    args = parse_args(argv)
    logging.basicConfig(level=logging.ERROR)
    command = shlex.join(["python", "-m", "bench", *argv])
    started = datetime.now(UTC).replace(microsecond=0)

    root = corpora_root(args.corpora)
    available = available_corpora(root)
    if not available:
        raise SystemExit(f"no corpora under {root} (use --corpora or $NEWSSPIDER_CORPORA)")
    names = _split(args.corpus) or available
    missing = [n for n in names if n not in available]
    if missing:
        raise SystemExit(f"no such corpus: {', '.join(missing)}; have {', '.join(available)}")

    peers, unavailable = select_peers(_split(args.peers), _split(args.algorithms))
    env = _environment()
    out: list[str] = [
        report.header(
            started=started,
            command=command,
            env=env,
            repeat=args.repeat,
            peers=peers,
            unavailable=unavailable,
        ),
    ]
    print(out[0], flush=True)

    runs: list[CorpusRun] = []
    for name in names:
        pages = load_corpus(name, root, args.limit)
        if not pages:
            _log(f"[{name}] no pages, skipped")
            continue
        run = run_corpus(name, pages, peers, args.repeat)
        section = report.corpus_section(
            run, LANG_SUBSETS.get(name, ()), by_lang=args.by_lang, min_lang=MIN_LANG_PAGES
        )
        print(section, flush=True)
        out.append(section)
        runs.append(run)
        del pages  # the page bytes are not needed once scored

    if len(runs) > 1:
        overview = report.overview_section(runs)
        print(overview, flush=True)
        out.append(overview)

    if args.markdown:
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        args.markdown.write_text("\n".join(out), encoding="utf-8")
        _log(f"wrote {args.markdown}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        payload = report.to_json(
            started=started,
            command=command,
            env=env,
            args=args,
            runs=runs,
            unavailable=unavailable,
        )
        args.json.write_text(json.dumps(payload, ensure_ascii=False, indent=1), encoding="utf-8")
        _log(f"wrote {args.json}")
    return 0

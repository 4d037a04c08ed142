"""The compiled paths (segment walk, markup guard, class meaning) against the pure-Python ones,
on every development corpus.

    .venv/bin/python -m bench.speed.compiled                      # all corpora, equality + speed
    .venv/bin/python -m bench.speed.compiled --corpus scrapinghub_aeb --trafilatura --repeat 3

Per corpus, in one run: the pages whose `PageSegments` (both walks on the same tree) or whose
`Article` (every field, `extract` with each walk) differ — both counts must be 0; pages/s of
the bare lxml parse, of `extract` with the compiled and with the pure walk (and trafilatura
with ``--trafilatura``), each as a ratio to the parse; and the stage split of `extract` with
the active walk: parse, metadata (+ form signals), cleaning, walk, and the rest (scoring,
assembly, page type, output, freeing the tree), as shares of extract and as multiples of the
bare parse. Ratios only mean something within one run (docs/speed.md).
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import time
from collections.abc import Callable, Sequence
from typing import Any

from bench.accuracy.peers import lxml_parse
from bench.corpus import Page, available_corpora, corpora_root, load_corpus
from newsspider import core_loader
from newsspider.extraction import api
from newsspider.extraction.classify.pagetype import read_form_signals
from newsspider.extraction.metadata.reader import read_metadata
from newsspider.extraction.page import class_words, segments
from newsspider.extraction.page.cleaning import clean_tree

STAGES = ("parse", "metadata", "clean", "walk", "rest")


def _prepared_tree(page: Page) -> Any:
    """The tree as `extract` hands it to the walk (parsed, metadata read, cleaned), or None."""
    root, _, _, _ = api._parse(page.html, None, api.DEFAULT_MAX_BYTES, [])
    if root is None:
        return None
    read_metadata(root, page.url, reference_time=None, hints=None)
    read_form_signals(root)
    clean_tree(root)
    return root


def _first_difference(left: Any, right: Any) -> str:
    for field in dataclasses.fields(left):
        if getattr(left, field.name) != getattr(right, field.name):
            return field.name
    return "?"


def _extract_with(compiled: bool, page: Page) -> Any:
    core_loader.use_compiled(compiled)
    return api.extract(page.html, url=page.url)


def equality(pages: Sequence[Page]) -> tuple[int, int, list[str]]:
    """(pages whose PageSegments differ, pages whose Article differs, examples)."""
    active = segments.WALK.active is not None
    segment_mismatches = article_mismatches = 0
    examples: list[str] = []
    try:
        for page in pages:
            root = _prepared_tree(page)
            if root is not None:
                python_page = segments.segment_page_python(root)
                compiled_page = segments.segment_page_compiled(root)
                if python_page != compiled_page:
                    segment_mismatches += 1
                    field = _first_difference(python_page, compiled_page)
                    examples.append(f"{page.id}: PageSegments.{field}")
            # No cached class meanings: each path works out its own (`_class_words_c`).
            class_words.clear_cache()
            python_article = _extract_with(False, page)
            class_words.clear_cache()
            compiled_article = _extract_with(True, page)
            if python_article != compiled_article:
                article_mismatches += 1
                field = _first_difference(python_article, compiled_article)
                examples.append(f"{page.id}: Article.{field}")
    finally:
        core_loader.use_compiled(active)
    return segment_mismatches, article_mismatches, examples


def _timed(fn: Callable[[Page], object], pages: Sequence[Page]) -> float:
    gc.collect()
    start = time.perf_counter()
    for page in pages:
        fn(page)
    return time.perf_counter() - start


def speeds(pages: Sequence[Page], repeat: int, with_trafilatura: bool) -> dict[str, float]:
    """Best-of-``repeat`` seconds per runner, the runners interleaved round by round."""
    runners: dict[str, Callable[[Page], object]] = {
        "lxml parse": lambda page: lxml_parse(page.html),
        "compiled": lambda page: _extract_with(True, page),
        "pure": lambda page: _extract_with(False, page),
    }
    if with_trafilatura:
        from bench.accuracy.peers import load_peer

        trafilatura = load_peer("trafilatura").fn
        runners["trafilatura"] = lambda page: trafilatura(page.html, page.url)
    active = segments.WALK.active is not None
    best = dict.fromkeys(runners, float("inf"))
    try:
        for runner in runners.values():  # warm-up: caches, imports
            runner(pages[0])
        for _ in range(max(1, repeat)):
            for name, runner in runners.items():
                best[name] = min(best[name], _timed(runner, pages))
    finally:
        core_loader.use_compiled(active)
    return best


def stage_split(pages: Sequence[Page], repeat: int) -> dict[str, float]:
    """Seconds per stage of `extract` (the active walk), best round; "rest" is what the whole
    `extract` took beyond the stages timed apart."""
    best: dict[str, float] = dict.fromkeys((*STAGES, "extract"), float("inf"))
    clock = time.perf_counter
    for _ in range(max(1, repeat)):
        totals = dict.fromkeys(best, 0.0)
        gc.collect()
        for page in pages:
            start = clock()
            root, _, _, _ = api._parse(page.html, None, api.DEFAULT_MAX_BYTES, [])
            parsed = clock()
            if root is not None:
                read_metadata(root, page.url, reference_time=None, hints=None)
                read_form_signals(root)
                metadata = clock()
                clean_tree(root)
                cleaned = clock()
                segments.segment_page(root)
                walked = clock()
                totals["metadata"] += metadata - parsed
                totals["clean"] += cleaned - metadata
                totals["walk"] += walked - cleaned
            totals["parse"] += parsed - start
            del root
        totals["extract"] = _timed(lambda page: api.extract(page.html, url=page.url), pages)
        timed_apart = sum(totals[stage] for stage in STAGES if stage != "rest")
        totals["rest"] = max(totals["extract"] - timed_apart, 0.0)
        for stage, seconds in totals.items():
            best[stage] = min(best[stage], seconds)
    return best


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.speed.compiled", description=__doc__)
    parser.add_argument("--corpus", action="append", help="corpus name (default: all)")
    parser.add_argument("--corpora", help="corpora folder (default: ../shared/corpora)")
    parser.add_argument("--limit", type=int, help="first N pages per corpus")
    parser.add_argument("--repeat", type=int, default=2, help="timing: best of N (default 2)")
    parser.add_argument("--trafilatura", action="store_true", help="time trafilatura too")
    parser.add_argument("--no-speed", action="store_true", help="the equality check only")
    args = parser.parse_args(argv)
    if not segments.WALK.available:
        print(f"the compiled walk is not built: {segments.COMPILED_ERROR}")
        return 2
    root = corpora_root(args.corpora)
    names = [n for value in args.corpus or [] for n in value.split(",")]
    names = names or available_corpora(root)
    mismatched = 0
    print(f"compiled walk: {segments.WALK.active is not None}")
    for name in names:
        pages = load_corpus(name, root, args.limit)
        if not pages:
            continue
        segment_bad, article_bad, examples = equality(pages)
        mismatched += segment_bad + article_bad
        print(f"\n## {name}: {len(pages)} pages")
        print(f"PageSegments mismatches: {segment_bad}; Article mismatches: {article_bad}")
        for example in examples[:10]:
            print(f"  {example}")
        if args.no_speed:
            continue
        best = speeds(pages, args.repeat, args.trafilatura)
        parse = best["lxml parse"]
        print("\n| runner | pages/s | × lxml parse time |")
        print("|---|---:|---:|")
        for runner, seconds in best.items():
            print(f"| {runner} | {len(pages) / seconds:.1f} | {seconds / parse:.2f} |")
        if "trafilatura" in best:
            print(
                f"compiled vs trafilatura: {best['trafilatura'] / best['compiled']:.1f}× "
                f"the pages/s; pure: {best['trafilatura'] / best['pure']:.1f}×"
            )
        split = stage_split(pages, args.repeat)
        extract = split["extract"]
        walk = "compiled" if segments.WALK.active is not None else "pure"
        print(f"\n| stage ({walk} walk) | share of extract | × bare lxml parse |")
        print("|---|---:|---:|")
        for stage in (*STAGES, "extract"):
            print(f"| {stage} | {split[stage] / extract:.0%} | {split[stage] / parse:.2f} |")
    return 1 if mismatched else 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The compiled extraction (mypyc core + Cython walk) against the Python sources, every corpus.

    .venv/bin/python -m bench.speed.compiled_core                 # all corpora
    .venv/bin/python -m bench.speed.compiled_core --corpus scrapinghub_aeb --repeat 3
    .venv/bin/python -m bench.speed.compiled_core --prose --repeat 3  # prose-heavy, 10 kB to 20 MB

This process runs whatever `newsspider.core_loader` chose (the compiled modules after an
install with a compiler); a child process runs the sources (NEWSSPIDER_PURE_PYTHON=1: the
mypyc modules and the Cython walk, guard and class meaning all off). Per corpus: the pages
whose `Article` differs in any field (must be 0), and each side's CPU time for `extract` over
the corpus as a multiple of its own bare `lxml.html.fromstring` of the same pages (best of N
passes). ``--prose`` does the same for generated prose-heavy article pages of 10 kB to 20 MB
(`support.pathological.html_50mb`'s sections: headed parts of three paragraphs and a related-links
box), one page per size. `bench.speed.compiled` compares the Cython pieces alone, in one process.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence

from bench.corpus import Page, available_corpora, corpora_root, load_corpus

#: The prose-heavy page sizes of ``--prose``, in bytes.
PROSE_SIZES = (10_000, 100_000, 1_000_000, 5_000_000, 20_000_000)
_PROSE = "prose-"


def _pages(name: str, root: str | None) -> list[Page]:
    """A corpus's pages, or for ``prose-SIZE`` one generated prose-heavy page of SIZE bytes."""
    if not name.startswith(_PROSE):
        return load_corpus(name, corpora_root(root))
    from support.pathological import Sandbox, html_50mb

    html = html_50mb(Sandbox(), int(name.removeprefix(_PROSE)))
    url = "http://example.com/prose"
    return [Page("generated", name, url, "en", html, body=None, title=None, date=None)]


def run_side(names: Sequence[str], root: str | None, repeat: int) -> dict[str, object]:
    """Articles (as JSON-ready dicts) and timings for each page set, in this process."""
    import lxml.html

    from newsspider import core_loader, extract

    result: dict[str, object] = {"compiled": core_loader.COMPILED_CORE}
    for name in names:
        pages = _pages(name, root)
        articles = [dataclasses.asdict(extract(p.html, url=p.url)) for p in pages]
        best_parse = best_extract = float("inf")
        for _ in range(repeat):
            start = time.process_time()
            for page in pages:
                lxml.html.fromstring(page.html)
            best_parse = min(best_parse, time.process_time() - start)
            start = time.process_time()
            for page in pages:
                extract(page.html, url=page.url)
            best_extract = min(best_extract, time.process_time() - start)
        result[name] = {"articles": articles, "parse": best_parse, "extract": best_extract}
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.speed.compiled_core", description=__doc__
    )
    parser.add_argument("--corpus", action="append", help="corpus name (default: all)")
    parser.add_argument("--corpora", help="corpora folder (default: ../shared/corpora)")
    parser.add_argument("--repeat", type=int, default=2, help="timing: best of N (default 2)")
    parser.add_argument(
        "--prose", action="store_true", help="generated prose-heavy pages, 10 kB to 20 MB"
    )
    parser.add_argument("--side", action="store_true", help=argparse.SUPPRESS)  # the child
    args = parser.parse_args(argv)
    names = [n for value in args.corpus or [] for n in value.split(",")]
    if args.prose:
        names += [f"{_PROSE}{size}" for size in PROSE_SIZES]
    names = names or available_corpora(corpora_root(args.corpora))
    if args.side:
        json.dump(run_side(names, args.corpora, args.repeat), sys.stdout, default=str)
        return 0
    here = json.loads(json.dumps(run_side(names, args.corpora, args.repeat), default=str))
    command = [
        sys.executable,
        "-m",
        "bench.speed.compiled_core",
        "--side",
        "--repeat",
        str(args.repeat),
    ]
    command += [f"--corpus={name}" for name in names]
    command += [f"--corpora={args.corpora}"] if args.corpora else []
    env = {**os.environ, "NEWSSPIDER_PURE_PYTHON": "1"}
    child = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    sources = json.loads(child.stdout)
    if not here["compiled"] or sources["compiled"]:
        print("this process does not run the compiled core: nothing to compare")
        return 2
    print("| pages | count | Article mismatches | compiled × parse | sources × parse | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    mismatched = 0
    for name in names:
        mine, theirs = here[name], sources[name]
        bad = sum(a != b for a, b in zip(mine["articles"], theirs["articles"], strict=True))
        mismatched += bad
        compiled = mine["extract"] / mine["parse"]
        pure = theirs["extract"] / theirs["parse"]
        print(
            f"| {name} | {len(mine['articles'])} | {bad} | {compiled:.2f} | {pure:.2f} "
            f"| {compiled / pure:.2f} |"
        )
    return 1 if mismatched else 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Extraction as a multiple of the bare parse, page by page, robust to a shared machine's bursts.

    python -m bench.speed.per_page_best [--corpus NAME ...] [--repeat N] [--corpora DIR]

Each page is parsed (``lxml.html.fromstring``) and extracted right after, ``--repeat`` times;
each page keeps its best parse and its best extraction, and the sums are compared. A burst of
load on a shared machine lands on a few timings of a few pages, not on a whole round, so the
ratio moves less between runs than `bench.speed.compiled`'s best round does. To compare two
builds, run it with each build's Python in turn, twice or more, and compare the ratios.
"""

from __future__ import annotations

import argparse
import contextlib
import time

import lxml.html

import newsspider
from bench.corpus import corpora_root, load_corpus

DEFAULT_CORPORA = ("scrapinghub_aeb", "magichtml_article")


def best_times(pages: list[tuple[bytes, str | None]], repeat: int) -> tuple[float, float]:
    """The sums of each page's best parse time and best extraction time, in seconds."""
    best_parse = [float("inf")] * len(pages)
    best_extract = [float("inf")] * len(pages)
    for _ in range(repeat):
        for i, (html, url) in enumerate(pages):
            start = time.perf_counter()
            # An empty or undecodable page: its failed parse is timed all the same.
            with contextlib.suppress(ValueError, lxml.etree.ParserError):
                lxml.html.fromstring(html)
            parsed = time.perf_counter()
            newsspider.extract(html, url=url)
            done = time.perf_counter()
            best_parse[i] = min(best_parse[i], parsed - start)
            best_extract[i] = min(best_extract[i], done - parsed)
    return sum(best_parse), sum(best_extract)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", action="append", help="a development corpus (repeatable)")
    parser.add_argument("--corpora", help="corpora folder (default: ../shared/corpora)")
    parser.add_argument("--repeat", type=int, default=5, help="timings per page (best kept)")
    args = parser.parse_args(argv)
    print("| corpus | pages | parse, s | extract, s | × bare parse |")
    print("|---|---:|---:|---:|---:|")
    root = corpora_root(args.corpora)
    for name in args.corpus or DEFAULT_CORPORA:
        pages = [(page.html, page.url) for page in load_corpus(name, root)]
        parse, extract = best_times(pages, args.repeat)
        print(f"| {name} | {len(pages)} | {parse:.3f} | {extract:.3f} | {extract / parse:.3f} |")


if __name__ == "__main__":
    main()

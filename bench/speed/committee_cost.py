"""What the committee of seed methods would cost on every page: ``python -m
bench.speed.committee_cost [--corpus NAME ...] [--rounds N]``.

Per corpus, in one process and interleaved round by round (the machine is shared): the bare lxml
parse of every page, `newsspider.extract` as shipped, and `committee.run_committee` on the page
model `extract` built (as `extract` runs it where it sits), each the best of ``--rounds``
rounds of CPU time, printed as multiples of the parse and the committee as a share of the
extraction (docs/confidence.md, "Issue 32: a non-linear quality model").
"""

from __future__ import annotations

import argparse
import contextlib
import time
from collections.abc import Callable

import lxml.html
from lxml import etree

import newsspider
from bench.corpus import corpora_root, load_corpus
from newsspider.core_loader import COMPILED_CORE
from newsspider.extraction.api import extract
from newsspider.extraction.committee import run_committee
from newsspider.extraction.stages import StageRecord

CORPORA = ("scrapinghub_aeb", "magichtml_article")


def _best(work: Callable[[], None], best: float) -> float:
    start = time.process_time()
    work()
    return min(best, time.process_time() - start)


def measure(corpus: str, rounds: int, root: str | None = None) -> str:
    pages = [(p.html, p.url) for p in load_corpus(corpus, corpora_root(root))]
    models = []
    for html, url in pages:
        record = StageRecord()
        extract(html, url=url, record=record)
        if record.page is not None and record.selection is not None and record.features:
            models.append((record.page, record.article_selection or record.selection))

    def parse() -> None:
        for html, _ in pages:
            with contextlib.suppress(ValueError, etree.ParserError):
                lxml.html.fromstring(html)

    def extraction() -> None:
        for html, url in pages:
            newsspider.extract(html, url=url)

    def committee() -> None:
        for page, selection in models:
            run_committee(page, selection)

    bare = full = sitting = float("inf")
    for _ in range(rounds):
        bare = _best(parse, bare)
        full = _best(extraction, full)
        sitting = _best(committee, sitting)
    return (
        f"{corpus}: {len(pages)} pages, {len(models)} with a body; x the bare parse: extract "
        f"{full / bare:.2f}, committee on every page {sitting / bare:.2f}; committee / extract "
        f"{sitting / full:.1%}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--corpus", action="append", default=None, help="(repeatable)")
    parser.add_argument("--corpora", default=None, help="corpora root (default ../shared/corpora)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"compiled core: {COMPILED_CORE}")
    for corpus in args.corpus or CORPORA:
        print(measure(corpus, args.rounds, args.corpora))


if __name__ == "__main__":
    main()

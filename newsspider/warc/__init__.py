"""WARC batch extraction: article records from web archives (CC-NEWS, one's own crawls).

    from newsspider.warc import iter_articles
    for item in iter_articles("CC-NEWS-20261101.warc.gz", min_confidence=0.3):
        print(item.url, item.title, item.warc_record_id)

`run_batch` (``newsspider warc`` on the command line) runs many files over a process pool into
one JSONL file, resumably. Needs FastWARC: ``pip install 'newsspider[warc]'``.
"""

from __future__ import annotations

from newsspider.warc.batch import BatchSummary, input_problem, output_problem, run_batch
from newsspider.warc.records import (
    SKIP_REASONS,
    WarcArticleItem,
    WarcPage,
    extract_page,
    iter_articles,
    iter_pages,
)

__all__ = [
    "SKIP_REASONS",
    "BatchSummary",
    "WarcArticleItem",
    "WarcPage",
    "extract_page",
    "input_problem",
    "iter_articles",
    "iter_pages",
    "output_problem",
    "run_batch",
]

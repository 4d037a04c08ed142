"""Benchmarks of newsspider, one sub-package per job (``bench/README.md``):

- `bench.accuracy`: accuracy and speed against peers over ``../shared/corpora`` (``python -m
  bench`` runs it), with its metric, report and error analysis;
- `bench.fitting`: the fits of shipped models (the confidence, the line classifier);
- `bench.robustness`: fuzzing, pathological pages, limits, hostile crawls, soak runs, feeds;
- `bench.speed`: compiled against pure Python, crawl, WARC, shared-crawl and site-crawl rates,
  memory;
- `bench.filter`: the content filter's evaluation and the non-article pages it is judged on.

Generated sites, servers and pages that the tests use too live in ``tests/support`` (tests never
import from here); this package puts that folder on ``sys.path`` so ``support.*`` imports work.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"

if str(TESTS) not in sys.path:
    sys.path.append(str(TESTS))

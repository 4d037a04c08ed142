"""Which parts of the extraction core are compiled at install time: the one list.

`setup.py` reads this file (without importing the package: data only, no imports); MANIFEST.in,
the Makefile and .gitignore match the same files by glob (`_*_c.pyx`, `*.py`). Names are
relative to `newsspider/extraction/`, with dots for sub-packages.
"""

#: The Cython modules, each beside the Python code it twins, and whether it is built against
#: lxml's C API (its headers on the include path).
CYTHON = {
    "parse._markup_c": False,
    "parse._utf8_c": False,
    "page._segments_c": True,
    "page._class_words_c": False,
    "page._cleaning_c": True,
    "metadata._page_scan_c": True,
    "metadata._language_c": False,
    "classify._grams_c": False,
    "classify._page_features_c": True,
    "body._article_html_c": True,
    "body._threads_c": True,
}

#: mypyc compiles every other module of the core (`*.py` under `newsspider/extraction/`) but
#: the packages' `__init__.py`, the sub-packages below and the modules below.
MYPYC_SKIPPED_PACKAGES = ("strategies", "explain")
#: The modules whose frozen records cross to and from worker processes (`Article`, the content
#: filter's `Thresholds`, `PageVerdict` and `Judgement`): a frozen dataclass compiled by mypyc
#: refuses pickle's reconstruction. `common.gil` must stay bytecode: running it is what lets
#: the interpreter switch threads. This list itself is data for setup.py.
MYPYC_SKIPPED_MODULES = (
    "article",
    "classify.content_score",
    "common.gil",
    "common.compiled_parts",
    "page_judgement",
)

"""Accuracy and speed benchmark of newsspider and its peers over ``../shared/corpora``.

Run with ``python -m bench --help`` (or ``make bench BENCH_ARGS=...``).
"""

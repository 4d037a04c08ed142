"""Filler words for generated sites (crawl benchmarks, soak runs, fault tests): plain English
news vocabulary, in a fixed order so seeded pages are the same on every run."""

from __future__ import annotations

WORDS = (
    "council river market school bridge winter library harvest station museum festival "
    "volunteers residents budget weather road train harbour village garden report mayor "
    "students teachers farmers workers visitors families said would could after before "
    "during because while although the a of to and in on for with at by from about"
).split()

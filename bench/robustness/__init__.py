"""Robustness: fuzzing, pathological pages, limits, hostile crawls, soak runs, feeds."""

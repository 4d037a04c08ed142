"""Tests of the benchmark's own code (its metric, report and fits), run with the suite."""

"""Accuracy against peers: the run (``python -m bench``), its metric, report and error analysis."""

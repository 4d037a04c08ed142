"""Shared by every stage: bounded caches, the paused collector, text statistics, URL reading,
smoothing, work budgets and the GIL yield point. Imports no other stage."""

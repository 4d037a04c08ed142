"""Fits of shipped models: the confidence and the line classifier."""

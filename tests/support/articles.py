"""Assertions about extraction results shared by the core test modules."""

from __future__ import annotations

import json

from newsspider import PAGE_TYPES, Article


def assert_well_formed(article: Article) -> Article:
    """Every result, whatever the input: the right types, confidence in [0, 1], JSON-ready."""
    assert isinstance(article, Article)
    assert isinstance(article.body, str)
    assert isinstance(article.body_html, str)
    assert 0.0 <= article.confidence <= 1.0
    assert article.page_type in PAGE_TYPES
    json.dumps(article.to_dict())
    return article

"""Assertions about extraction results shared by the core test modules."""

from __future__ import annotations

import json

from newsspider import PAGE_TYPES, Article

#: Four paragraphs of a made-up local news story, for pages the tests write.
SEA_WALL_PARAGRAPHS = [
    "The harbour authority approved the new sea wall on Tuesday, after a decade of storms "
    "that flooded the lower town twice a year and closed the ferry terminal for weeks.",
    "Engineers expect the work to take three years. The first section, along the fish market, "
    "will be built next spring, when the tides are at their lowest and the boats are ashore.",
    "Residents who spoke at the meeting welcomed the decision, though several asked why the "
    "northern beach, where the worst damage happened last winter, comes last in the plan.",
    "The council will publish the full schedule next month, together with the road closures "
    "the construction traffic will need and a number residents can call with complaints.",
]


def assert_well_formed(article: Article) -> Article:
    """Every result, whatever the input: the right types, confidence in [0, 1], JSON-ready."""
    assert isinstance(article, Article)
    assert isinstance(article.body, str)
    assert isinstance(article.body_html, str)
    assert 0.0 <= article.confidence <= 1.0
    assert article.page_type in PAGE_TYPES
    json.dumps(article.to_dict())
    return article

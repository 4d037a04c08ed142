"""`bench.fitting.listing_features`: listing evidence tried beside the page classifier's
features (issue 32, fourth round; not shipped), on pages written for these tests."""

from __future__ import annotations

from bench.fitting.listing_features import LISTING_NAMES, listing_features
from newsspider.extraction.api import extract
from newsspider.extraction.stages import StageRecord

_SENTENCES = (
    "The council met on Tuesday evening to discuss the new budget for the coming year.",
    "Several members argued that the proposed cuts would hurt the town's libraries.",
    "Others said the savings were needed to repair roads damaged during the winter storms.",
    "After three hours of debate, the vote was postponed until the next session in May.",
)
_CHROME = (
    "<header><a href='/'>Town Gazette</a><nav><ul>"
    + "".join(f"<li><a href='/{s}/'>{s.title()}</a></li>" for s in ("local", "sport", "arts"))
    + "</ul></nav></header>"
)
_FOOTER = "<footer><p>Town Gazette, 1 Main Street.</p></footer>"


def _article() -> str:
    paragraphs = "".join(
        f"<p>{_SENTENCES[i % 4]} {_SENTENCES[(i + 1) % 4]} {_SENTENCES[(i + 2) % 4]}</p>"
        for i in range(8)
    )
    return (
        f"<html><body>{_CHROME}<main><article><h1>Council delays the budget vote</h1>"
        f"<h2>What was said</h2>{paragraphs}</article></main>{_FOOTER}</body></html>"
    )


def _listing(dates: bool) -> str:
    items = "".join(
        f"<div class='item'><h3>Story {i}: {_SENTENCES[i % 4][:40]}</h3>"
        + ("<span>12 May 2024</span>" if dates else "<span>Local news</span>")
        + f"<p>{_SENTENCES[(i + 1) % 4]} <a href='/story/{i}/'>Read on</a></p></div>"
        for i in range(10)
    )
    return (
        f"<html><body>{_CHROME}<main><h1>Latest news</h1><section>{items}</section></main>"
        f"{_FOOTER}</body></html>"
    )


def _features(html: str) -> dict[str, float]:
    """The listing features of the body the classifier's features read (`fit_page_type`)."""
    record = StageRecord()
    extract(html, "https://gazette.example/news/", record=record)
    selection = record.article_selection or record.selection
    assert record.page is not None and selection is not None
    values = listing_features(record.page, selection.segment_ids, selection.container)
    return dict(zip(LISTING_NAMES, values, strict=True))


def test_a_listing_has_shaped_items_an_article_has_not() -> None:
    article = _features(_article())
    listing = _features(_listing(dates=True))
    assert listing["shaped_items"] > article["shaped_items"]
    assert listing["shaped_share"] > 0.5 > article["shaped_share"]
    assert listing["shaped_dated_items"] > 0.0 == article["shaped_dated_items"]
    # Each teaser: a heading and a short text before the next heading.
    assert listing["short_sections"] > 0.5 > article["short_sections"]


def test_dated_items_need_dates() -> None:
    assert _features(_listing(dates=False))["shaped_dated_items"] == 0.0
    assert (
        _features(_listing(dates=True))["shaped_items"]
        == _features(_listing(dates=False))["shaped_items"]
    )


def test_empty_and_flat_pages_give_zeros() -> None:
    """No blocks beyond the root, or no body: every value defined, no crash."""
    record = StageRecord()
    extract("<html><body><p>Hi.</p></body></html>", "https://a.example/", record=record)
    page = record.page
    assert page is not None
    values = listing_features(page, (), -1)
    assert len(values) == len(LISTING_NAMES)
    assert values[LISTING_NAMES.index("container_outside_links")] == -1.0
    assert all(
        v == 0.0 for k, v in enumerate(values) if LISTING_NAMES[k] != "container_outside_links"
    )


def test_deep_nesting_is_read_once() -> None:
    """A long list of items: one pass, the shape read only for small subtrees (deep nesting
    does not make it quadratic)."""
    deep = "<div>" * 300 + "<p>" + " ".join(_SENTENCES) + "</p>" + "</div>" * 300
    record = StageRecord()
    extract(f"<html><body>{deep}</body></html>", "https://a.example/x", record=record)
    page = record.page
    assert page is not None
    values = listing_features(page, tuple(range(len(page.segment_owners))), -1)
    assert len(values) == len(LISTING_NAMES)

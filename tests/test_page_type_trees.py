"""The page classifier's tree evaluator on hand-built models, and its structural features
(repeated teaser templates, link lists, pagers) on pages written for these tests."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from newsspider.extraction.api import extract
from newsspider.extraction.classify.page_classifier import (
    LEARNED_TYPES,
    PageTypeModel,
    TreeEnsemble,
    load_model,
)
from newsspider.extraction.classify.page_features import FEATURE_NAMES
from newsspider.extraction.stages import StageRecord

WIDTH = len(FEATURE_NAMES)


def _stored_trees(**changes: Any) -> dict[str, Any]:
    """Three classes (article, listing, no_article), two one-split trees:
    tree 0 adds to article (+2 when feature 0 <= 0.5, else -1), tree 1 adds to listing
    (-1 when feature 1 <= 0.1, else +3)."""
    stored: dict[str, Any] = {
        "kind": "trees",
        "features": list(FEATURE_NAMES),
        "classes": ["article", "listing", "no_article"],
        "base_scores": [0.0, 0.0, 0.5],
        "float32": True,
        "roots": [0, 3],
        "tree_classes": [0, 1],
        "nodes": {
            "feature": [0, -1, -1, 1, -1, -1],
            "threshold": [0.5, 0.0, 0.0, 0.1, 0.0, 0.0],
            "left": [1, -1, -1, 4, -1, -1],
            "right": [2, -1, -1, 5, -1, -1],
            "value": [0.0, 2.0, -1.0, 0.0, -1.0, 3.0],
        },
        "article_floor": 0.5,
    }
    stored.update(changes)
    return stored


def _features(first: float, second: float) -> tuple[float, ...]:
    return (first, second, *(0.0 for _ in range(WIDTH - 2)))


def _softmax(scores: list[float]) -> list[float]:
    exps = [math.exp(s) for s in scores]
    return [e / sum(exps) for e in exps]


def test_trees_add_their_leaves_to_their_class_scores() -> None:
    model = load_model(json.dumps(_stored_trees()))
    assert model.trees is not None
    # feature 0 = 0.2 (left: +2 to article), feature 1 = 0.9 (right: +3 to listing)
    assert model.scores(_features(0.2, 0.9)) == [2.0, 3.0, 0.5]
    assert model.scores(_features(0.7, 0.0)) == [-1.0, -1.0, 0.5]
    prediction = model.predict(_features(0.2, 0.9))
    expected = _softmax([2.0, 3.0, 0.5])
    assert prediction.probabilities[LEARNED_TYPES.index("article")] == pytest.approx(expected[0])
    assert prediction.probabilities[LEARNED_TYPES.index("listing")] == pytest.approx(expected[1])
    # no_article reports as other
    assert prediction.probabilities[LEARNED_TYPES.index("other")] == pytest.approx(expected[2])
    assert prediction.page_type == "listing"
    # the article floor still decides: P(article) = 0.25 here
    lenient = load_model(json.dumps(_stored_trees(article_floor=0.2)))
    assert lenient.predict(_features(0.2, 0.9)).page_type == "article"


def test_trees_compare_as_scikit_learn_does_in_32_bit_floats() -> None:
    # 0.1 rounds up to 0.10000000149 in 32 bits: over a threshold of exactly 0.1, so a
    # 32-bit comparison (scikit-learn's trees) goes right, a 64-bit one would go left.
    assert load_model(json.dumps(_stored_trees())).scores(_features(0.0, 0.1))[1] == 3.0
    as_64 = load_model(json.dumps(_stored_trees(float32=False)))
    assert as_64.scores(_features(0.0, 0.1))[1] == -1.0


def test_tree_evaluator_is_usable_without_json() -> None:
    trees = TreeEnsemble(
        (0, -1, -1), (1.5, 0.0, 0.0), (1, -1, -1), (2, -1, -1), (0.0, 1.0, 4.0), (0,), (1,)
    )
    model = PageTypeModel((), (0.0, 0.0), (0, 2), 0.5, trees, WIDTH)
    assert model.scores(_features(2.0, 0.0)) == [0.0, 4.0]
    assert model.predict(_features(2.0, 0.0)).page_type == "listing"
    with pytest.raises(ValueError, match="features"):
        model.predict(_features(2.0, 0.0)[:-1])


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        ({"roots": [0, 9]}, "root"),
        ({"tree_classes": [0]}, "roots"),
        ({"tree_classes": [0, 3]}, "classes"),
        ({"base_scores": [0.0, 0.0]}, "classes"),
    ],
)
def test_damaged_trees_are_refused_at_load(damage: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        load_model(json.dumps(_stored_trees(**damage)))


def test_a_cycle_or_a_missing_feature_is_refused_at_load() -> None:
    looping = _stored_trees()
    looping["nodes"]["left"][3] = 0  # a child before its node: could loop forever
    with pytest.raises(ValueError, match="child"):
        load_model(json.dumps(looping))
    wide = _stored_trees()
    wide["nodes"]["feature"][0] = WIDTH
    with pytest.raises(ValueError, match="feature"):
        load_model(json.dumps(wide))
    short = _stored_trees()
    short["nodes"]["value"] = short["nodes"]["value"][:-1]
    with pytest.raises(ValueError, match="lengths"):
        load_model(json.dumps(short))


# --- structural features ----------------------------------------------------------------------

_SENTENCE = (
    "The council met on Tuesday evening to discuss the new budget for the coming year, and "
    "several members argued that the proposed cuts would hurt the town's libraries. "
)
_NAV = (
    "<header><a href='/'>Gazette</a><nav><ul>"
    + "".join(f"<li><a href='/section/{s}/'>{s}</a></li>" for s in ("local", "sport", "arts"))
    + "</ul></nav></header>"
)


def _named(html: str, url: str) -> dict[str, float]:
    record = StageRecord()
    extract(html, url, record=record)
    assert record.type_features is not None
    return dict(zip(FEATURE_NAMES, record.type_features, strict=True))


def _teasers(count: int, css: str = "teaser") -> str:
    return "".join(
        f"<div class='{css} {css}-{i}'><h3><a href='/news/story-{i}.html'>Headline of story "
        f"number {i} about the town</a></h3><p>A short summary of story {i}.</p></div>"
        for i in range(count)
    )


def _page(body: str) -> str:
    return f"<html><head><title>Gazette</title></head><body>{_NAV}{body}</body></html>"


def test_a_teaser_template_is_counted_with_its_share_and_urls() -> None:
    listing = _named(
        _page(f"<main><h1>Local</h1>{_teasers(24)}</main>"), "https://g.example/local/"
    )
    assert math.expm1(listing["template_items"]) == pytest.approx(24)
    assert math.expm1(listing["template_headed_items"]) == pytest.approx(24)
    assert math.expm1(listing["template_urls"]) == pytest.approx(24)
    assert listing["template_share"] > 0.8
    assert listing["template_region_share"] > 0.8
    # siblings of one tag are one template, whatever their classes
    assert math.expm1(listing["template_groups"]) == pytest.approx(1)


def test_an_article_with_a_related_box_is_mostly_prose() -> None:
    article = _named(
        _page(
            "<main><article><h1>Council delays the vote</h1>"
            + "".join(f"<p>{_SENTENCE * 2}</p>" for _ in range(10))
            + f"</article><aside>{_teasers(4, 'related')}</aside></main>"
        ),
        "https://g.example/news/council-delays-the-vote.html",
    )
    assert math.expm1(article["template_items"]) == pytest.approx(4)
    assert article["template_share"] < 0.2
    assert article["body_vs_region"] > 0.8


def test_links_with_other_hosts_are_not_the_sites_headlines() -> None:
    foreign = _page(
        "<main>"
        + "".join(
            f"<div class='t'><a href='https://other{i}.example/x'>A headline somewhere else {i}"
            f"</a></div>"
            for i in range(8)
        )
        + "</main>"
    )
    assert _named(foreign, "https://g.example/links/")["template_urls"] == 0.0


def test_a_table_of_contents_is_a_link_list_and_a_pager_is_seen() -> None:
    toc = "".join(f"<li><a href='/docs/{i}'>Part {i}</a></li>" for i in range(12))
    pager = (
        "<div class='pager'><a href='?p=1'>1</a> <a href='?p=2'>2</a> <a href='?p=3'>3</a></div>"
    )
    page = _named(
        _page(
            f"<ul class='toc'>{toc}</ul><main><h1>Install</h1><p>{_SENTENCE * 3}</p></main>{pager}"
        ),
        "https://g.example/docs/install",
    )
    assert math.expm1(page["link_list_items"]) == pytest.approx(12)
    assert page["link_list_share"] > 0.0
    assert page["pagination"] == 1.0
    assert page["nav_elements"] == 1.0
    plain = _named(
        _page(f"<main><h1>Install</h1><p>{_SENTENCE * 3}</p></main>"), "https://g.example/a"
    )
    assert plain["pagination"] == 0.0
    assert plain["link_list_items"] == 0.0

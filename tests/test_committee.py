"""The confidence's committee of seed methods: agreement, the shared page, explain, the model."""

from __future__ import annotations

import json
from pathlib import Path

import lxml.html
import pytest

from newsspider import explain, extract
from newsspider.explain_report import render_report
from newsspider.extraction import api
from newsspider.extraction.body.assembly import BodySelection, body_text
from newsspider.extraction.classify import confidence
from newsspider.extraction.committee import (
    MEMBERS,
    SEED_METHODS,
    SegmentTokens,
    run_committee,
    selection_agreement,
    shingle_f1,
)
from newsspider.extraction.explain import Explanation
from newsspider.extraction.page.cleaning import clean_tree
from newsspider.extraction.page.segments import segment_page
from newsspider.extraction.stages import StageRecord
from newsspider.extraction.strategies import STRATEGIES, StrategyInput
from newsspider.extraction.strategies.lines import estimated_lines
from newsspider.extraction.strategies.node_stats import block_node_stats

PAGES = Path(__file__).parent / "fixtures" / "pages"
NEWS = PAGES / "en_news.html"

_WORDS = (
    "river valley morning harvest lantern copper meadow signal orchard thunder velvet "
    "harbor pencil marble saddle window garden falcon ribbon canyon"
).split()


def _sentence(seed: int, length: int = 14) -> str:
    # Words chosen by a stride: no 4-word sequence repeats across sentences of other seeds.
    return " ".join(_WORDS[(seed * 7 + i * (seed % 5 + 1)) % len(_WORDS)] for i in range(length))


def _page_with_paragraphs(count: int) -> str:
    paragraphs = "".join(f"<p>{i} {_sentence(i)} number{i}.</p>" for i in range(count))
    return (
        "<html><head><title>A story</title></head><body><nav><a href='/'>Home</a></nav>"
        f"<article>{paragraphs}</article><footer>Contact us</footer></body></html>"
    )


def _segments(html: str):  # type: ignore[no-untyped-def]
    root = lxml.html.document_fromstring(html)
    clean_tree(root)
    return root, segment_page(root, "http://example.com/a")


def test_agreement_is_one_for_identical_bodies_and_zero_for_disjoint_ones() -> None:
    body = " ".join(_sentence(i) for i in range(6))
    other = "entirely different words about nothing that appears in the body above at all"
    assert shingle_f1(body, body) == 1.0
    assert shingle_f1(body, other) == 0.0
    # Half the body: recall 1/2 of the shingles, precision 1.
    half = " ".join(_sentence(i) for i in range(3))
    assert 0.5 < shingle_f1(body, half) < 0.8


def test_selection_agreement_is_the_metric_on_the_selected_texts() -> None:
    _, page = _segments(_page_with_paragraphs(12))
    counts = SegmentTokens(page)
    prose = [i for i, tag in enumerate(page.segment_tags) if tag == "p"]
    assert len(prose) == 12
    whole = tuple(prose)
    assert selection_agreement(whole, whole, counts) == 1.0
    assert selection_agreement(whole[:6], whole[6:], counts) == 0.0
    for other in (whole[:6], whole[3:], whole[::2], (*whole[:4], *whole[8:])):
        reference = shingle_f1(
            body_text(page, BodySelection(0, whole, ())),
            body_text(page, BodySelection(0, other, ())),
        )
        assert selection_agreement(whole, other, counts) == pytest.approx(reference)


def test_the_members_run_on_the_page_model_without_the_tree() -> None:
    root, page = _segments(_page_with_paragraphs(10))
    prose = tuple(i for i, tag in enumerate(page.segment_tags) if tag == "p")
    page.block_elements = []  # no element left to read: the tree is not consulted
    del root
    committee = run_committee(page, BodySelection(0, prose, ()))
    assert [o.method for o in committee.opinions] == list(MEMBERS)
    for opinion in committee.opinions:
        assert opinion.selection is not None, opinion.method
        assert opinion.agreement > 0.8, opinion.method
    assert committee.mean_agreement > 0.8


def test_block_statistics_count_every_segment_once() -> None:
    _, page = _segments(_page_with_paragraphs(5))
    stats = block_node_stats(page)
    assert stats.chars[0] == sum(page.segment_chars)
    assert stats.link_chars[0] == sum(page.segment_link_chars)
    assert len(stats.run_owner) == len(page.segment_owners)
    # Each <p> holds text: GNE counts them as paragraphs of their ancestors.
    assert stats.paragraphs[0] >= 5


def test_a_strategy_given_its_statistics_does_not_walk_the_tree() -> None:
    root, page = _segments(_page_with_paragraphs(8))
    shared = StrategyInput(None, page, block_node_stats(page), estimated_lines(page))
    walked = StrategyInput(root, page)
    for name in SEED_METHODS:
        assert STRATEGIES[name](shared) is not None, name
        assert STRATEGIES[name](walked) is not None, name
    with pytest.raises(ValueError, match="statistics"):
        STRATEGIES["gne"](StrategyInput(None, page))


@pytest.mark.spies_on_core
def test_extract_parses_and_walks_the_page_once_with_the_committee(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = {"parse": 0, "segments": 0, "metadata": 0}

    def counting(name, real):  # type: ignore[no-untyped-def]
        def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
            calls[name] += 1
            return real(*args, **kwargs)

        return spy

    monkeypatch.setattr(api, "parse_prepared", counting("parse", api.parse_prepared))
    monkeypatch.setattr(api, "segment_page", counting("segments", api.segment_page))
    monkeypatch.setattr(api, "read_metadata", counting("metadata", api.read_metadata))
    record = StageRecord()
    extract(NEWS.read_bytes(), url="https://example.com/news/story", record=record)
    assert record.committee is not None
    assert len(record.committee.opinions) == len(MEMBERS)
    assert calls == {"parse": 1, "segments": 1, "metadata": 1}


def test_explain_json_carries_the_committee() -> None:
    article, explanation = explain(NEWS.read_bytes(), url="https://example.com/news/story")
    data = json.loads(explanation.to_json())
    committee = data["committee"]
    assert [m["method"] for m in committee["members"]] == list(MEMBERS)
    for member in committee["members"]:
        assert 0.0 <= member["agreement"] <= 1.0
        assert (member["chars"] > 0) == bool(member["preview"])
    assert committee["mean_agreement"] == pytest.approx(
        sum(m["agreement"] for m in committee["members"]) / len(MEMBERS), abs=1e-3
    )
    assert Explanation.from_dict(data) == explanation
    # The explanation does not change the answer.
    assert article == extract(NEWS.read_bytes(), url="https://example.com/news/story")
    report = render_report(article, explanation)
    assert "Committee of seed methods" in report
    for member in committee["members"]:
        assert f"<td>{member['method']}</td>" in report


def test_each_member_has_its_feature() -> None:
    assert [
        name.removeprefix("agreement_").replace("_", "-") for name in confidence.COMMITTEE_FEATURES
    ] == list(MEMBERS)
    assert set(MEMBERS) <= set(SEED_METHODS)


def test_the_seed_methods_all_sit_when_asked() -> None:
    _, page = _segments(_page_with_paragraphs(10))
    prose = tuple(i for i, tag in enumerate(page.segment_tags) if tag == "p")
    committee = run_committee(page, BodySelection(0, prose, ()), SEED_METHODS)
    assert [o.method for o in committee.opinions] == list(SEED_METHODS)
    assert all(o.agreement > 0.8 for o in committee.opinions)


def test_the_refit_model_loads_with_the_committee_form() -> None:
    stored = json.loads(confidence.MODEL_PATH.read_text(encoding="utf-8"))
    assert "body_good_committee" in stored
    model = confidence.COMMITTEE_QUALITY_MODEL
    assert model is not None
    names = {confidence.FEATURE_NAMES[c] for c in model.columns}
    assert names & {"committee_agreement", *confidence.COMMITTEE_FEATURES}
    # Shipped off (an empty band: the confidence never reads the committee); the fitted band
    # starts at the drop line: the committee is a second opinion on kept pages.
    assert confidence.COMMITTEE_BAND == (0.0, 0.0)
    assert not any(confidence.committee_can_change(c / 20) for c in range(21))
    low, high = stored["committee_band_fitted"]
    assert low == confidence.DROP_THRESHOLD < high <= 1.0
    # The committee's features move the quality it reads, and only that one.
    base = (0.5,) * (len(confidence.FEATURE_NAMES) - 1 - len(confidence.COMMITTEE_FEATURES))
    agreeing = (*base, *(1.0,) * (1 + len(confidence.COMMITTEE_FEATURES)))
    scattered = (*base, *(0.0,) * (1 + len(confidence.COMMITTEE_FEATURES)))
    assert confidence.body_quality(agreeing, committee=True) > confidence.body_quality(
        scattered, committee=True
    )
    assert confidence.body_quality(agreeing) == confidence.body_quality(scattered)
    assert confidence.article_presence(agreeing) == confidence.article_presence(scattered)

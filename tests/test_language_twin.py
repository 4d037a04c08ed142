"""The language identifier's compiled feature counts (`_language_c.FeatureCounts`) against the
Python walk and ``numpy.unique`` (`Identifier._counts` with the twin switched off), and the
identifier's answers through both."""

from __future__ import annotations

import os
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from newsspider.extraction.metadata import language, language_id
from newsspider.extraction.metadata.language_id import FEATURE_COUNTS, Identifier

IN_CI = os.environ.get("CI") == "true"

needs_twin = pytest.mark.skipif(
    not (FEATURE_COUNTS.available and language.identifier_available()) and not IN_CI,
    reason="the compiled feature counts or py3langid are not here",
)


@cache
def _identifier() -> Identifier:
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    return Identifier(LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True))


@pytest.fixture
def python_counts() -> Iterator[None]:
    was = FEATURE_COUNTS.active is not None
    FEATURE_COUNTS.use(False)
    try:
        yield
    finally:
        FEATURE_COUNTS.use(was)


def _both(data: bytes) -> tuple[Any, Any]:
    identifier = _identifier()
    was = FEATURE_COUNTS.active is not None
    FEATURE_COUNTS.use(True)
    try:
        compiled = identifier._counts(data)
    finally:
        FEATURE_COUNTS.use(False)
    try:
        python = identifier._counts(data)
    finally:
        FEATURE_COUNTS.use(was)
    return compiled, python


# Texts in several scripts and of every length up to a sample's, bytes included that are no
# UTF-8 (the walk reads bytes).
_TEXT = st.text(alphabet=st.characters(codec="utf-8"), min_size=0, max_size=700)


@needs_twin
@settings(max_examples=400, deadline=None)
@given(st.one_of(_TEXT.map(lambda t: t.encode("utf-8")), st.binary(max_size=300)))
def test_the_compiled_counts_are_numpys_unique_of_the_walk(data: bytes) -> None:
    compiled, python = _both(data)
    if python is None:
        assert compiled is None
        return
    assert compiled is not None
    for ours, theirs in zip(compiled, python, strict=True):
        assert ours.dtype == theirs.dtype
        assert ours.tolist() == theirs.tolist()


@needs_twin
@pytest.mark.parametrize(
    "text",
    [
        "The council voted on Tuesday to renovate the old market hall before the winter.",
        "Городской совет проголосовал за реконструкцию старого рынка, сообщил мэр.",
        "市议会周二晚间投票通过了旧市场大厅的翻修计划。",
        "A câmara aprovou a reforma do antigo mercado coberto; as obras começam já.",
        "",
    ],
)
def test_the_ranking_is_the_same_through_both(text: str) -> None:
    identifier = _identifier()
    was = FEATURE_COUNTS.active is not None
    try:
        FEATURE_COUNTS.use(True)
        compiled = identifier.rank(text)
        FEATURE_COUNTS.use(False)
        python = identifier.rank(text)
    finally:
        FEATURE_COUNTS.use(was)
    # Bit-identical: the same arrays go into the same numpy scoring.
    assert compiled == python


def test_the_python_counts_run_without_the_twin(python_counts: None) -> None:
    if not language.identifier_available():
        pytest.skip("py3langid is not installed")
    counts = _identifier()._counts(b"the old market hall")
    assert counts is not None
    index, found = counts
    assert index.tolist() == sorted(set(index.tolist()))
    assert len(index) == len(found) and all(n >= 1 for n in found.tolist())
    assert language_id.FEATURE_COUNTS.active is None

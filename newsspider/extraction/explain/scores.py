"""The confidence (each feature's share of both models' log-odds) and the page type's evidence."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from newsspider.extraction.article import Article
from newsspider.extraction.classify.confidence import (
    CAPPED_TYPES,
    FEATURE_NAMES,
    NON_ARTICLE_CAP,
    PRESENCE_MODEL,
    QUALITY_MODEL,
    LogisticModel,
)
from newsspider.extraction.explain.model import (
    ConfidenceExplanation,
    FeatureContribution,
    PageTypeExplanation,
)
from newsspider.extraction.stages import StageRecord


def _contributions(model: LogisticModel, features: Sequence[float]) -> dict[int, float]:
    return {c: w * features[c] for c, w in zip(model.columns, model.weights, strict=True)}


def explain_confidence(
    article: Article, features: tuple[float, ...] | None
) -> ConfidenceExplanation | None:
    if features is None:
        return None
    presence = _contributions(PRESENCE_MODEL, features)
    quality = _contributions(QUALITY_MODEL, features)
    rows = tuple(
        FeatureContribution(
            name,
            round(features[i], 4),
            round(presence.get(i, 0.0), 4),
            round(quality.get(i, 0.0), 4),
        )
        for i, name in enumerate(FEATURE_NAMES)
    )
    p_presence = PRESENCE_MODEL.probability(features)
    p_quality = QUALITY_MODEL.probability(features)
    return ConfidenceExplanation(
        confidence=article.confidence,
        presence=round(p_presence, 4),
        quality=round(p_quality, 4),
        presence_intercept=PRESENCE_MODEL.intercept,
        quality_intercept=QUALITY_MODEL.intercept,
        capped=article.page_type in CAPPED_TYPES and p_presence * p_quality > NON_ARTICLE_CAP,
        features=rows,
    )


def explain_page_type(article: Article, record: StageRecord) -> PageTypeExplanation:
    evidence: dict[str, Any] = {}
    if record.signals is not None:
        evidence.update(asdict(record.signals))
    if record.shape is not None:
        shape = record.shape
        evidence.update(
            chars=shape.chars,
            paragraphs=shape.paragraphs,
            body_share=round(shape.body_share, 3),
            page_link_density=round(shape.page_link_density, 3),
            container_link_density=round(shape.container_link_density, 3),
        )
    evidence["structured_data_says_article"] = record.is_article_hint
    if article.warnings:
        evidence["warnings"] = list(article.warnings)
    return PageTypeExplanation(article.page_type, evidence)

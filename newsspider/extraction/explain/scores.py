"""The confidence (each feature's share of both models' log-odds) and the page type's evidence."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from newsspider.extraction.article import Article
from newsspider.extraction.body.assembly import body_text
from newsspider.extraction.classify.confidence import (
    CAPPED_TYPES,
    COMMITTEE_QUALITY_MODEL,
    FEATURE_NAMES,
    NON_ARTICLE_CAP,
    PRESENCE_MODEL,
    QUALITY_MODEL,
    LogisticModel,
)
from newsspider.extraction.classify.page_features import FEATURE_NAMES as PAGE_TYPE_FEATURES
from newsspider.extraction.explain.model import (
    MAX_BLOCK_TEXT,
    CommitteeExplanation,
    CommitteeMember,
    ConfidenceExplanation,
    FeatureContribution,
    PageTypeExplanation,
)
from newsspider.extraction.stages import StageRecord


def _contributions(model: LogisticModel, features: Sequence[float]) -> dict[int, float]:
    return {c: w * features[c] for c, w in zip(model.columns, model.weights, strict=True)}


def explain_confidence(
    article: Article, features: tuple[float, ...] | None, *, committee_used: bool = False
) -> ConfidenceExplanation | None:
    """Each feature's share of the two models' log-odds; the quality model's form with the
    committee's evidence where the committee sat (``committee_used``)."""
    if features is None:
        return None
    quality_model = QUALITY_MODEL
    if committee_used and COMMITTEE_QUALITY_MODEL is not None:
        quality_model = COMMITTEE_QUALITY_MODEL
    presence = _contributions(PRESENCE_MODEL, features)
    quality = _contributions(quality_model, features)
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
    p_quality = quality_model.probability(features)
    return ConfidenceExplanation(
        confidence=article.confidence,
        presence=round(p_presence, 4),
        quality=round(p_quality, 4),
        presence_intercept=PRESENCE_MODEL.intercept,
        quality_intercept=quality_model.intercept,
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
    if record.type_features is not None:
        evidence["classifier_features"] = {
            name: round(value, 3)
            for name, value in zip(PAGE_TYPE_FEATURES, record.type_features, strict=True)
        }
    prediction = record.type_prediction
    probabilities = prediction.as_dict() if prediction is not None else {}
    return PageTypeExplanation(article.page_type, evidence, probabilities)


def explain_committee(record: StageRecord) -> CommitteeExplanation | None:
    """Each seed method's body (its opening) and agreement, from the record's committee."""
    committee, page = record.committee, record.page
    if committee is None or page is None:
        return None
    members = []
    for opinion in committee.opinions:
        selection = opinion.selection
        if selection is None:
            members.append(CommitteeMember(opinion.method, 0.0, 0, 0, ""))
            continue
        text = body_text(page, selection)
        members.append(
            CommitteeMember(
                opinion.method,
                round(opinion.agreement, 4),
                len(text),
                len(selection.segment_ids),
                text[:MAX_BLOCK_TEXT],
            )
        )
    return CommitteeExplanation(
        record.committee_used, round(committee.mean_agreement, 4), tuple(members)
    )

"""The explanation's data: typed, frozen, JSON-serialisable records of one page's extraction."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

#: Block texts are cut to this many characters in the explanation (the body is in the Article).
MAX_BLOCK_TEXT = 2000
#: At most this many blocks are explained (a page of 50,000 menu links needs no more).
MAX_BLOCKS = 3000

# Reason tokens for a block left out of the body: stable, short, documented in docs/explain.md.
REASONS = (
    "furniture",
    "teaser",
    "link-density",
    "caption",
    "headline",
    "trimmed-edge",
    "outside-container",
    "outside-main-region",
    "not-a-post",
    "heading-without-text",
    "not-chosen",
)


@dataclass(frozen=True, slots=True)
class BlockExplanation:
    """One text segment of the page, in reading order."""

    index: int
    tag: str
    #: Where it sits: the owner block as ``tag#id.class`` (ids and classes shortened).
    path: str
    text: str
    chars: int
    link_density: float
    #: Its density value (positive: reads like prose; negative: furniture-like).
    value: float
    in_body: bool
    #: One of `REASONS` for a block left out, else None.
    reason: str | None = None
    #: What the reason rests on: the furniture word and the element carrying it, the density...
    detail: str | None = None


@dataclass(frozen=True, slots=True)
class ContainerExplanation:
    """The block whose subtree scored best, and the best block outside it."""

    path: str
    score: float
    runner_up_path: str | None
    runner_up_score: float
    #: "density" (the best-scoring subtree), "thread" (posts of a forum thread), "page-content"
    #: (no article on the page: the region holding its text, `page_content`) or an algorithm.
    method: str
    #: Blocks joined to the body beside the container (an article split into siblings).
    roots: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Candidate:
    source: str
    value: str
    chosen: bool


@dataclass(frozen=True, slots=True)
class FieldSource:
    """Where one metadata field's value came from, and what else the page offered."""

    field: str
    value: str | None
    source: str | None
    candidates: tuple[Candidate, ...] = ()


@dataclass(frozen=True, slots=True)
class FeatureContribution:
    """One confidence feature: its value and what it adds to each model's log-odds."""

    name: str
    value: float
    presence: float
    quality: float


@dataclass(frozen=True, slots=True)
class ConfidenceExplanation:
    confidence: float
    #: Probability that the page holds an article at all, and that this body is it.
    presence: float
    quality: float
    presence_intercept: float
    quality_intercept: float
    #: The page type capped the confidence (error and login pages).
    capped: bool
    features: tuple[FeatureContribution, ...] = ()


@dataclass(frozen=True, slots=True)
class CommitteeMember:
    """One seed method's body on the page and how far it agrees with the body chosen."""

    method: str
    #: Shingle F1 with the body (`committee.shingle_f1`), 0 when the method found no body.
    agreement: float
    #: Its body's characters and segments (0 and 0: no body).
    chars: int
    segments: int
    #: Its body's opening, cut to `MAX_BLOCK_TEXT` characters.
    preview: str


@dataclass(frozen=True, slots=True)
class CommitteeExplanation:
    """The committee of seed methods (`committee`): each one's body and agreement."""

    #: The confidence read it: the confidence without it fell in the committee's band.
    used: bool
    mean_agreement: float
    members: tuple[CommitteeMember, ...] = ()


@dataclass(frozen=True, slots=True)
class PageTypeExplanation:
    page_type: str
    #: The measures `classify_page` decided on, by name, and the page classifier's features.
    evidence: Mapping[str, Any] = field(default_factory=dict)
    #: The page classifier's probability for each learned type (`page_classifier`); empty for
    #: the rule types (error, login, empty, not_html).
    probabilities: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Explanation:
    """Why `extract` returned what it did for one page. `to_dict` is plain JSON."""

    url: str | None
    blocks: tuple[BlockExplanation, ...]
    container: ContainerExplanation | None
    metadata: tuple[FieldSource, ...]
    confidence: ConfidenceExplanation | None
    page_type: PageTypeExplanation
    #: The crawl's cheap content filter (`score_page`) on the same page: keep, reason, stats.
    content_filter: Mapping[str, Any]
    warnings: tuple[str, ...] = ()
    #: Blocks past `MAX_BLOCKS` that are not listed.
    blocks_left_out: int = 0
    #: The committee of seed methods, None when no body was chosen.
    committee: CommitteeExplanation | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = _plain(asdict(self))
        return data

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Explanation:
        container = data.get("container")
        confidence = data.get("confidence")
        return cls(
            url=data.get("url"),
            blocks=tuple(BlockExplanation(**b) for b in data.get("blocks", ())),
            container=(
                ContainerExplanation(**{**container, "roots": tuple(container.get("roots", ()))})
                if container
                else None
            ),
            metadata=tuple(
                FieldSource(
                    **{**m, "candidates": tuple(Candidate(**c) for c in m.get("candidates", ()))}
                )
                for m in data.get("metadata", ())
            ),
            confidence=(
                ConfidenceExplanation(
                    **{
                        **confidence,
                        "features": tuple(
                            FeatureContribution(**f) for f in confidence.get("features", ())
                        ),
                    }
                )
                if confidence
                else None
            ),
            page_type=PageTypeExplanation(**data["page_type"]),
            content_filter=dict(data.get("content_filter", {})),
            warnings=tuple(data.get("warnings", ())),
            blocks_left_out=int(data.get("blocks_left_out", 0)),
            committee=_committee(data.get("committee")),
        )


def _committee(data: Mapping[str, Any] | None) -> CommitteeExplanation | None:
    if not data:
        return None
    return CommitteeExplanation(
        used=bool(data["used"]),
        mean_agreement=float(data["mean_agreement"]),
        members=tuple(CommitteeMember(**m) for m in data.get("members", ())),
    )


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value

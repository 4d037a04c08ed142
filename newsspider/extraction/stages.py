"""What the extraction stages produced for one page, kept only when an explanation is asked for.

`extract` fills a `StageRecord` when one is passed down (`newsspider.explain` does); the default
path passes none and pays one ``is not None`` test per stage. The record holds references to
results the stages built anyway: recording copies nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from newsspider.extraction.body.assembly import BodySelection
from newsspider.extraction.body.scoring import ContainerChoice
from newsspider.extraction.classify.page_classifier import PageTypePrediction
from newsspider.extraction.classify.pagetype import BodyShape, PageSignals
from newsspider.extraction.committee import Committee
from newsspider.extraction.metadata.reader import PageMetadata
from newsspider.extraction.page.page_model import PageSegments


@dataclass(slots=True)
class StageRecord:
    """The stage results of one `extract` call; a field stays None when its stage did not run."""

    source: str | bytes | None = None
    metadata: PageMetadata | None = None
    page: PageSegments | None = None
    choice: ContainerChoice | None = None
    #: The body as assembled from the container, before the edge lines were trimmed.
    untrimmed: BodySelection | None = None
    selection: BodySelection | None = None
    #: The forum thread's posts (blocks) when the body is made of them
    #: (`threads.thread_selection`).
    thread_posts: tuple[int, ...] | None = None

    @property
    def thread(self) -> bool:
        """The body is the posts of a forum thread."""
        return self.thread_posts is not None

    runner_up_ratio: float = 0.0
    #: The page holds no article, so the body is the page's own content
    #: (`page_content.content_selection`), not the article-like block scoring chose.
    page_content: bool = False
    #: With `page_content`: the article-like body it replaced, the body the confidence scores.
    article_selection: BodySelection | None = None
    #: P(an article is present) (`confidence.article_presence`), 0 when the article-like body
    #: was empty: measured before any page-content body replaced it.
    presence: float = 0.0
    signals: PageSignals | None = None
    shape: BodyShape | None = None
    is_article_hint: bool | None = None
    structured_agreement: float | None = None
    features: tuple[float, ...] | None = None
    #: The committee of seed methods on the article-like body (`committee.run_committee`):
    #: always run for a record, and `committee_used` says whether the confidence read it
    #: (only in `confidence.COMMITTEE_BAND`).
    committee: Committee | None = None
    committee_used: bool = False
    #: The page classifier's features (`page_features.FEATURE_NAMES`) and its prediction.
    type_features: tuple[float, ...] | None = None
    type_prediction: PageTypePrediction | None = None
    #: The body is a thread of a forum package's post template: typed "thread" whatever the
    #: prediction (`threads.ThreadSelection.package`).
    package_thread: bool = False
    #: Record every stage, as an explanation needs (the committee sits on every page, the
    #: tree is kept). False: only the measures a caller reads without explaining (`presence`,
    #: `page_content`), and the extraction runs as without a record (the content filter:
    #: `page_judgement.judge_page`, which reads `presence` only).
    explain: bool = True

"""What the extraction stages produced for one page, kept only when an explanation is asked for.

`extract` fills a `StageRecord` when one is passed down (`newsspider.explain` does); the default
path passes none and pays one ``is not None`` test per stage. The record holds references to
results the stages built anyway: recording copies nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from newsspider.extraction.body.assembly import BodySelection
from newsspider.extraction.body.scoring import ContainerChoice
from newsspider.extraction.classify.pagetype import BodyShape, PageSignals
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

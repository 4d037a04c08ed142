"""`PipelineConfig`: the extraction and pipeline settings, read and checked once.

Shared by the pipeline and the content filter, which extracts the pages it is unsure about with
the same function and arguments as the pipeline (so that the pipeline can reuse the result).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from newsspider.extraction.api import ALGORITHMS, DEFAULT_MAX_BYTES
from newsspider.extraction.article import PAGE_TYPES
from newsspider.extraction.classify.confidence import DROP_THRESHOLD
from newsspider.settings_defaults import (
    DEFAULTS,
    EXPLAIN_DIR,
    EXPLAIN_MAX,
    EXTRACT_ALGORITHM,
    EXTRACT_FUNCTION,
    EXTRACT_MAX_BYTES,
    EXTRACT_MODE,
    EXTRACT_START_METHOD,
    EXTRACT_WORKERS,
    ITEM_SCHEMA,
    LOW_CONFIDENCE_ACTION,
    MARKDOWN,
    MIN_CONFIDENCE,
    PAGE_TYPES_SETTING,
    RELATIVE_DATES,
    TRUNCATED_MAX_CONFIDENCE,
)

__all__ = ["PipelineConfig"]

_MODES = ("thread", "process")
_ACTIONS = ("drop", "flag")
_SCHEMAS = ("newsspider", "zyte")
_DEFAULT_THREADS = 4


@dataclass(frozen=True, slots=True)
class PipelineConfig:
    """The pipeline's settings, read and checked once."""

    mode: str = "thread"
    workers: int = 0
    start_method: str = "spawn"
    algorithm: str = "default"
    max_bytes: int | None = DEFAULT_MAX_BYTES
    function: str = "newsspider.extraction.api.extract"
    relative_dates: bool = True
    min_confidence: float = DROP_THRESHOLD
    low_confidence: str = "drop"
    truncated_max_confidence: float = 0.2
    explain_dir: Path | None = None
    explain_max: int = 100
    item_schema: str = "newsspider"
    #: Page types that leave the pipeline as articles (``NEWSSPIDER_PAGE_TYPES``).
    page_types: frozenset[str] = frozenset({"article", "thread"})
    #: ``NEWSSPIDER_MARKDOWN``: items carry the body as Markdown.
    markdown: bool = False

    @classmethod
    def from_settings(cls, settings: Any) -> PipelineConfig:
        def get(name: str) -> Any:
            return settings.get(name, DEFAULTS[name])

        max_bytes = get(EXTRACT_MAX_BYTES)
        config = cls(
            mode=str(get(EXTRACT_MODE)).lower(),
            workers=int(get(EXTRACT_WORKERS) or 0),
            start_method=str(get(EXTRACT_START_METHOD)),
            algorithm=str(get(EXTRACT_ALGORITHM)),
            # Unset: the extractor's own cap; 0: no cap at all.
            max_bytes=(DEFAULT_MAX_BYTES if max_bytes in (None, "") else (int(max_bytes) or None)),
            function=str(get(EXTRACT_FUNCTION)),
            relative_dates=settings.getbool(RELATIVE_DATES, DEFAULTS[RELATIVE_DATES]),
            min_confidence=float(get(MIN_CONFIDENCE)),
            low_confidence=str(get(LOW_CONFIDENCE_ACTION)).lower(),
            truncated_max_confidence=float(get(TRUNCATED_MAX_CONFIDENCE)),
            explain_dir=Path(get(EXPLAIN_DIR)) if get(EXPLAIN_DIR) else None,
            explain_max=int(get(EXPLAIN_MAX) or 0),
            item_schema=str(get(ITEM_SCHEMA)).lower(),
            page_types=frozenset(
                settings.getlist(PAGE_TYPES_SETTING, DEFAULTS[PAGE_TYPES_SETTING])
            ),
            markdown=settings.getbool(MARKDOWN, DEFAULTS[MARKDOWN]),
        )
        # Misconfiguration fails the crawl at start-up, not silently mid-crawl.
        if config.mode not in _MODES:
            raise ValueError(f"{EXTRACT_MODE} must be one of {_MODES}, got {config.mode!r}")
        if config.low_confidence not in _ACTIONS:
            raise ValueError(
                f"{LOW_CONFIDENCE_ACTION} must be one of {_ACTIONS}, got {config.low_confidence!r}"
            )
        if config.algorithm not in ALGORITHMS:
            raise ValueError(
                f"{EXTRACT_ALGORITHM} must be one of {ALGORITHMS}, got {config.algorithm!r}"
            )
        if config.item_schema not in _SCHEMAS:
            raise ValueError(f"{ITEM_SCHEMA} must be one of {_SCHEMAS}, got {config.item_schema!r}")
        if config.item_schema == "zyte":
            try:
                import zyte_common_items  # noqa: F401
            except ImportError as exc:
                raise ValueError(
                    f"{ITEM_SCHEMA} = 'zyte' needs zyte-common-items: pip install newsspider[poet]"
                ) from exc
        unknown = config.page_types - set(PAGE_TYPES)
        if unknown:
            raise ValueError(
                f"{PAGE_TYPES_SETTING}: unknown page types {sorted(unknown)}; "
                f"choose from {', '.join(PAGE_TYPES)}"
            )
        if config.explain_max < 0:
            raise ValueError(f"{EXPLAIN_MAX} must be >= 0, got {config.explain_max}")
        if config.workers < 0:
            raise ValueError(f"{EXTRACT_WORKERS} must be >= 0, got {config.workers}")
        return config

    def worker_count(self) -> int:
        if self.workers:
            return self.workers
        if self.mode == "process":
            return max(1, (os.cpu_count() or 2) - 1)
        return _DEFAULT_THREADS

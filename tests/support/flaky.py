"""An extraction function that fails on one page, to test error handling end to end."""

from __future__ import annotations

from typing import Any

from newsspider import extract as real_extract
from newsspider.extraction.article import Article


def extract(html: bytes | str, url: str | None = None, *args: Any, **kwargs: Any) -> Article:
    if url and "storm" in url:
        raise RuntimeError("simulated extractor bug")
    return real_extract(html, url, *args, **kwargs)

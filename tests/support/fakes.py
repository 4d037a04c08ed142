"""Stand-ins for the extraction function, named by import path in pipeline settings."""

from __future__ import annotations

import threading
from typing import Any

from newsspider.extraction.article import Article

#: Every call's arguments, for assertions (same process only: thread mode).
CALLS: list[dict[str, Any]] = []


def extract(
    html: bytes | str, url: str | None = None, encoding: str | None = None, **kw: Any
) -> Article:
    CALLS.append(
        {
            "html": html,
            "url": url,
            "encoding": encoding,
            "thread": threading.current_thread().name,
            **kw,
        }
    )
    text = html.decode(encoding or "utf-8") if isinstance(html, bytes) else html
    if "explode" in text:
        raise ValueError("boom")
    confidence = 0.9 if "article" in text else 0.1
    page_type = "article" if confidence > 0.5 else "listing"
    return Article(
        url=url,
        title="Fake title",
        body=text,
        confidence=confidence,
        page_type=page_type,
        authors=("A. Writer",),
        warnings=("fake",),
    )

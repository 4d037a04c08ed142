"""An extraction function whose worker process dies on one page (process-pool tests)."""

from __future__ import annotations

import os
from typing import Any

from newsspider.extraction.article import Article
from support import fakes


def extract(html: bytes | str, url: str | None = None, *args: Any, **kwargs: Any) -> Article:
    if url and "die" in url:
        os._exit(3)  # as a crash in native code would: no exception, no cleanup
    return fakes.extract(html, url, *args, **kwargs)

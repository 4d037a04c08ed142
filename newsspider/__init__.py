"""newsspider: clean article records from news and blog pages, for Scrapy and without it.

Importing this package never imports Scrapy; the Scrapy components load on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from newsspider.extraction import (
    ALGORITHMS,
    PAGE_TYPES,
    Article,
    ArticleImage,
    Explanation,
    explain,
    extract,
)

if TYPE_CHECKING:
    from newsspider.addon import Addon
    from newsspider.items import ArticleItem, PageItem
    from newsspider.middlewares import article_callback

__all__ = [
    "ALGORITHMS",
    "PAGE_TYPES",
    "Addon",
    "Article",
    "ArticleImage",
    "ArticleItem",
    "Explanation",
    "PageItem",
    "article_callback",
    "explain",
    "extract",
]
__version__ = "0.1.0"

# Scrapy-side names resolved lazily so that `import newsspider` stays Scrapy-free.
_LAZY = {
    "Addon": "newsspider.addon",
    "ArticleItem": "newsspider.items",
    "PageItem": "newsspider.items",
    "article_callback": "newsspider.middlewares",
}


def __getattr__(name: str) -> Any:
    module_name = _LAZY.get(name)
    if module_name is None:
        raise AttributeError(f"module 'newsspider' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module_name), name)

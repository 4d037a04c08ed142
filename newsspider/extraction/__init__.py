"""Pure extraction core: bytes or str in, `Article` out. Never imports Scrapy."""

# First: whether the compiled modules or their sources are imported is decided there.
from newsspider import core_loader  # noqa: F401  # isort: skip
from newsspider.extraction.api import ALGORITHMS, extract
from newsspider.extraction.article import PAGE_TYPES, Article, ArticleImage
from newsspider.extraction.explain import Explanation, explain

__all__ = [
    "ALGORITHMS",
    "PAGE_TYPES",
    "Article",
    "ArticleImage",
    "Explanation",
    "explain",
    "extract",
]

"""Pure extraction core: bytes or str in, `Article` out. Never imports Scrapy."""

from newsspider.extraction.api import ALGORITHMS, extract
from newsspider.extraction.article import PAGE_TYPES, Article
from newsspider.extraction.explain import Explanation, explain

__all__ = ["ALGORITHMS", "PAGE_TYPES", "Article", "Explanation", "explain", "extract"]

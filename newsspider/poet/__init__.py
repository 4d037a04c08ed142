"""newsspider for scrapy-poet and zyte-common-items (``pip install newsspider[poet]``).

Page objects (`NewsArticlePage` -> `Article`, `NewsArticleNavigationPage` ->
`ArticleNavigation`) registered for every URL at a low priority; `to_zyte_article` for an
extracted article; the scrapy-poet provider of the crawl's extraction workers. In a crawl::

    ADDONS = {"newsspider.Addon": 300, "scrapy_poet.Addon": 300, "zyte_common_items.Addon": 400}
    SCRAPY_POET_DISCOVER = ["newsspider.poet"]

See docs/page-objects.md.
"""

from __future__ import annotations

from newsspider.poet.items import to_zyte_article
from newsspider.poet.pages import (
    PAGE_OBJECT_PRIORITY,
    ExtractionWorkers,
    NewsArticleNavigationPage,
    NewsArticlePage,
)
from newsspider.poet.provider import ExtractionWorkersProvider

__all__ = [
    "PAGE_OBJECT_PRIORITY",
    "ExtractionWorkers",
    "ExtractionWorkersProvider",
    "NewsArticleNavigationPage",
    "NewsArticlePage",
    "to_zyte_article",
]

"""A news spider as users write them: listing pages -> story links -> article callback.

The only newsspider lines are the import, the decorator and the `yield` in `parse_article`.
"""

from collections.abc import AsyncIterator
from typing import Any

import scrapy

from newsspider.items import PageItem
from newsspider.middlewares import article_callback


class NewsSpider(scrapy.Spider):
    name = "news"

    def __init__(self, site: str = "http://localhost:8000", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.site = site.rstrip("/")

    async def start(self) -> AsyncIterator[scrapy.Request]:
        yield scrapy.Request(f"{self.site}/index.html")

    def parse(self, response):
        for href in response.css("a.story::attr(href)").getall():
            yield response.follow(href, self.parse_article)
        next_page = response.css("a.next::attr(href)").get()
        if next_page:
            yield response.follow(next_page, self.parse)

    @article_callback
    def parse_article(self, response):
        yield PageItem.from_response(response)

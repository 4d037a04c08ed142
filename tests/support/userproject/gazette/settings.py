# A Scrapy project as `scrapy startproject` makes it, plus one line for newsspider.

BOT_NAME = "gazette"

SPIDER_MODULES = ["gazette.spiders"]
NEWSPIDER_MODULE = "gazette.spiders"

ROBOTSTXT_OBEY = True

FEED_EXPORT_ENCODING = "utf-8"

# newsspider: pipeline, content filter, UTF-8 feeds.
ADDONS = {"newsspider.Addon": 300}

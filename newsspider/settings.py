"""Settings of the bundled Scrapy project (``scrapy.cfg`` points here).

``scrapy crawl feed|sitemap|site -a url=... -O items.jsonl`` runs with these. The add-on wires in
the item pipeline and the judging middleware; everything below is politeness and export format.
"""

from __future__ import annotations

BOT_NAME = "newsspider"
SPIDER_MODULES = ["newsspider.spiders"]
NEWSPIDER_MODULE = "newsspider.spiders"

ADDONS = {"newsspider.Addon": 0}

# Polite by default: say who we are, obey robots.txt, adapt the pace to the server.
USER_AGENT = "newsspider/0.1 (+https://github.com/newsspider/newsspider)"
ROBOTSTXT_OBEY = True
AUTOTHROTTLE_ENABLED = True
AUTOTHROTTLE_START_DELAY = 1.0
AUTOTHROTTLE_MAX_DELAY = 30.0
AUTOTHROTTLE_TARGET_CONCURRENCY = 2.0
CONCURRENT_REQUESTS_PER_DOMAIN = 4
DOWNLOAD_TIMEOUT = 30
# News pages are rarely above a few MB; bigger bodies are feeds dumps or media.
DOWNLOAD_MAXSIZE = 16 * 1024 * 1024
DOWNLOAD_WARNSIZE = 4 * 1024 * 1024
TELNETCONSOLE_ENABLED = False

# JSONL with readable non-ASCII text (Chinese, Russian) instead of \uXXXX escapes. Fields come out
# in the item class's declared order, so FEED_EXPORT_FIELDS is not needed.
FEED_EXPORT_ENCODING = "utf-8"

# Scrapy's current defaults, spelled out so that older project templates do not override them.
TWISTED_REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"

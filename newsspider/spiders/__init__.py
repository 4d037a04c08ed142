"""The bundled news spiders: ``feed`` (RSS/Atom), ``sitemap`` (news sitemaps), ``site`` (crawl).

Run them from the bundled project: ``scrapy crawl <name> -a url=... -O items.jsonl``; see
the README ("Bundled spiders") for their arguments.
"""

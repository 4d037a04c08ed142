"""Which links of wceb2026_llm_dev's listing and collection pages lead to articles: one
hand-written pattern per site, the judge of `bench.accuracy.navigation`.

How it was made (2026-11-27, before measuring): every same-site link of the 109 labelled
listing/collection pages was listed by site (URL path and anchor text); a person read the lists
and wrote, per site, the URL shape of its *articles* — pages whose main content is an editorial
text: news stories, blog posts, features, reviews, recipes, press releases, essays, newsletter
issues, live blogs. Not articles: products, categories, tags, authors, courses, videos,
podcast episodes, repositories, papers, encyclopedia entries, forum or discussion threads,
help and legal pages, coupons, film or book records, game pages and standings. ``None``: the
page links to no article of its site. Patterns are searched (``re.search``) in the URL's path
plus ``?query``. They were written from the URLs and anchors alone, without the classifier's
scores; where the classifier marks a link was visible in the listing it was ignored.
Borderline calls, stated so they can be disputed: ESPN game previews are articles (wire
copy), InfoQ presentations and podcasts are (full transcripts), Interior Design award entries
are (editorial write-ups), Public Domain Review collection posts are, Serious Eats hub pages
(``...-recipes-5117871``) are not, GDevelop's undated ``/page/`` landing pages are not, WRAL and
BBC video pages are not.
"""

from __future__ import annotations

from typing import Final

_SHOPIFY_BLOG = r"^/blogs/[^/?]+/[^/?]+"

#: Site (host without ``www.``) -> article URL pattern (``None``: no articles).
ARTICLE_PATTERNS: Final[dict[str, str | None]] = {
    "adorama.com": r"^/alc/[^/?]+",
    "alison.com": r"^/blog/[^/?]+",
    "aljazeera.com": r"/\d{4}/\d{1,2}/\d{1,2}/[^/?]+",
    "allbirds.com": _SHOPIFY_BLOG,
    "alternativeto.net": r"^/news/(?!all/?$)[^?]+",
    "amazon.com": None,
    "apnews.com": r"^/article/|^/features/.+|^/one-extraordinary-photo-",
    "apple.com": r"^/newsroom/\d{4}/\d{2}/",
    "arstechnica.com": r"^/[a-z-]+/\d{4}/\d{2}/[^/?]+",
    "arxiv.org": None,
    "austintexas.gov": r"^/news/[^/?]+",
    "bbc.com": r"/articles/[a-z0-9]+/?$|^/news/[a-z_-]+-\d{7,}$|/article/\d{8}-",
    "beardbrand.com": _SHOPIFY_BLOG,
    "bestmobileappawards.com": (
        r"^/mobile-app-reviews/[^?]+|^/blog/(?!category/|tag/)[^?]+|^/mobile-app-spotlight/.+"
    ),
    "blog.golang.org": r"^/blog/(?!all$)[a-z0-9][a-z0-9.-]*$",
    "bluecollarelectricians.com": r"^/blog/[^?]+",
    "brooklinen.com": _SHOPIFY_BLOG,
    "business.fau.edu": r"^/newsroom/news/.+|^/newsroom/\d{4}/.+",
    "conejoadulted.org": None,
    "consultingpoint.com": r"^/news/\d{4}/\d{1,2}/\d{1,2}/.+",
    "davidbau.com": r"^/archives/\d{4}/\d{2}/\d{2}/.+\.html",
    "deathwishcoffee.com": _SHOPIFY_BLOG,
    "dev.to": r"^/(?!t/)[A-Za-z0-9_]+/[a-z0-9-]+-[a-z0-9]{3,5}$",
    "dlr.skift.com": r"^/\d{4}/\d{2}/\d{2}/.+",
    "ebay.com": None,
    "en.wikipedia.org": None,
    "engineering.atspotify.com": r"^/\d{4}/\d{1,2}/.+",
    "espn.com": r"/story/_/id/\d+|/preview/_/gameId/\d+|/recap/_/gameId/\d+",
    "esprit-barbecue.fr": r"^/content/\d+-|^/blog/.+",
    "gamerant.com": r"^/(?:game-rant-advance/)?[a-z0-9]+(?:-[a-z0-9]+){2,}/$",
    "gdevelop.io": r"^/blog/.+",
    "generationtux.com": r"^/blog/.+",
    "github.blog": (
        r"^/changelog/\d{4}-\d{2}-\d{2}-|"
        r"^/(?!tag/|author/|category/|page/)[a-z-]+/(?:[a-z-]+/)?[a-z0-9]+(?:-[a-z0-9]+){3,}/?$"
    ),
    "github.com": None,
    "goodreads.com": r"^/blog/show/\d+",
    "gymshark.com": r"^/blog/article/.+",
    "hackernoon.com": r"^/(?!tagged/)[a-z0-9]+(?:-[a-z0-9]+){3,}$",
    "headphones.com": _SHOPIFY_BLOG,
    "hospitalitynet.org": (
        r"^/(?:announcement|news|opinion|appointment|whitepaper|viewpoint|column)/\d+"
    ),
    "ifixit.com": r"^/News/\d+/",
    "ikea.com": r"/ideas/.+",
    "imdb.com": r"^/news/ni\d+|^/article/",
    "infoq.com": r"^/(?:news|articles|presentations|podcasts|interviews)/.+",
    "interiordesign.net": r"^/awards/best-of-year/\d{4}/[^/?]+/$|^/projects/.+|^/designwire/.+",
    "jococups.com": r"^/blog/.+",
    "kansaslegalservices.org": r"^/news/.+|^/blog/.+",
    "lwn.net": r"^/Articles/\d+/?$",
    "mybirdbuddy.eu": r"^/blogs?/.+",
    "netflixtechblog.com": r"^/[a-z0-9-]+-[0-9a-f]{10,12}$",
    "newegg.com": r"^/insider/.+",
    "news.ycombinator.com": None,
    "newsbreak.com": r"^/news/\d+-|^/[a-z0-9-]+-\d+/\d+-",
    "nssa.stanford.edu": r"^/news/.+|^/studies/.+",
    "nytimes.com": r"^/wirecutter/(?:reviews|guides|blog)/.+|^/\d{4}/\d{2}/\d{2}/",
    "phoronix.com": r"^/news/.+|^/review/.+",
    "producthunt.com": None,
    "professional.mit.edu": r"^/news/.+",
    "publicdomainreview.org": r"^/essay/.+|^/collection/[^/?]+",
    "redcircle.com": None,
    "rei.com": r"^/learn/expert-advice/.+|^/blog/.+",
    "reventals.com": r"^/blog/.+",
    "ridge.com": _SHOPIFY_BLOG,
    "samsclub.com": None,
    "scholar.google.com": None,
    "seriouseats.com": (
        r"^/(?![a-z-]*(?:recipes|guides|cuisine|techniques|ingredients|equipment)-\d+$)"
        r"[a-z0-9]+(?:-[a-z0-9]+)+$"
    ),
    "silverbackstrategies.com": r"^/blog/.+|^/lists/.+",
    "skills.google": None,
    "skullcandy.com": _SHOPIFY_BLOG,
    "slashdot.org": r"^/story/\d{2}/\d{2}/\d{2}/\d+/|^/submission/\d+/",
    "stackoverflow.blog": r"^/\d{4}/\d{2}/\d{2}/.+|^/newsletter/issue-",
    "store.steampowered.com": r"^/news/app/\d+/view/",
    "target.com": None,
    "techcrunch.com": r"^/\d{4}/\d{2}/\d{2}/.+",
    "theverge.com": r"^/[a-z0-9-]+/\d{6,}/.+",
    "thomann.de": r"/blog/.+",
    "topadvisor.com": r"^/blog/.+",
    "upliftdesk.com": r"^/blog/.+",
    "wayfair.com": r"/ideas-and-advice/.+",
    "wired.com": r"^/story/.+|^/gallery/.+|^/review/.+",
    "wral.com": r"^/story/.+",
    "zotero.org": None,
}

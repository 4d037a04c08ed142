"""Structure-aware fuzz documents: RSS/Atom/RDF feeds, sitemaps and JSON-LD pages.

Each generator builds a document the way real producers do (elements in the right places, the
right namespaces), then breaks it the way real producers also do: bare ``&``, HTML entity names
in XML, CDATA (sometimes unterminated), escaped markup in titles, ``xml:base`` at any level,
relative and absurd links, localised and impossible dates, undeclared prefixes, truncation,
gzip (sometimes cut), UTF-16 re-encoding, byte-level mutations.
`bench.robustness.fuzz` feeds feeds to
`newsspider.spiders._feeds.FeedReader`, sitemaps to `newsspider.spiders._sitemaps.SitemapReader`
and JSON-LD pages to `newsspider.extract` (whose metadata stage reads them).
"""

from __future__ import annotations

import gzip
import json
import random
from typing import Any

FEED_DATES = (
    "Mon, 20 May 2024 10:00:00 GMT", "Mon, 20 May 2024 10:00:00 +0200", "20 May 2024 10:00 EST",
    "2024-05-20T10:00:00Z", "2024-05-20T10:00:00.123456+05:30", "2024-05-20", "2024-02-30",
    "Thu, 31 Feb 2024 99:99:99 XYZ", "lun., 20 mai 2024 10:00:00 +0200", "20. Mai 2024",
    "2024年5月20日 10:00", "20 мая 2024 г.", "Di, 21 Mai 2024 08:00:00 MESZ", "", " ", "0",
    "-1", "1e400", "9" * 40, "yesterday", "T", "Mon, 20 May 10000 10:00:00 GMT",
    "２０２４-０５-２０", "1716199200", "Z", "2024-W21-1", "2024-13-45T25:61:61+99:99",
)  # fmt: skip
LINKS = (
    "http://example.com/news/2024/05/20/story.html", "/relative/path.html", "relative.html",
    "?a=1&b=2", "http://example.com/a?x=1&y=2&amp;z=3", "https://例え.jp/記事", "",
    "   http://example.com/spaces.html   ", "javascript:alert(1)", "http://[::1", "//cdn.x/y",
    "http://example.com/" + "a" * 3000, "mailto:x@y", "data:text/html,<b>x</b>", "#top",
    "http://feeds.feedburner.com/~r/x/~3/abc/", "\u202ehttp://x", "http://x/%zz%",
)  # fmt: skip
TEXTS = (
    "Tom & Jerry", "Caf&eacute; &nbsp;news", "&amp;nbsp;double", "&lt;b&gt;escaped&lt;/b&gt;",
    "<b>markup</b> in text", "A &bogus; entity", "&#0; &#x110000; &#xD800;", "&#8212; dash",
    "新闻标题", "Заголовок", "日本語のタイトル", "\u200b\ufeff", "", "   ", "x" * 500,
    "<![CDATA[in cdata]]>", "]]>", "&", "&&&;;", "<script>alert(1)</script>", "\U0001f600",
)  # fmt: skip
FEED_NAMESPACES = (
    ' xmlns:dc="http://purl.org/dc/elements/1.1/"',
    ' xmlns:content="http://purl.org/rss/1.0/modules/content/"',
    ' xmlns:feedburner="http://rssnamespace.org/feedburner/ext/1.0"',
    ' xmlns:atom="http://www.w3.org/2005/Atom"',
    ' xmlns:media="http://search.yahoo.com/mrss/"',
)
SCHEMA_TYPES = (
    "NewsArticle", "Article", "BlogPosting", "ReportageNewsArticle", "WebPage", "Person",
    "Organization", "ImageObject", "BreadcrumbList", "LiveBlogPosting", "VideoObject", "",
)  # fmt: skip


def _text(rng: random.Random) -> str:
    pieces = rng.choices(TEXTS, k=rng.randint(1, 3))
    return " ".join(pieces)


def _cdata(rng: random.Random, text: str) -> str:
    roll = rng.random()
    if roll < 0.2:
        return f"<![CDATA[{text}]]>"
    if roll < 0.22:
        return f"<![CDATA[{text}"  # never closed
    return text


def _xml_base(rng: random.Random) -> str:
    if rng.random() < 0.8:
        return ""
    return f' xml:base="{rng.choice(LINKS)}"'


def _rss(rng: random.Random, items: int) -> str:
    out = [f'<rss version="2.0"{"".join(rng.sample(FEED_NAMESPACES, rng.randint(0, 5)))}>']
    out.append(
        f"<channel{_xml_base(rng)}><title>{_text(rng)}</title><link>{rng.choice(LINKS)}</link>"
    )
    for _ in range(items):
        parts = []
        for _ in range(rng.randint(0, 8)):
            kind = rng.randrange(10)
            if kind == 0:
                parts.append(f"<title>{_cdata(rng, _text(rng))}</title>")
            elif kind == 1:
                parts.append(f"<link{_xml_base(rng)}>{_cdata(rng, rng.choice(LINKS))}</link>")
            elif kind == 2:
                permalink = rng.choice(
                    ("", ' isPermaLink="false"', ' isPermaLink="TRUE "', ' isPermaLink=""')
                )
                parts.append(f"<guid{permalink}>{rng.choice(LINKS)}</guid>")
            elif kind == 3:
                parts.append(f"<pubDate>{rng.choice(FEED_DATES)}</pubDate>")
            elif kind == 4:
                parts.append(f"<dc:date>{rng.choice(FEED_DATES)}</dc:date>")
            elif kind == 5:
                parts.append(f"<dc:creator>{_cdata(rng, _text(rng))}</dc:creator>")
            elif kind == 6:
                parts.append(f"<author>{_text(rng)}</author>")
            elif kind == 7:
                parts.append(f"<feedburner:origLink>{rng.choice(LINKS)}</feedburner:origLink>")
            elif kind == 8:
                parts.append(f"<description>{_cdata(rng, _text(rng))}</description>")
            else:
                parts.append(f"<content:encoded><![CDATA[<p>{_text(rng)}</p>]]></content:encoded>")
        out.append(f"<item{_xml_base(rng)}>{''.join(parts)}</item>")
    out.append("</channel></rss>")
    return "".join(out)


def _atom(rng: random.Random, items: int) -> str:
    out = [f'<feed xmlns="http://www.w3.org/2005/Atom"{_xml_base(rng)}']
    out.append(
        f"{''.join(rng.sample(FEED_NAMESPACES, rng.randint(0, 3)))}><title>{_text(rng)}</title>"
    )
    for _ in range(items):
        parts = []
        for _ in range(rng.randint(0, 8)):
            kind = rng.randrange(8)
            if kind == 0:
                kind_attr = rng.choice(("", ' type="html"', ' type="xhtml"', ' type="text"'))
                parts.append(f"<title{kind_attr}>{_cdata(rng, _text(rng))}</title>")
            elif kind in (1, 2):
                rel = rng.choice(
                    ("", ' rel="alternate"', ' rel="self"', ' rel=" alternate "', ' rel=""')
                )
                typ = rng.choice(
                    ("", ' type="text/html"', ' type="application/xhtml+xml"', ' type="image/png"')
                )
                href = rng.choice(LINKS).replace('"', "&quot;")
                parts.append(f'<link{rel}{typ}{_xml_base(rng)} href="{href}"/>')
            elif kind == 3:
                parts.append(f"<published>{rng.choice(FEED_DATES)}</published>")
            elif kind == 4:
                parts.append(f"<updated>{rng.choice(FEED_DATES)}</updated>")
            elif kind == 5:
                names = "".join(f"<name>{_text(rng)}</name>" for _ in range(rng.randint(0, 2)))
                parts.append(f"<author>{names}<uri>{rng.choice(LINKS)}</uri></author>")
            elif kind == 6:
                parts.append(f"<feedburner:origLink>{rng.choice(LINKS)}</feedburner:origLink>")
            else:
                parts.append(f'<content type="html">{_text(rng)}</content>')
        out.append(f"<entry{_xml_base(rng)}>{''.join(parts)}</entry>")
    out.append("</feed>")
    return "".join(out)


def _rdf(rng: random.Random, items: int) -> str:
    out = [
        '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
        'xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">'
    ]
    out.append(f"<channel><title>{_text(rng)}</title></channel>")
    for _ in range(items):
        link = rng.choice(LINKS)
        out.append(
            f'<item rdf:about="{link.replace(chr(34), "")}"><title>{_text(rng)}</title>'
            f"<link>{link}</link><dc:date>{rng.choice(FEED_DATES)}</dc:date>"
            f"<dc:creator>{_text(rng)}</dc:creator></item>"
        )
    out.append("</rdf:RDF>")
    return "".join(out)


def _prolog(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.5:
        return '<?xml version="1.0" encoding="UTF-8"?>\n'
    if roll < 0.6:
        label = rng.choice(("ISO-8859-1", "windows-1251", "utf-16", "bogus", "", "GBK"))
        return f'<?xml version="1.0" encoding="{label}"?>'
    if roll < 0.65:
        return '<!DOCTYPE rss [<!ENTITY a "&b;&b;&b;&b;&b;"><!ENTITY b "bbbbbbbbbb">]>'
    if roll < 0.68:
        return '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
    if roll < 0.72:
        return "<!-- " + "comment " * rng.randint(1, 2000) + "-->"
    return ""


def _finish_xml(rng: random.Random, text: str, mutate: Any) -> bytes:
    """The document as bytes, maybe re-encoded, mutated, gzipped."""
    roll = rng.random()
    if roll < 0.05:
        data = text.encode(rng.choice(("utf-16", "utf-16-le", "utf-32")), "replace")
    elif roll < 0.1:
        data = text.encode(rng.choice(("latin-1", "cp1251", "gbk")), "replace")
    else:
        data = text.encode("utf-8", "surrogatepass")
    if rng.random() < 0.35:
        data = mutate(rng, data)
    if rng.random() < 0.1:
        data = gzip.compress(data, compresslevel=1)
        if rng.random() < 0.3:
            data = data[: rng.randint(0, len(data))]
    return data


def _items(rng: random.Random) -> int:
    if rng.random() < 0.97:
        return rng.randint(0, 12)
    return int(2 ** rng.uniform(4, 12))


def gen_feed(rng: random.Random, mutate: Any) -> bytes:
    kind = rng.random()
    items = _items(rng)
    if kind < 0.5:
        body = _rss(rng, items)
    elif kind < 0.85:
        body = _atom(rng, items)
    elif kind < 0.95:
        body = _rdf(rng, items)
    else:
        body = rng.choice(("<html><body>not a feed</body></html>", "", "<rss", "<?xml?><x/>"))
    return _finish_xml(rng, _prolog(rng) + body, mutate)


def gen_sitemap(rng: random.Random, mutate: Any) -> bytes:
    index = rng.random() < 0.25
    root = "sitemapindex" if index else "urlset"
    child = "sitemap" if index else "url"
    spaces = ['xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"']
    if rng.random() < 0.7:
        spaces.append('xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"')
    if rng.random() < 0.3:
        spaces.append('xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"')
    if rng.random() < 0.1:
        spaces = []
    out = [f"<{root} {' '.join(spaces)}{_xml_base(rng)}>"]
    for _ in range(_items(rng)):
        parts = []
        for _ in range(rng.randint(0, 5)):
            kind = rng.randrange(7)
            if kind in (0, 1):
                parts.append(f"<loc>{_cdata(rng, rng.choice(LINKS))}</loc>")
            elif kind == 2:
                parts.append(f"<lastmod>{rng.choice(FEED_DATES)}</lastmod>")
            elif kind == 3 and not index:
                publication = (
                    f"<news:publication><news:name>{_text(rng)}</news:name>"
                    f"<news:language>{rng.choice(('en', 'zh-cn', '', 'x' * 300))}</news:language>"
                    "</news:publication>"
                )
                parts.append(
                    f"<news:news>{publication if rng.random() < 0.8 else ''}"
                    f"<news:publication_date>{rng.choice(FEED_DATES)}</news:publication_date>"
                    f"<news:title>{_cdata(rng, _text(rng))}</news:title></news:news>"
                )
            elif kind == 4:
                parts.append(
                    f"<image:image><image:loc>{rng.choice(LINKS)}</image:loc></image:image>"
                )
            elif kind == 5:
                parts.append(f"<{child}><loc>{rng.choice(LINKS)}</loc></{child}>")  # nested
            else:
                parts.append(f"<changefreq>{_text(rng)}</changefreq><priority>2.5</priority>")
        out.append(f"<{child}>{''.join(parts)}</{child}>")
    out.append(f"</{root}>")
    return _finish_xml(rng, _prolog(rng) + "".join(out), mutate)


# --- JSON-LD --------------------------------------------------------------------------------


def _json_scalar(rng: random.Random) -> Any:
    return rng.choice(
        (
            rng.choice(FEED_DATES), _text(rng), rng.choice(LINKS), None, True, 0, -1, 1e308,
            2**70, float("inf"), "", [], {}, rng.choice(SCHEMA_TYPES),
        )
    )  # fmt: skip


def _json_value(rng: random.Random, depth: int) -> Any:
    roll = rng.random()
    if depth > 3 or roll < 0.5:
        return _json_scalar(rng)
    if roll < 0.65:
        return [_json_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return _json_object(rng, depth + 1)


def _json_object(rng: random.Random, depth: int) -> dict[str, Any]:
    keys = (
        "@context", "@type", "@id", "@graph", "headline", "name", "alternativeHeadline",
        "datePublished", "dateModified", "dateCreated", "uploadDate", "author", "creator",
        "publisher", "image", "thumbnailUrl", "articleBody", "text", "description", "url",
        "mainEntityOfPage", "isPartOf", "inLanguage", "keywords", "itemListElement",
        "liveBlogUpdate", "sameAs", "logo",
    )  # fmt: skip
    obj: dict[str, Any] = {}
    if rng.random() < 0.8:
        kind = rng.choice(SCHEMA_TYPES)
        obj["@type"] = rng.choice((kind, [kind, rng.choice(SCHEMA_TYPES)], 7, None, [[kind]]))
    for key in rng.sample(keys, rng.randint(0, 6)):
        if key in ("author", "creator", "publisher") and rng.random() < 0.6:
            person = {
                "@type": rng.choice(("Person", "Organization")),
                "name": _json_value(rng, depth),
            }
            obj[key] = rng.choice((person, [person, _json_scalar(rng)], _text(rng)))
        elif key == "@graph":
            obj[key] = [_json_object(rng, depth + 2) for _ in range(rng.randint(0, 4))]
        elif key.startswith("date"):
            obj[key] = rng.choice((rng.choice(FEED_DATES), _json_scalar(rng)))
        elif key == "articleBody":
            obj[key] = " ".join(rng.choices(TEXTS, k=rng.randint(0, 12)))
        else:
            obj[key] = _json_value(rng, depth)
    return obj


def _json_ld_text(rng: random.Random) -> str:
    value: Any = _json_object(rng, 0) if rng.random() < 0.8 else _json_value(rng, 0)
    text = json.dumps(value, ensure_ascii=rng.random() < 0.5)
    roll = rng.random()
    if roll < 0.05:
        text = text[: rng.randint(0, len(text))]  # truncated
    elif roll < 0.08:
        text = text.replace("}", ",}", 1)  # trailing comma
    elif roll < 0.1:
        text = "/* comment */" + text
    elif roll < 0.12:
        text = f"<!--{text}-->"
    elif roll < 0.14:
        text = f"//<![CDATA[\n{text}\n//]]>"
    elif roll < 0.16:
        text = "[" * int(2 ** rng.uniform(6, 15)) + "]" * rng.choice((0, 1, 100))
    elif roll < 0.18:
        text = text.replace('"', "&quot;")
    elif roll < 0.2:
        text = text + text  # two values back to back
    return text


def gen_json_ld_page(rng: random.Random, mutate: Any) -> bytes:
    scripts = []
    for _ in range(rng.randint(1, 4)):
        kind = rng.choice(
            ("application/ld+json", "application/ld+json", "application/LD+JSON",
             "application/ld+json; charset=utf-8", " application/ld+json ", "text/json")
        )  # fmt: skip
        scripts.append(f'<script type="{kind}">{_json_ld_text(rng)}</script>')
    paragraphs = "".join(
        f"<p>{_text(rng)} {'The committee met on Thursday. ' * rng.randint(1, 8)}</p>"
        for _ in range(rng.randint(0, 4))
    )
    head = "".join(scripts) if rng.random() < 0.8 else ""
    tail = "" if head else "".join(scripts)
    page = (
        f"<!DOCTYPE html><html><head><title>{_text(rng)}</title>{head}</head>"
        f"<body><article><h1>{_text(rng)}</h1>{paragraphs}</article>{tail}</body></html>"
    )
    data = page.encode("utf-8", "surrogatepass")
    if rng.random() < 0.2:
        data = mutate(rng, data)
    return data

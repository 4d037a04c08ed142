"""HTML, feed and sitemap templates of the demo site: realistic chrome around the texts.

Pages carry what real news pages carry and what extractors trip over: navigation, a cookie
banner, breadcrumbs, share buttons, "most read" and "related" blocks, comments, newsletter boxes,
footers; dates in meta tags, JSON-LD and local visible formats.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from html import escape
from typing import TYPE_CHECKING

from newsspider.demo._slug import slugify
from newsspider.demo.texts import EditionText, SectionText

if TYPE_CHECKING:
    from newsspider.demo.site import DemoArticle

_RU_MONTHS = (
    "января", "февраля", "марта", "апреля", "мая", "июня",
    "июля", "августа", "сентября", "октября", "ноября", "декабря",
)  # fmt: skip
_EN_MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Context:
    site_url: str
    editions: tuple[EditionText, ...]


@dataclass(frozen=True, slots=True)
class Teaser:
    #: Site-relative path (with query, if any).
    url: str
    title: str
    summary: str
    date: str
    section: str
    authors: tuple[str, ...]

    @classmethod
    def of(cls, article: DemoArticle) -> Teaser:
        return cls(
            article.path,
            article.title,
            article.lede,
            article.date,
            article.section,
            article.authors,
        )

    def url_in(self, base_url: str) -> str:
        return base_url + self.url


def local_date(iso: str, lang: str, with_time: bool = True) -> str:
    """The date as the edition prints it: 5 March 2026 / 2026年3月5日 / 5 марта 2026 г."""
    when = datetime.fromisoformat(iso)
    clock = f"{when:%H:%M}"
    if lang == "zh":
        text = f"{when.year}年{when.month}月{when.day}日"
        return f"{text} {clock}" if with_time else text
    if lang == "ru":
        text = f"{when.day} {_RU_MONTHS[when.month - 1]} {when.year} г."
        return f"{text}, {clock}" if with_time else text
    text = f"{when.day} {_EN_MONTHS[when.month - 1]} {when.year}"
    return f"{text}, {clock} GMT" if with_time else text


def author_path(lang: str, author: str) -> str:
    slug = slugify(author) or f"writer-{sum(map(ord, author)) % 997}"
    return f"/{lang}/author/{slug}/"


def _section_name(edition: EditionText, slug: str) -> str:
    return next((s.name for s in edition.sections if s.slug == slug), slug)


def _layout(
    ctx: Context,
    edition: EditionText | None,
    title: str,
    main: str,
    *,
    head: str = "",
    sidebar: str | None = None,
    crumbs: Sequence[tuple[str, str]] = (),
    body_class: str = "",
) -> str:
    """The site chrome around ``main``."""
    ed = edition or ctx.editions[0]
    lab = ed.labels
    sections = "".join(
        f'<li><a href="/{ed.lang}/{s.slug}/">{escape(s.name)}</a></li>' for s in ed.sections
    )
    others = "".join(
        f'<li><a href="/{e.lang}/" hreflang="{e.lang}">{escape(e.labels["edition"])}</a></li>'
        for e in ctx.editions
    )
    feed = "/zh/atom.xml" if ed.lang == "zh" else f"/{ed.lang}/rss.xml"
    feed_type = "application/atom+xml" if ed.lang == "zh" else "application/rss+xml"
    crumb_html = ""
    if crumbs:
        crumb_html = (
            '<nav class="breadcrumbs" aria-label="breadcrumb"><ol>'
            + "".join(f'<li><a href="{href}">{escape(text)}</a></li>' for href, text in crumbs)
            + "</ol></nav>"
        )
    aside = (
        f'<aside class="sidebar">{sidebar}{_newsletter(ed)}</aside>' if sidebar is not None else ""
    )
    return f"""<!DOCTYPE html>
<html lang="{ed.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<link rel="stylesheet" href="/static/site.css">
<link rel="alternate" type="{feed_type}" title="{escape(ed.site_name)}" href="{feed}">
{head}
<script>window.dataLayer = window.dataLayer || [];
dataLayer.push({{"edition": "{ed.lang}"}});</script>
</head>
<body class="{body_class}">
<div id="cookie-banner" class="consent">We use cookies to measure readership.
 <button type="button">OK</button></div>
<header class="site-header">
  <a class="logo" href="/{ed.lang}/">{escape(ed.site_name)}</a>
  <form class="search" action="/search" method="get">
    <input name="q" placeholder="{escape(lab["search"])}"></form>
  <a class="login" href="/login/">{escape(lab["login"])}</a>
</header>
<nav class="main-nav"><ul>
  <li><a href="/">{escape(lab["home"])}</a></li>{sections}
</ul><ul class="editions">{others}</ul></nav>
{crumb_html}
<div class="layout">
{main}
{aside}
</div>
<footer class="site-footer">
  <ul>
    <li><a href="/about/">{escape(lab["about"])}</a></li>
    <li><a href="/contact/">{escape(lab["contact"])}</a></li>
    <li><a href="/privacy/">{escape(lab["privacy"])}</a></li>
    <li><a href="{feed}">RSS</a></li>
    <li><a href="https://social.example/{ed.lang}harbor" rel="me">@{ed.lang}harbor</a></li>
  </ul>
  <p>© 2026 {escape(ed.site_name)}. {escape(lab["rights"])}</p>
</footer>
</body>
</html>
"""


def _newsletter(edition: EditionText) -> str:
    lab = edition.labels
    return (
        f'<div class="widget newsletter"><h3>{escape(lab["newsletter"])}</h3>'
        f"<p>{escape(lab['newsletter_text'])}</p>"
        f'<form action="/subscribe/" method="post"><input type="email" name="email">'
        f"<button>{escape(lab['subscribe'])}</button></form></div>"
    )


def _teaser_list(items: Sequence[Teaser], lang: str, css: str = "teasers") -> str:
    rows = []
    for t in items:
        when = (
            f'<time datetime="{t.date}">{escape(local_date(t.date, lang, False))}</time>'
            if t.date
            else ""
        )
        summary = f"<p>{escape(t.summary)}</p>" if t.summary else ""
        rows.append(
            f'<li class="teaser"><h3><a href="{escape(t.url)}">{escape(t.title)}</a></h3>'
            f"{when}{summary}</li>"
        )
    return f'<ul class="{css}">{"".join(rows)}</ul>'


def _most_read(edition: EditionText, items: Sequence[Teaser]) -> str:
    if not items:
        return ""
    links = "".join(f'<li><a href="{escape(t.url)}">{escape(t.title)}</a></li>' for t in items)
    title = escape(edition.labels["most_read"])
    return f'<div class="widget most-read"><h3>{title}</h3><ol>{links}</ol></div>'


def article_page(
    ctx: Context,
    edition: EditionText,
    article: DemoArticle,
    *,
    related: Sequence[Teaser] = (),
    most_read: Sequence[Teaser] = (),
    comments: Sequence[str] = (),
    wire_path: str | None = None,
    pager: str = "",
) -> str:
    """An article page; ``pager``: the links to the other pages of a story split over pages,
    put right after its text."""
    lab = edition.labels
    url = ctx.site_url + (wire_path or article.path)
    section = _section_name(edition, article.section)
    head = [f'<meta property="og:title" content="{escape(article.title)}">']
    head.append(f'<meta property="og:site_name" content="{escape(edition.site_name)}">')
    head.append('<meta property="og:type" content="article">')
    head.append(f'<meta name="description" content="{escape(article.lede)}">')
    if wire_path is None:  # the wire copy carries no canonical: only its text gives it away
        head.append(f'<link rel="canonical" href="{escape(url)}">')
        head.append(f'<meta property="og:url" content="{escape(url)}">')
    if article.date_markup == "meta":
        head.append(f'<meta property="article:published_time" content="{article.date}">')
        if article.date_modified:
            head.append(
                f'<meta property="article:modified_time" content="{article.date_modified}">'
            )
    if article.date_markup in ("meta", "jsonld"):
        data: dict[str, object] = {
            "@context": "https://schema.org",
            "@type": "NewsArticle",
            "headline": article.title,
            "datePublished": article.date,
            "author": [{"@type": "Person", "name": a} for a in article.authors],
            "publisher": {"@type": "Organization", "name": edition.site_name},
            "inLanguage": edition.lang,
            "mainEntityOfPage": url,
        }
        if article.date_modified:
            data["dateModified"] = article.date_modified
        ld = json.dumps(data, ensure_ascii=False).replace("</", "<\\/")
        head.append(f'<script type="application/ld+json">{ld}</script>')
    byline = ", ".join(
        f'<a rel="author" href="{author_path(edition.lang, a)}">{escape(a)}</a>'
        for a in article.authors
    )
    dates = (
        f'<span class="published">{escape(lab["published"])} '
        f'<time datetime="{article.date}">{escape(local_date(article.date, edition.lang))}</time>'
        "</span>"
    )
    if article.date_modified:
        dates += (
            f' <span class="updated">{escape(lab["updated"])} '
            f"{escape(local_date(article.date_modified, edition.lang))}</span>"
        )
    figure = ""
    if len(article.paragraphs) >= 4:
        figure = (
            f'<figure><img src="/static/img/{article.section}-{len(article.lede)}.jpg" alt="">'
            f"<figcaption>{escape(lab['photo'])}: {escape(article.authors[0])}</figcaption>"
            "</figure>"
        )
    paragraphs = "".join(f"<p>{escape(p)}</p>" for p in article.paragraphs)
    lede = f'<p class="lede"><strong>{escape(article.lede)}</strong></p>' if article.lede else ""
    related_html = ""
    if related:
        related_html = (
            f'<section class="related"><h2>{escape(lab["related"])}</h2>'
            + _teaser_list(related, edition.lang, "related-list")
            + "</section>"
        )
    comments_html = ""
    if comments:
        rows = "".join(
            f'<li class="comment"><a class="user" href="/{edition.lang}/user/reader{i + 7}/">'
            f"reader{i + 7}</a><p>{escape(c)}</p></li>"
            for i, c in enumerate(comments)
        )
        comments_html = (
            f'<section id="comments" class="comments"><h2>{escape(lab["comments"])} '
            f"({len(comments)})</h2><ol>{rows}</ol>"
            f'<a class="button" href="/login/">{escape(lab["write_comment"])}</a></section>'
        )
    share = (
        f'<div class="share"><span>{escape(lab["share"])}</span>'
        '<a href="https://social.example/share">Social</a> <a href="mailto:?subject=news">Email</a>'
        "</div>"
    )
    main = f"""<main id="content">
<article class="story">
<h1>{escape(article.title)}</h1>
<div class="byline">{escape(lab["by"])} {byline} · {dates}</div>
{share}
<div class="story-body">
{lede}
{figure}
{paragraphs}
</div>
{pager}
<div class="tags">{escape(lab["tag"])}:
 <a href="/{edition.lang}/{article.section}/">{escape(section)}</a></div>
</article>
<div class="ad-slot">Advertisement</div>
{related_html}
{comments_html}
</main>"""
    sidebar = _most_read(edition, most_read)
    return _layout(
        ctx,
        edition,
        f"{article.title} | {edition.site_name}",
        main,
        head="\n".join(head),
        sidebar=sidebar,
        crumbs=[
            (f"/{edition.lang}/", edition.labels["home"]),
            (f"/{edition.lang}/{article.section}/", section),
        ],
        body_class="article",
    )


def story_pager(paths: Sequence[str], current: int, lang: str) -> str:
    """ "Page 1 2" links of a story split over pages (the current page unlinked)."""
    label = {"en": "Pages", "zh": "页", "ru": "Страницы"}.get(lang, "Pages")
    links = " ".join(
        f"<span class='current'>{n + 1}</span>" if n == current else f'<a href="{p}">{n + 1}</a>'
        for n, p in enumerate(paths)
    )
    return f'<nav class="story-pages">{escape(label)}: {links}</nav>'


def thin_page(
    ctx: Context,
    edition: EditionText,
    path: str,
    text: tuple[str, str],
    when: datetime | None,
) -> str:
    stamp = ""
    if when is not None:
        iso = when.isoformat()
        stamp = f'<time datetime="{iso}">{escape(local_date(iso, edition.lang))}</time>'
    main = (
        f'<main id="content"><article class="story"><h1>{escape(text[0])}</h1>{stamp}'
        f'<div class="story-body"><p>{escape(text[1])}</p></div></article></main>'
    )
    return _layout(ctx, edition, f"{text[0]} | {edition.site_name}", main, sidebar="")


def error_page(ctx: Context, edition: EditionText, status: int) -> str:
    message = {404: "Page not found", 410: "This page has been removed"}.get(status, "Error")
    main = f'<main id="content"><h1>{status}</h1><p>{message}.</p></main>'
    return _layout(ctx, edition, f"{message} | {edition.site_name}", main)


def listing_page(
    ctx: Context,
    edition: EditionText,
    section: SectionText,
    items: Sequence[Teaser],
    *,
    page: int,
    pages: int,
    page_url: Callable[[int], str],
) -> str:
    lab = edition.labels
    links = []
    if page > 1:
        links.append(f'<a rel="prev" href="{page_url(page - 1)}">{escape(lab["prev"])}</a>')
    for number in range(1, pages + 1):
        if number == page:
            links.append(f'<span class="current">{number}</span>')
        else:
            links.append(f'<a href="{page_url(number)}">{number}</a>')
    if page < pages:
        links.append(f'<a rel="next" href="{page_url(page + 1)}">{escape(lab["next"])}</a>')
    pager = f'<div class="pagination">{" ".join(links)}</div>'
    main = (
        f'<main id="content"><h1>{escape(section.name)}</h1>'
        f"{_teaser_list(items, edition.lang)}{pager}</main>"
    )
    title = section.name if page == 1 else f"{section.name} ({page})"
    return _layout(
        ctx,
        edition,
        f"{title} | {edition.site_name}",
        main,
        sidebar="",
        crumbs=[(f"/{edition.lang}/", lab["home"])],
        body_class="listing",
    )


def author_page(ctx: Context, edition: EditionText, author: str, items: Sequence[Teaser]) -> str:
    main = f'<main id="content"><h1>{escape(author)}</h1>{_teaser_list(items, edition.lang)}</main>'
    return _layout(ctx, edition, f"{author} | {edition.site_name}", main, sidebar="")


def edition_home(
    ctx: Context, edition: EditionText, top: Sequence[Teaser], extras: Sequence[Teaser]
) -> str:
    lab = edition.labels
    heading = f"<h2>{escape(lab['top_stories'])}</h2>"
    blocks = [f'<section class="top">{heading}{_teaser_list(top, edition.lang)}</section>']
    blocks.append(f'<section class="picks">{_teaser_list(extras, edition.lang, "picks")}</section>')
    for section in edition.sections:
        blocks.append(
            f'<section class="section-block"><h2><a href="/{edition.lang}/{section.slug}/">'
            f"{escape(lab['more'])} {escape(section.name)}</a></h2></section>"
        )
    main = f'<main id="content">{"".join(blocks)}</main>'
    return _layout(ctx, edition, edition.site_name, main, sidebar="", body_class="home")


def site_home(ctx: Context, top: dict[str, Sequence[Teaser]]) -> str:
    blocks = []
    for edition in ctx.editions:
        blocks.append(
            f'<section lang="{edition.lang}"><h2><a href="/{edition.lang}/">'
            f"{escape(edition.site_name)}</a></h2>{_teaser_list(top[edition.lang], edition.lang)}"
            "</section>"
        )
    main = f'<main id="content">{"".join(blocks)}</main>'
    return _layout(ctx, None, "Harbor Ledger Group", main, body_class="home")


def static_page(ctx: Context, slug: str) -> str:
    text = {
        "about": "The Harbor Ledger Group publishes three local newspapers in three languages. "
        "This site is a demonstration: every story on it is invented.",
        "contact": "Write to the newsroom at newsroom@example.org.",
        "privacy": "We keep no personal data. This demonstration site sets no cookies.",
    }[slug]
    main = f'<main id="content"><h1>{slug.title()}</h1><p>{escape(text)}</p></main>'
    return _layout(ctx, None, f"{slug.title()} | Harbor Ledger Group", main)


# --- feeds and sitemaps ---------------------------------------------------------------------


def _rfc822(iso: str) -> str:
    return datetime.fromisoformat(iso).strftime("%a, %d %b %Y %H:%M:%S %z")


def rss_feed(ctx: Context, edition: EditionText, items: Sequence[Teaser]) -> str:
    entries = []
    for t in items:
        authors = "".join(f"<dc:creator>{escape(a)}</dc:creator>" for a in t.authors)
        entries.append(
            f"<item><title>{escape(t.title)}</title><link>{escape(t.url_in(ctx.site_url))}</link>"
            f'<guid isPermaLink="false">{escape(t.url)}</guid><pubDate>{_rfc822(t.date)}</pubDate>'
            f"{authors}<description>{escape(t.summary)}</description></item>"
        )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>'
        f"<title>{escape(edition.site_name)}</title><link>{ctx.site_url}/{edition.lang}/</link>"
        f"<description>{escape(edition.site_name)}</description><language>{edition.lang}</language>"
        + "".join(entries)
        + "</channel></rss>\n"
    )


def atom_feed(ctx: Context, edition: EditionText, items: Sequence[Teaser], path: str) -> str:
    entries = []
    for t in items:
        authors = "".join(f"<author><name>{escape(a)}</name></author>" for a in t.authors)
        entries.append(
            f"<entry><title>{escape(t.title)}</title>"
            f'<link rel="alternate" type="text/html" href="{escape(t.url_in(ctx.site_url))}"/>'
            f"<id>tag:harbor.example,2026:{escape(t.url)}</id><published>{t.date}</published>"
            f"<updated>{t.date}</updated>{authors}<summary>{escape(t.summary)}</summary></entry>"
        )
    newest = max((t.date for t in items), default="2026-03-01T00:00:00+00:00")
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        f'<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="{edition.lang}">'
        f"<title>{escape(edition.site_name)}</title>"
        f'<link rel="self" href="{ctx.site_url}{path}"/>'
        f'<link rel="alternate" href="{ctx.site_url}/{edition.lang}/"/>'
        f"<id>tag:harbor.example,2026:/{edition.lang}/</id><updated>{newest}</updated>"
        + "".join(entries)
        + "</feed>\n"
    )


def news_sitemap(ctx: Context, edition: EditionText, items: Sequence[Teaser]) -> str:
    rows = []
    for t in items:
        rows.append(
            f"<url><loc>{escape(t.url_in(ctx.site_url))}</loc><news:news><news:publication>"
            f"<news:name>{escape(edition.site_name)}</news:name>"
            f"<news:language>{edition.lang}</news:language></news:publication>"
            f"<news:publication_date>{t.date}</news:publication_date>"
            f"<news:title>{escape(t.title)}</news:title></news:news></url>"
        )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">'
        + "".join(rows)
        + "</urlset>\n"
    )


def plain_sitemap(ctx: Context, paths: Sequence[str]) -> str:
    rows = "".join(
        f"<url><loc>{ctx.site_url}{p}</loc><lastmod>2026-03-08</lastmod></url>" for p in paths
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{rows}</urlset>\n'
    )


def sitemap_index(ctx: Context, paths: Sequence[str]) -> str:
    rows = "".join(
        f"<sitemap><loc>{ctx.site_url}{p}</loc><lastmod>2026-03-08</lastmod></sitemap>"
        for p in paths
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{rows}</sitemapindex>\n'
    )

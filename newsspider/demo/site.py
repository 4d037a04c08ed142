"""The demo news site, built in memory: pages by path, plus the truth about every page.

`build_site(base_url)` is deterministic (a seeded RNG combines the hand-written texts in
`newsspider.demo.texts`), so tests can compare what a spider found with what the site holds.

Layout (one host, three language editions)::

    /                          home, links to the editions
    /en/ /zh/ /ru/             edition homes: top stories, sections, a wire copy, a draft link
    /en/city/ (+ /page/2/)     section listings, two teasers a page; zh: index_2.html, ru: ?page=2
    article URLs               en /en/city/2026/03/05/slug/, zh /zh/tech/20260305/a10234.html,
                               ru /ru/economy/10457-translit-slug/
    /en/author/name/           author listings
    /en/rss.xml /zh/atom.xml /ru/rss.xml                  feeds
    /robots.txt -> /sitemap_index.xml -> /sitemaps/*.xml[.gz]  news sitemaps + a pages sitemap
    thin pages, a 404 and a 410 linked from the site, a robots-disallowed draft, duplicates
"""

from __future__ import annotations

import gzip
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from functools import partial

from newsspider.demo import render
from newsspider.demo._slug import slugify
from newsspider.demo.texts import EditionText, SectionText
from newsspider.demo.texts import en as text_en
from newsspider.demo.texts import ru as text_ru
from newsspider.demo.texts import zh as text_zh

SEED = 20260305
EDITIONS: tuple[EditionText, ...] = (text_en.EDITION, text_zh.EDITION, text_ru.EDITION)
PAGE_SIZE = 2
#: Every this many English articles, one is split over two pages (`DemoSite.split_articles`).
SPLIT_EVERY = 4
FIRST_DAY = datetime(2026, 2, 8)


@dataclass(frozen=True, slots=True)
class Page:
    status: int
    content_type: str
    body: bytes


@dataclass(frozen=True, slots=True)
class DemoArticle:
    """One real article of the site: what a perfect extractor returns for it."""

    url: str
    path: str
    lang: str
    section: str
    title: str
    #: ISO 8601 with the newsroom's UTC offset.
    date: str
    authors: tuple[str, ...]
    lede: str
    paragraphs: tuple[str, ...]
    #: How the date is marked up: "meta" (meta + JSON-LD + text), "jsonld", or "text" (visible
    #: text and <time> only): variety for the extractor.
    date_markup: str = "meta"
    date_modified: str | None = None

    @property
    def body(self) -> str:
        return "\n".join((self.lede, *self.paragraphs))


@dataclass(slots=True)
class DemoSite:
    base_url: str
    pages: dict[str, Page] = field(default_factory=dict)
    articles: list[DemoArticle] = field(default_factory=list)
    #: Article-shaped pages with almost no text (live page ended, video, paywall stub) -> the
    #: date their feed/sitemap entries carry.
    thin_pages: dict[str, str] = field(default_factory=dict)
    #: A second URL for an article already listed -> the article's URL.
    duplicate_urls: dict[str, str] = field(default_factory=dict)
    #: Linked or listed article URLs that answer 404 / 410.
    broken_urls: list[str] = field(default_factory=list)
    #: Article-shaped URLs that robots.txt disallows.
    disallowed_urls: list[str] = field(default_factory=list)
    feed_urls: list[str] = field(default_factory=list)
    sitemap_index_url: str = ""
    #: Articles split over pages: the article's URL -> its continuation pages' URLs. Their
    #: truth (`DemoArticle`) is the whole story, which the crawl must join.
    split_articles: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: Pages listed in the plain (non-news) sitemap: home, editions, sections.
    plain_sitemap_urls: list[str] = field(default_factory=list)

    def url(self, path: str) -> str:
        return self.base_url + path

    def article(self, url: str) -> DemoArticle | None:
        return next((a for a in self.articles if a.url == url), None)

    def lookup(self, path_and_query: str) -> Page | None:
        """The page for a request target; tracking parameters (utm_*, ref) are ignored."""
        page = self.pages.get(path_and_query)
        if page is None and "?" in path_and_query:
            path, _, query = path_and_query.partition("?")
            params = [p.split("=", 1)[0] for p in query.split("&") if p]
            if all(p.startswith("utm_") or p == "ref" for p in params):
                page = self.pages.get(path)
        return page


def _article_path(edition: EditionText, section: str, title: str, when: datetime, n: int) -> str:
    if edition.lang == "en":
        return f"/en/{section}/{when:%Y/%m/%d}/{slugify(title)}/"
    if edition.lang == "zh":
        return f"/zh/{section}/{when:%Y%m%d}/a{10000 + 37 * n}.html"
    return f"/ru/{section}/{10400 + 53 * n}-{slugify(title, 5)}/"


def _listing_path(edition: EditionText, section: SectionText, page: int) -> str:
    root = f"/{edition.lang}/{section.slug}/"
    if page == 1:
        return root
    if edition.lang == "en":
        return f"{root}page/{page}/"
    if edition.lang == "zh":
        return f"{root}index_{page}.html"
    return f"{root}?page={page}"


def _offset(edition: EditionText) -> timezone:
    sign = -1 if edition.utc_offset.startswith("-") else 1
    hours, minutes = edition.utc_offset[1:].split(":")
    return timezone(sign * timedelta(hours=int(hours), minutes=int(minutes)))


def _make_articles(base_url: str, rng: random.Random) -> list[DemoArticle]:
    articles: list[DemoArticle] = []
    for e_index, edition in enumerate(EDITIONS):
        zone = _offset(edition)
        n = 0
        for s_index, section in enumerate(edition.sections):
            used: set[tuple[int, ...]] = set()
            for k, (title, lede) in enumerate(section.stories):
                # Spread the edition's stories over four weeks, newest last.
                day = FIRST_DAY + timedelta(days=(k * 3 + s_index) * 2 + e_index)
                when = day.replace(hour=rng.randint(6, 21), minute=rng.choice((0, 15, 30, 45)))
                when = when.replace(tzinfo=zone)
                while True:  # a different choice of pool paragraphs for every story
                    picks = tuple(sorted(rng.sample(range(len(section.pool)), rng.randint(3, 5))))
                    if picks not in used:
                        used.add(picks)
                        break
                paragraphs = tuple(section.pool[i] for i in picks)
                authors = tuple(rng.sample(edition.authors, 2 if rng.random() < 0.2 else 1))
                markup = ("meta", "jsonld", "text")[n % 3]
                modified = (
                    (when + timedelta(hours=rng.randint(2, 30))).isoformat()
                    if rng.random() < 0.3
                    else None
                )
                path = _article_path(edition, section.slug, title, when, n)
                articles.append(
                    DemoArticle(
                        url=base_url + path,
                        path=path,
                        lang=edition.lang,
                        section=section.slug,
                        title=title,
                        date=when.isoformat(),
                        authors=authors,
                        lede=lede,
                        paragraphs=paragraphs,
                        date_markup=markup,
                        date_modified=modified,
                    )
                )
                n += 1
    return articles


def _put_split_article(
    site: DemoSite,
    put: Callable[[str, str], None],
    article: DemoArticle,
    *,
    ctx: render.Context,
    edition: EditionText,
    related: list[render.Teaser],
    most_read: list[render.Teaser],
    comments: list[str],
) -> None:
    """The article over two pages (``.../slug/`` and ``.../slug/2/``): the lede and the first
    half of its paragraphs, then the rest, with numbered page links after the text."""
    half = len(article.paragraphs) // 2
    paths = (article.path, f"{article.path}2/")
    parts = (
        replace(article, paragraphs=article.paragraphs[:half]),
        replace(article, lede="", paragraphs=article.paragraphs[half:]),
    )
    for page, (path, part) in enumerate(zip(paths, parts, strict=True)):
        put(
            path,
            render.article_page(
                ctx,
                edition,
                part,
                related=related,
                most_read=most_read,
                comments=comments if page == len(paths) - 1 else [],
                pager=render.story_pager(paths, page, edition.lang),
            ),
        )
    site.split_articles[article.url] = tuple(site.base_url + path for path in paths[1:])


def build_site(base_url: str) -> DemoSite:
    """Every page of the demo site for a server reachable at ``base_url`` (no trailing slash)."""
    base_url = base_url.rstrip("/")
    rng = random.Random(SEED)
    site = DemoSite(base_url=base_url)
    site.articles = _make_articles(base_url, rng)
    html = "text/html; charset=utf-8"

    def put(path: str, body: str | bytes, status: int = 200, ctype: str = html) -> None:
        data = body.encode("utf-8") if isinstance(body, str) else body
        site.pages[path] = Page(status, ctype, data)

    ctx = render.Context(site_url=base_url, editions=EDITIONS)
    teasers_by_edition: dict[str, list[render.Teaser]] = {}
    for edition in EDITIONS:
        mine = [a for a in site.articles if a.lang == edition.lang]
        zone = _offset(edition)
        # The thin page: article-shaped URL, listed in the first section, in feeds and sitemaps.
        first = edition.sections[0]
        thin_when = datetime.fromisoformat(mine[-1].date) - timedelta(days=1, hours=3)
        thin_when = thin_when.astimezone(zone)
        thin_path = _article_path(edition, first.slug, edition.thin[0], thin_when, 90)
        site.thin_pages[base_url + thin_path] = thin_when.isoformat()
        put(thin_path, render.thin_page(ctx, edition, thin_path, edition.thin, thin_when))

        teasers = [render.Teaser.of(a) for a in mine]
        thin_teaser = render.Teaser(
            url=thin_path,
            title=edition.thin[0],
            summary=edition.thin[1],
            date=thin_when.isoformat(),
            section=first.slug,
            authors=(),
        )
        teasers_by_edition[edition.lang] = teasers
        by_date = sorted(teasers, key=lambda t: t.date, reverse=True)
        most_read = by_date[1:6]
        broken: list[render.Teaser] = []
        if edition.lang == "en":
            # A "most read" entry whose story was taken down: answers 404.
            gone = "/en/science/2026/02/20/retracted-study-on-tidal-energy-yields/"
            broken.append(
                render.Teaser(gone, "Retracted: study on tidal energy yields", "", "", "", ())
            )
            site.broken_urls.append(base_url + gone)
            put(gone, render.error_page(ctx, edition, 404), status=404)

        for position, article in enumerate(mine):
            related = [t for t in teasers if t.section == article.section and t.url != article.path]
            related_sample = rng.sample(related, 3)
            comments = rng.sample(edition.comments, rng.randint(2, 4))
            if (
                edition.lang == "en"
                and position % SPLIT_EVERY == 1
                and len(article.paragraphs) >= 4
            ):
                _put_split_article(
                    site,
                    put,
                    article,
                    ctx=ctx,
                    edition=edition,
                    related=related_sample,
                    most_read=most_read + broken,
                    comments=comments,
                )
                continue
            put(
                article.path,
                render.article_page(
                    ctx,
                    edition,
                    article,
                    related=related_sample,
                    most_read=most_read + broken,
                    comments=comments,
                ),
            )

        # Section listings with pagination; the thin page is the first section's newest teaser.
        for section in edition.sections:
            items = sorted(
                [t for t in teasers if t.section == section.slug]
                + ([thin_teaser] if section is first else []),
                key=lambda t: t.date,
                reverse=True,
            )
            pages = max(1, -(-len(items) // PAGE_SIZE))
            for page in range(1, pages + 1):
                chunk = items[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
                put(
                    _listing_path(edition, section, page),
                    render.listing_page(
                        ctx,
                        edition,
                        section,
                        chunk,
                        page=page,
                        pages=pages,
                        page_url=partial(_listing_path, edition, section),
                    ),
                )

        # Author listings.
        for author in edition.authors:
            own = [t for t in by_date if author in t.authors]
            put(
                render.author_path(edition.lang, author),
                render.author_page(ctx, edition, author, own),
            )

        # Edition home: top stories, a duplicate of one story under a tracking parameter, a wire
        # copy (same text, another URL, no canonical) and a draft that robots.txt disallows.
        extras: list[render.Teaser] = []
        picked = by_date[3]
        ref_url = picked.url + "?ref=home"
        site.duplicate_urls[base_url + ref_url] = base_url + picked.url
        extras.append(
            render.Teaser(ref_url, picked.title, picked.summary, picked.date, "", picked.authors)
        )
        if edition.lang == "en":
            original = next(a for a in mine if a.path == by_date[5].url)
            wire_path = (
                f"/en/wire/{original.date[:10].replace('-', '/')}/{slugify(original.title)}/"
            )
            site.duplicate_urls[base_url + wire_path] = original.url
            put(wire_path, render.article_page(ctx, edition, original, wire_path=wire_path))
            extras.append(
                render.Teaser(
                    wire_path, original.title, original.lede, original.date, "", original.authors
                )
            )
            draft = "/en/drafts/2026/03/09/embargoed-budget-story-do-not-publish/"
            site.disallowed_urls.append(base_url + draft)
            put(draft, render.thin_page(ctx, edition, draft, ("Embargoed", "Draft."), None))
            extras.append(render.Teaser(draft, "Embargoed: the budget story", "", "", "", ()))
        put(f"/{edition.lang}/", render.edition_home(ctx, edition, by_date[:6], extras))

        # Feeds: RSS 2.0 for en and ru, Atom for zh; newest first, the thin page included.
        feed_items = sorted([*teasers, thin_teaser], key=lambda t: t.date, reverse=True)
        if edition.lang == "en":
            # Feeds repeat items now and then, here under a campaign parameter.
            repeat = feed_items[2]
            feed_items.append(
                render.Teaser(
                    repeat.url + "?utm_source=rss&utm_campaign=weekend",
                    repeat.title,
                    repeat.summary,
                    repeat.date,
                    repeat.section,
                    repeat.authors,
                )
            )
            site.duplicate_urls[feed_items[-1].url_in(base_url)] = repeat.url_in(base_url)
        if edition.lang == "zh":
            feed_path = "/zh/atom.xml"
            put(
                feed_path,
                render.atom_feed(ctx, edition, feed_items, feed_path),
                ctype="application/atom+xml",
            )
        else:
            feed_path = f"/{edition.lang}/rss.xml"
            put(feed_path, render.rss_feed(ctx, edition, feed_items), ctype="application/rss+xml")
        site.feed_urls.append(base_url + feed_path)

        # News sitemap per edition (zh gzipped, served as a file); ru lists a removed story.
        news_items = list(feed_items[: len(teasers) + 1])
        if edition.lang == "ru":
            gone = "/ru/culture/10999-vystavka-perenesena/"
            site.broken_urls.append(base_url + gone)
            put(gone, render.error_page(ctx, edition, 410), status=410)
            news_items.append(
                render.Teaser(gone, "Выставка перенесена", "", by_date[0].date, "", ())
            )
        xml = render.news_sitemap(ctx, edition, news_items)
        if edition.lang == "zh":
            put(
                "/sitemaps/news-zh.xml.gz",
                gzip.compress(xml.encode(), mtime=0),
                ctype="application/gzip",
            )
        else:
            put(f"/sitemaps/news-{edition.lang}.xml", xml, ctype="application/xml")

    # Site-wide pages.
    put("/", render.site_home(ctx, {lang: ts[:3] for lang, ts in teasers_by_edition.items()}))
    for slug in ("about", "contact", "privacy"):
        put(f"/{slug}/", render.static_page(ctx, slug))
    plain = ["/", *(f"/{e.lang}/" for e in EDITIONS)]
    plain += [_listing_path(e, s, 1) for e in EDITIONS for s in e.sections]
    site.plain_sitemap_urls = [base_url + p for p in plain]
    put("/sitemaps/pages.xml", render.plain_sitemap(ctx, plain), ctype="application/xml")
    index = ["/sitemaps/news-en.xml", "/sitemaps/news-zh.xml.gz", "/sitemaps/news-ru.xml"]
    index.append("/sitemaps/pages.xml")
    put("/sitemap_index.xml", render.sitemap_index(ctx, index), ctype="application/xml")
    site.sitemap_index_url = base_url + "/sitemap_index.xml"
    put(
        "/robots.txt",
        f"User-agent: *\nDisallow: /en/drafts/\nDisallow: /search\n\n"
        f"Sitemap: {base_url}/sitemap_index.xml\n",
        ctype="text/plain; charset=utf-8",
    )
    return site

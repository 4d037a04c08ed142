"""Sitemaps read a slice at a time: big ones in bounded steps, capped, news fields kept."""

from __future__ import annotations

from support.steps import read_in_steps

from newsspider.spiders._sitemaps import SitemapReader, parse_sitemap

NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
NEWS = 'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"'


def big_sitemap(count: int) -> bytes:
    entries = "".join(
        f"<url><loc>https://big.example/2026/03/05/story-{i}.html</loc><lastmod>2026-03-05"
        f"</lastmod><news:news><news:publication_date>2026-03-05T10:00:00Z"
        f"</news:publication_date><news:title>Story {i}</news:title></news:news></url>\n"
        for i in range(count)
    )
    return f"<?xml version='1.0'?><urlset {NS}{NEWS}>{entries}</urlset>".encode()


def test_big_sitemap_in_bounded_steps_with_news_fields() -> None:
    """20 000 URLs: many steps, none long (generous bound for a loaded CI machine), every
    entry with its news: title and date."""
    data = big_sitemap(20_000)
    reader = SitemapReader(data, "https://big.example/sitemap.xml", max_urls=0)
    steps = read_in_steps(reader.batches())
    entries = steps.items
    assert len(entries) == 20_000
    assert steps.count >= len(data) // (64 * 1024)
    assert steps.longest < 0.25
    assert entries[123].hints() == {"title": "Story 123", "date": "2026-03-05T10:00:00+00:00"}
    assert not reader.capped


def test_url_cap_stops_reading() -> None:
    reader = SitemapReader(big_sitemap(5_000), "https://big.example/s.xml", max_urls=1_000)
    urls = [entry.url for entry in reader]
    assert len(urls) == 1_000
    assert urls[-1] == "https://big.example/2026/03/05/story-999.html"
    assert reader.capped


def test_relative_and_nested_locs() -> None:
    data = (
        f"<urlset {NS}><url><loc>/a.html</loc></url>"
        "<other><url><loc>https://x.example/nested.html</loc></url></other>"
        "<url><loc> </loc></url><url><loc>https://x.example/b.html</loc></url></urlset>"
    ).encode()
    sitemap = parse_sitemap(data, "https://x.example/sitemap.xml")
    assert [e.url for e in sitemap.entries] == [
        "https://x.example/a.html",
        "https://x.example/b.html",
    ]


def test_truncated_sitemap_keeps_what_it_holds() -> None:
    data = big_sitemap(1_000)
    urls = [e.url for e in SitemapReader(data[: len(data) // 2], "https://big.example/s.xml")]
    assert 400 < len(urls) < 600


# Found by fuzzing (sitemap generator): the first two raised out of the reader;
# the bare "&" (common) lost the entry.
def test_forbidden_character_references_bare_ampersands_and_links_that_are_no_urls() -> None:
    data = (
        f"<urlset {NS}><url><loc>/a&#xD800;b</loc></url><url><loc>//[::1</loc></url>"
        "<url><loc>/ok?a=1&b=2</loc></url></urlset>"
    ).encode()
    sitemap = parse_sitemap(data, "https://s.example/sitemap.xml")
    assert [entry.url for entry in sitemap.entries] == [
        "https://s.example/a\ufffdb",
        "https://s.example/ok?a=1&b=2",
    ]

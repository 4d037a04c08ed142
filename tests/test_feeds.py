"""Feeds as real sites write them: broken XML, HTML in titles, xml:base, local dates, FeedBurner.

Every fixture here is written for this test; each case is one thing real feeds do that plain XML
parsing gets wrong.
"""

from __future__ import annotations

import gzip
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.steps import read_in_steps

from newsspider.spiders._feeds import FeedReader, FeedRepair, feed_text, parse_feed, repair_feed
from newsspider.spiders._sitemaps import parse_sitemap

BASE = "https://news.example/feeds/main.xml"

BROKEN_RSS = b"""<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns:feedburner="http://rssnamespace.org/feedburner/ext/1.0"
     xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel><title>News & Views</title><link>https://news.example/</link>
<item><title>Tom & Jerry return&nbsp;to the screen</title>
<link>https://news.example/story?id=1&page=2&amp;lang=en</link>
<pubDate>Do, 05 M\xc3\xa4r 2026 09:30:00 +0100</pubDate>
<dc:creator>Ann &amp; Bob</dc:creator></item>
<item><title><![CDATA[Cats & <b>dogs</b> agree]]></title><link>/2026/03/05/cats-dogs</link>
<pubDate>jeu., 05 mars 2026 10:00:00 +0100</pubDate></item>
<item><title>Caf&eacute; prices &amp;nbsp;rise &copy; &bogus; AT&T</title>
<link>https://feedproxy.example/~r/news/~3/abc/</link>
<feedburner:origLink>https://news.example/2026/03/05/cafe-prices</feedburner:origLink></item>
<item><title>&lt;em&gt;Escaped&lt;/em&gt; markup in a title</title>
<guid isPermaLink="true">https://news.example/2026/03/05/escaped</guid></item>
</channel></rss>"""


def test_bare_ampersands_and_html_entities() -> None:
    first, cdata, cafe, escaped = parse_feed(BROKEN_RSS, BASE)
    assert first.url == "https://news.example/story?id=1&page=2&lang=en"
    assert first.title == "Tom & Jerry return to the screen"
    assert first.authors == ("Ann & Bob",)
    assert cdata.title == "Cats & dogs agree"
    assert cafe.title == "Café prices rise © &bogus; AT&T"
    assert escaped.title == "Escaped markup in a title"


def test_relative_links_feedburner_and_guid() -> None:
    entries = parse_feed(BROKEN_RSS, BASE)
    assert [e.url for e in entries] == [
        "https://news.example/story?id=1&page=2&lang=en",
        "https://news.example/2026/03/05/cats-dogs",
        "https://news.example/2026/03/05/cafe-prices",  # origLink, not the redirector
        "https://news.example/2026/03/05/escaped",
    ]


def test_localised_dates() -> None:
    first, cdata, *_ = parse_feed(BROKEN_RSS, BASE)
    assert first.date == "2026-03-05T09:30:00+01:00"
    assert cdata.date == "2026-03-05T10:00:00+01:00"


def _rss_dated(published: str) -> bytes:
    return (
        '<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>t</title>'
        f"<item><title>A story</title><link>https://news.example/a</link>"
        f"<pubDate>{published}</pubDate></item></channel></rss>"
    ).encode()


@pytest.mark.parametrize(
    ("published", "iso"),
    [
        ("5 ledna 2026", "2026-01-05"),  # Czech genitive, from the page dates' table
        ("5 січня 2026", "2026-01-05"),  # Ukrainian
        ("Po, 05 března 2026 09:30:00 +0100", "2026-03-05T09:30:00+01:00"),
        ("5 paź 2026", "2026-10-05"),  # a feed-only Polish abbreviation
        ("5 notamonth 2026", None),
    ],
)
def test_feed_dates_read_the_page_dates_month_names(published: str, iso: str | None) -> None:
    (entry,) = parse_feed(_rss_dated(published), BASE)
    assert entry.date == iso


ATOM = b"""<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://blog.example/archive/"
      xmlns:feedburner="http://rssnamespace.org/feedburner/ext/1.0">
<title type="html">A &amp;amp; B</title>
<entry xml:base="2026/">
  <title type="html">&lt;p&gt;Harbour&amp;nbsp;opens&lt;/p&gt;</title>
  <link rel="alternate" type="text/html" href="03/harbour.html"/>
  <published>2026-03-05T09:30:00Z</published><author><name>Lee</name></author>
</entry>
<entry>
  <title>Linked with its own base</title>
  <link href="story.html" xml:base="/other/"/>
  <updated>5 marca 2026 08:00</updated>
</entry>
<entry>
  <title>Via FeedBurner</title>
  <link rel="alternate" href="https://feeds.example/~r/x/1"/>
  <feedburner:origLink>https://blog.example/real/1.html</feedburner:origLink>
</entry>
<entry><title>Only an enclosure</title><link rel="enclosure" href="a.mp3"/></entry>
</feed>"""


def test_atom_xml_base_at_every_level() -> None:
    harbour, own_base, feedburner = parse_feed(ATOM, "https://elsewhere.example/atom")
    assert harbour.url == "https://blog.example/archive/2026/03/harbour.html"
    assert harbour.title == "Harbour opens"
    assert harbour.date == "2026-03-05T09:30:00+00:00"
    assert harbour.authors == ("Lee",)
    assert own_base.url == "https://blog.example/other/story.html"
    assert own_base.date == "2026-03-05T08:00:00"
    assert feedburner.url == "https://blog.example/real/1.html"


RDF = b"""<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
 xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel rdf:about="https://n.example/"><title>N</title></channel>
<item rdf:about="https://n.example/1"><title>One & two</title><link>https://n.example/1</link>
<dc:date>2026-03-05T09:00:00+09:00</dc:date></item>
</rdf:RDF>"""


def test_rss1_items_beside_the_channel() -> None:
    (entry,) = parse_feed(RDF, "https://n.example/rdf")
    assert (entry.url, entry.title, entry.date) == (
        "https://n.example/1",
        "One & two",
        "2026-03-05T09:00:00+09:00",
    )


def test_gzip_and_legacy_encodings() -> None:
    assert parse_feed(gzip.compress(BROKEN_RSS), BASE) == parse_feed(BROKEN_RSS, BASE)
    cyrillic = (
        '<?xml version="1.0" encoding="windows-1251"?><rss><channel><item>'
        "<title>Рыбаки & фермеры</title><link>https://n.example/a?x=1&y=2</link>"
        "</item></channel></rss>"
    ).encode("cp1251")
    (entry,) = parse_feed(cyrillic, BASE)
    assert (entry.title, entry.url) == ("Рыбаки & фермеры", "https://n.example/a?x=1&y=2")


def test_utf16_feed_is_not_rewritten() -> None:
    text = (
        '<?xml version="1.0" encoding="utf-16"?><rss><channel><item><title>A &amp; B</title>'
        "<link>https://n.example/u</link></item></channel></rss>"
    )
    data = text.encode("utf-16")
    assert repair_feed(data) == data
    (entry,) = parse_feed(data, BASE)
    assert (entry.title, entry.url) == ("A & B", "https://n.example/u")


def test_repair_leaves_cdata_and_valid_references_alone() -> None:
    data = b"<a>&amp; &#38; &#x26; &lt;<![CDATA[ & &nbsp; ]]> & &nbsp;<![CDATA[ & "
    assert repair_feed(data) == (
        b"<a>&amp; &#38; &#x26; &lt;<![CDATA[ & &nbsp; ]]> &amp; &#160;<![CDATA[ & "
    )


@pytest.mark.parametrize("junk", [b"", b"<html><body>hi</body></html>", b"\x1f\x8bbroken", b"<"])
def test_not_a_feed(junk: bytes) -> None:
    reader = FeedReader(junk, BASE)
    assert reader.kind == ""
    assert list(reader) == []


def test_feed_text() -> None:
    assert feed_text("  a\n\t b&nbsp;c ") == "a b c"
    assert feed_text("x < y and y > z") == "x < y and y > z"
    assert feed_text("&nbsp;") is None


def test_big_feed_is_read_in_bounded_steps() -> None:
    """A 20 000-item feed with a bare & in every item: many steps, none long, all items kept.
    The bound is generous (a loaded CI machine); the point is that one step is a slice of
    the document, not all of it."""
    items = b"".join(
        b"<item><title>Story %d & more&nbsp;news</title><link>/a?id=%d&amp;x=1&y=2</link>"
        b"<pubDate>Thu, 05 Mar 2026 09:30:00 +0000</pubDate></item>" % (i, i)
        for i in range(20_000)
    )
    data = b"<rss><channel>" + items + b"</channel></rss>"
    steps = read_in_steps(FeedReader(data, BASE).batches())
    assert len(steps.items) == 20_000
    assert steps.count >= len(data) // (64 * 1024)
    assert steps.longest < 0.25


_TOKENS = [
    *(b"&", b"&amp;", b"&nbsp;", b"&#38;", b"&bogus;", b"<![CDATA[", b"]]>", b"]", b"x", b";"),
    *(b"\x00", b"\x01", b"\xef\xbf\xbe", b"\xef", b"\xbf", b"\xbe", b"\xef\xbf\xbd"),
]


@given(st.lists(st.sampled_from(_TOKENS), max_size=40), st.lists(st.integers(1, 12), max_size=8))
def test_repair_in_pieces_equals_repair_at_once(tokens: list[bytes], sizes: list[int]) -> None:
    """The feed reader repairs each parsing step's slice on its own: wherever the slices are
    cut (inside a reference, a CDATA marker), the result is the same as repairing it whole."""
    data = b"<a>" + b"".join(tokens)
    repair, pieces, position = FeedRepair(), [], 0
    for size in sizes:
        pieces.append(repair(data[position : position + size]))
        position += size
    pieces.append(repair(data[position:], final=True))
    assert b"".join(pieces) == repair_feed(data)


def test_ampersand_flood_costs_linear_time() -> None:
    small, large = b"&a" * 50_000, b"&a" * 200_000
    times = []
    for data in (small, large):
        start = time.process_time()
        list(FeedReader(b"<rss><channel><item><title>" + data, BASE))
        times.append(time.process_time() - start)
    assert times[1] < 8 * times[0] + 0.05


# Found by fuzzing (feed generator): both raised out of the reader, which in a
# crawl loses the whole feed.
def test_references_to_forbidden_characters_become_replacement_characters() -> None:
    """libxml2's recover mode stores ``&#xD800;`` as the bytes of a surrogate and lxml raised
    UnicodeDecodeError reading that text; NUL and past-U+10FFFF references likewise."""
    feed = (
        b"<rss><channel><item><title>a &#xD800; b &#57343; &#0; &#x110000; &#x1F600;</title>"
        b"<author>x&#xDFFF;y</author><link>/b</link></item></channel></rss>"
    )
    (entry,) = parse_feed(feed, BASE)
    assert entry.title == "a \ufffd b \ufffd \ufffd \ufffd \U0001f600"
    assert entry.authors == ("x\ufffdy",)


def test_a_link_that_is_no_url_skips_the_entry() -> None:
    """urljoin raises ValueError on an unclosed IPv6 host, in a link or an xml:base."""
    feed = (
        b"<rss><channel><item><link>http://[::1</link></item>"
        b'<item xml:base="http://[::1"><link>/kept</link></item></channel></rss>'
    )
    assert [entry.url for entry in parse_feed(feed, BASE)] == ["https://news.example/kept"]
    atom = (
        b'<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="//[x"/></entry>'
        b'<entry><link href="/ok"/></entry></feed>'
    )
    assert [entry.url for entry in parse_feed(atom, BASE)] == ["https://news.example/ok"]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32", "utf-32-le"])
def test_utf16_and_utf32_feeds_are_repaired_too(encoding: str) -> None:
    """Found by fuzzing: the repair passed wide encodings through unchanged, so a forbidden
    reference raised UnicodeDecodeError there (and a bare "&" still broke the link)."""
    feed = (
        '<?xml version="1.0" encoding="UTF-16"?><rss><channel><item><title>a &#xD800; é</title>'
        "<link>/x?a=1&b=2</link></item></channel></rss>"
    ).encode(encoding)
    (entry,) = parse_feed(feed, BASE)
    assert entry.url == "https://news.example/x?a=1&b=2"
    assert entry.title == "a \ufffd é"


@pytest.mark.parametrize(
    "feed",
    [
        # A NUL near the start switched the whole repair off.
        b"<rss>\x00<channel><item><title>a &#xD800;</title><link>/a</link></item></channel></rss>",
        # Inside a CDATA section that is never closed.
        b"<rss><channel><item><title><![CDATA[x</title><link>/a</link><author>&#xD800;</author>"
        b"</item></channel></rss>",
        # The root element is read from the unrepaired head: a reference in its namespace.
        b'<feed xmlns="http://www.w3.org/2005/&#xD800;Atom">'
        b'<entry><link href="/a"/></entry></feed>',
    ],
)
def test_forbidden_references_everywhere_the_parser_reads(feed: bytes) -> None:
    """Found by fuzzing: each raised UnicodeDecodeError out of the reader."""
    for entry in parse_feed(feed, BASE):
        assert entry.url.startswith("https://news.example/")


@pytest.mark.parametrize("unit", [b"<p", b'<p a="', b"<a:b"])
def test_tags_never_closed_cost_linear_time(unit: bytes) -> None:
    """Found by fuzzing: libxml2's XML recovery is quadratic on a start tag that is never
    closed, repeated ("<p" 32 000 times before an end tag: 1 s for 64 kB). Such a "<" is text."""
    times = []
    for count in (16_000, 64_000):
        feed = b"<rss><channel><item><link>/a</link></item>" + unit * count + b"</channel></rss>"
        sitemap = b"<urlset><url><loc>/a</loc></url>" + unit * count + b"</urlset>"
        start = time.process_time()
        assert [e.url for e in parse_feed(feed, BASE)] == ["https://news.example/a"]
        assert len(parse_sitemap(sitemap, BASE).entries) == 1
        times.append(time.process_time() - start)
    assert times[1] < 8 * times[0] + 0.1  # four times the input: about four times the time
    assert times[1] < 1.0  # 17 s before, for the 64 000 repetitions


@pytest.mark.parametrize("character", [b"\x00", b"\x01", b"\x1f", b"\xef\xbf\xbe", b"\xef\xbf\xbf"])
def test_a_forbidden_character_in_cdata_does_not_expose_unclosed_tags(character: bytes) -> None:
    """Found by fuzzing: libxml2 ends a CDATA section at a character XML forbids and reads
    the rest as markup, where "<p" repeated costs it quadratic time (6.8 s for 256 kB). The
    repair deletes such controls and writes the non-characters as U+FFFD."""
    times = []
    for count in (16_000, 64_000):
        text = b"<![CDATA[x" + character + b"<p " * count + b"]]>"
        sitemap = b"<urlset><url><loc>/a</loc><news>" + text + b"</news></url></urlset>"
        feed = b"<rss><channel><item><link>/a</link><description>" + text
        feed += b"</description></item></channel></rss>"
        start = time.process_time()
        assert [e.url for e in parse_sitemap(sitemap, BASE).entries] == ["https://news.example/a"]
        assert [e.url for e in parse_feed(feed, BASE)] == ["https://news.example/a"]
        times.append(time.process_time() - start)
    assert times[1] < 8 * times[0] + 0.1
    assert times[1] < 1.0
    assert character not in repair_feed(b"<a>" + character + b"</a>")


def test_a_doctype_subset_and_cdata_keep_their_markup() -> None:
    data = b'<!DOCTYPE rss [<!ENTITY x "y">]><rss><t><![CDATA[a<b<c]]></t></rss>'
    assert repair_feed(data) == data


@pytest.mark.parametrize(
    "stamp",
    [
        "Mon, 99999999999999999999 May 2024 10:00:00 GMT",
        "Mon, 20 May 99999999999999999999 10:00:00 GMT",
        "Mon, 20 May 2024 99999999999999999999:00:00 GMT",
    ],
)
def test_a_date_with_numbers_past_a_c_long_is_no_date(stamp: str) -> None:
    """Found by fuzzing: the email date parser raised OverflowError out of the reader."""
    feed = f"<rss><channel><item><link>/a</link><pubDate>{stamp}</pubDate></item></channel></rss>"
    (entry,) = parse_feed(feed.encode(), BASE)
    assert entry.date is None


def test_deep_items_read_a_bounded_number_of_bases(monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by fuzzing (seed 10): items deep inside elements that each carry an xml:base
    (recover mode nests unclosed ones); reading every ancestor's base for every item was
    quadratic in the depth."""
    from newsspider.spiders import _xml

    joins = 0
    real_join = _xml.join_url

    def counting_join(base: str, url: str) -> str | None:
        nonlocal joins
        joins += 1
        return real_join(base, url)

    monkeypatch.setattr(_xml, "join_url", counting_join)
    depth = 200
    wrappers = b'<group xml:base="d/">' * depth
    links = b"".join(b"<item><link>%d</link></item>" % n for n in range(depth))
    entries = parse_feed(b"<rss><channel>" + wrappers + links + b"</channel></rss>", BASE)
    assert len(entries) == depth
    assert joins <= 20 * depth  # a few per item, not one per level (200 per item)
    # The levels that are read still resolve (two bases from the document URL).
    feed = b'<rss xml:base="/a/"><channel xml:base="b/"><item><link>c</link></item></channel></rss>'
    assert parse_feed(feed, BASE)[0].url == "https://news.example/a/b/c"

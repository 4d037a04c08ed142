"""Feed parsing: newsspider's lxml reader next to feedparser, for speed and for what real feeds do.

    python -m bench.robustness.feeds [--items 100] [--repeat 50]

Speed: CPU per feed for a generated RSS 2.0 feed of ``--items`` entries (title, link, an HTML
description, date, author, categories), parsed to the entries' link, title, date and authors.
Cases: small feeds with one real-world quirk each, and whether each parser gets the link, the
title and the date right. feedparser is in the ``bench`` extra; without it only newsspider runs.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from support.filler import WORDS

from newsspider.spiders._feeds import parse_feed

BASE = "https://news.example/feed.xml"


def rss(items: int, seed: int = 0) -> bytes:
    rng = random.Random(seed)

    def words(n: int) -> str:
        return " ".join(rng.choice(WORDS) for _ in range(n))

    entries = "".join(
        f"<item><title>{words(8).capitalize()}</title>"
        f"<link>https://news.example/2026/03/{1 + i % 28:02d}/{'-'.join(words(5).split())}</link>"
        f"<description>&lt;p&gt;{words(60)}&lt;/p&gt;&lt;p&gt;{words(40)}&lt;/p&gt;</description>"
        f"<pubDate>Thu, 05 Mar 2026 {i % 24:02d}:30:00 +0000</pubDate>"
        f"<dc:creator>{words(2).title()}</dc:creator><category>{words(1)}</category>"
        f"<category>{words(1)}</category><guid isPermaLink='false'>id-{i}</guid></item>\n"
        for i in range(items)
    )
    return (
        '<?xml version="1.0" encoding="utf-8"?><rss version="2.0" '
        'xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>Bench</title>'
        f"<link>https://news.example/</link>{entries}</channel></rss>"
    ).encode()


def _ours(data: bytes) -> list[tuple[str | None, str | None, str | None]]:
    return [(e.url, e.title, e.date) for e in parse_feed(data, BASE)]


def _feedparser(data: bytes) -> list[tuple[str | None, str | None, str | None]]:
    import feedparser

    parsed = feedparser.parse(data, response_headers={"content-location": BASE})
    out = []
    for entry in parsed.entries:
        link = entry.get("feedburner_origlink") or entry.get("link")
        date = entry.get("published_parsed") or entry.get("updated_parsed")
        iso = time.strftime("%Y-%m-%dT%H:%M:%S", date) if date else None
        out.append((link, entry.get("title"), iso))
    return out


#: (name, feed, expected (link, title, date prefix)) of the first entry.
CASES: list[tuple[str, bytes, tuple[str, str, str]]] = [
    (
        "bare & in link and title",
        b"<rss><channel><item><title>Tom & Jerry</title>"
        b"<link>https://news.example/a?id=1&page=2</link></item></channel></rss>",
        ("https://news.example/a?id=1&page=2", "Tom & Jerry", ""),
    ),
    (
        "&nbsp; in a title",
        b"<rss><channel><item><title>Prices&nbsp;rise</title>"
        b"<link>https://news.example/b</link></item></channel></rss>",
        ("https://news.example/b", "Prices rise", ""),
    ),
    (
        "CDATA title with markup",
        b"<rss><channel><item><title><![CDATA[Cats & <b>dogs</b>]]></title>"
        b"<link>https://news.example/c</link></item></channel></rss>",
        ("https://news.example/c", "Cats & dogs", ""),
    ),
    (
        "relative link, xml:base",
        b'<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://news.example/x/">'
        b'<entry xml:base="y/"><title>T</title><link href="d.html"/></entry></feed>',
        ("https://news.example/x/y/d.html", "T", ""),
    ),
    (
        "German pubDate",
        b"<rss><channel><item><title>T</title><link>https://news.example/e</link>"
        b"<pubDate>Do, 05 M\xc3\xa4r 2026 09:30:00 +0000</pubDate></item></channel></rss>",
        ("https://news.example/e", "T", "2026-03-05T09:30"),
    ),
    (
        "feedburner:origLink",
        b'<rss xmlns:feedburner="http://rssnamespace.org/feedburner/ext/1.0"><channel><item>'
        b"<title>T</title><link>https://feeds.example/~r/1</link>"
        b"<feedburner:origLink>https://news.example/f</feedburner:origLink></item></channel></rss>",
        ("https://news.example/f", "T", ""),
    ),
]


def _cpu_per_call(function: Any, data: bytes, repeat: int) -> float:
    function(data)
    start = time.process_time()
    for _ in range(repeat):
        function(data)
    return (time.process_time() - start) / repeat


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--items", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args(argv)
    parsers: dict[str, Any] = {"newsspider (lxml)": _ours}
    try:
        import feedparser

        parsers[f"feedparser {feedparser.__version__}"] = _feedparser
    except ImportError:
        print("feedparser is not installed (pip install -e '.[bench]'): newsspider only\n")
    data = rss(args.items)
    print(f"RSS of {args.items} items, {len(data) / 1024:.0f} KiB, {args.repeat} runs\n")
    print("| parser | CPU ms per feed | ratio |")
    print("|---|---|---|")
    times = {name: _cpu_per_call(function, data, args.repeat) for name, function in parsers.items()}
    fastest = min(times.values())
    for name, seconds in times.items():
        print(f"| {name} | {1000 * seconds:.2f} | {seconds / fastest:.1f}x |")
    print("\n| case | " + " | ".join(parsers) + " |")
    print("|---|" + "---|" * len(parsers))
    for case, feed, (link, title, date) in CASES:
        cells = []
        for function in parsers.values():
            got = function(feed)
            if not got:
                cells.append("no entry")
                continue
            got_link, got_title, got_date = got[0]
            wrong = [
                name
                for name, ok in (
                    ("link", got_link == link),
                    # A no-break space for &nbsp; counts as right.
                    ("title", " ".join((got_title or "").split()) == title),
                    ("date", (got_date or "").startswith(date) and (bool(got_date) or not date)),
                )
                if not ok
            ]
            cells.append("ok" if not wrong else "wrong " + ", ".join(wrong))
        print(f"| {case} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()

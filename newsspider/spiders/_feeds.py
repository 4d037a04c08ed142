"""RSS 2.0 / RSS 1.0 / Atom entries: the article link plus what the feed says about it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin

from lxml import etree

from newsspider.spiders._dates import normalize_date
from newsspider.spiders._xml import child_text, children, local_name, parse_xml, text_of


@dataclass(frozen=True, slots=True)
class FeedEntry:
    url: str
    title: str | None = None
    #: ISO 8601, normalised from pubDate / published / updated / dc:date.
    date: str | None = None
    authors: tuple[str, ...] = ()

    def hints(self) -> dict[str, Any]:
        """Keyword hints for ``PageItem.from_response``; only what the feed actually stated."""
        hints: dict[str, Any] = {}
        if self.title:
            hints["title"] = self.title
        if self.date:
            hints["date"] = self.date
        if self.authors:
            hints["authors"] = list(self.authors)
        return hints


def is_feed_root(root: etree._Element | None) -> bool:
    return root is not None and local_name(root) in ("rss", "feed", "rdf")


def parse_feed(data: bytes, base_url: str) -> list[FeedEntry]:
    """Entries of an RSS or Atom document, in feed order; [] for anything else."""
    root = parse_xml(data)
    return [] if root is None else feed_entries(root, base_url)


def feed_entries(root: etree._Element, base_url: str) -> list[FeedEntry]:
    """Entries of a parsed RSS or Atom document; [] for any other root."""
    kind = local_name(root)
    if kind == "feed":
        entries = [_atom_entry(entry, base_url) for entry in children(root, "entry")]
    elif kind in ("rss", "rdf"):
        items: list[etree._Element] = []
        for node in root:
            if local_name(node) == "channel":
                items.extend(children(node, "item"))
            elif local_name(node) == "item":  # RSS 1.0 puts items beside the channel
                items.append(node)
        entries = [_rss_item(item, base_url) for item in items]
    else:
        return []
    return [entry for entry in entries if entry is not None]


def _rss_item(item: etree._Element, base_url: str) -> FeedEntry | None:
    link = child_text(item, "link")
    if not link:
        # A permalink guid is the article URL when <link> is missing.
        for guid in children(item, "guid"):
            if guid.get("isPermaLink", "true").lower() == "true" and guid.text:
                link = guid.text.strip()
    if not link:
        return None
    authors = [
        text
        for node in item
        if local_name(node) in ("author", "creator") and (text := text_of(node).strip())
    ]
    date = None
    for name in ("pubdate", "date", "published", "updated"):
        date = normalize_date(child_text(item, name))
        if date:
            break
    return FeedEntry(
        url=urljoin(base_url, link),
        title=child_text(item, "title"),
        date=date,
        authors=tuple(authors),
    )


def _atom_entry(entry: etree._Element, base_url: str) -> FeedEntry | None:
    base = entry.get("{http://www.w3.org/XML/1998/namespace}base") or base_url
    link = None
    for node in children(entry, "link"):
        rel = node.get("rel", "alternate")
        kind = node.get("type", "text/html")
        if rel == "alternate" and "html" in kind and node.get("href"):
            link = node.get("href")
            break
    if not link:
        return None
    authors = [name for author in children(entry, "author") if (name := child_text(author, "name"))]
    date = normalize_date(child_text(entry, "published")) or normalize_date(
        child_text(entry, "updated")
    )
    return FeedEntry(
        url=urljoin(urljoin(base_url, base), link),
        title=child_text(entry, "title"),
        date=date,
        authors=tuple(authors),
    )

"""Hand-written texts of the demo news site, one module per language edition.

All people, places and events are invented for the demo. The site generator combines these
texts with a seeded RNG, so every article is different but every run builds the same site.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SectionText:
    slug: str
    name: str
    #: (headline, lede) pairs; one article each.
    stories: tuple[tuple[str, str], ...]
    #: Body paragraphs shared by the section's stories; each article draws several.
    pool: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class EditionText:
    lang: str
    site_name: str
    #: IANA-style UTC offset of the newsroom, e.g. "+08:00".
    utc_offset: str
    authors: tuple[str, ...]
    sections: tuple[SectionText, ...]
    comments: tuple[str, ...]
    #: Short texts of chrome: labels used around the article.
    labels: dict[str, str]
    #: A thin page (paywall stub, live page that ended, video only): headline and its one line.
    thin: tuple[str, str]

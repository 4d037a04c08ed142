"""`to_zyte_article`: a newsspider `Article` as a zyte-common-items `Article`.

The mapping behind both ways of getting Zyte's schema: the page object
(`newsspider.poet.pages.NewsArticlePage`) and the pipeline's ``NEWSSPIDER_ITEM_SCHEMA = "zyte"``.
Empty values are left out (None), as Zyte's own extraction leaves them out; field formats follow
zyte-common-items' documentation (checked by ``python -m bench.accuracy.zyte_items`` on every
development page).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any, Final
from urllib.parse import urlsplit

from itemadapter import ItemAdapter
from zyte_common_items import Article as ZyteArticle
from zyte_common_items import ArticleMetadata, Author, Image, ZyteItemAdapter

from newsspider.extraction.article import Article

__all__ = ["iso_datetime", "language_code", "to_zyte_article", "zyte_dict", "zyte_timestamp"]


class _ZyteAdapter(ItemAdapter):
    """itemadapter as zyte-common-items' add-on configures it: empty fields left out."""

    ADAPTER_CLASSES = (ZyteItemAdapter, *ItemAdapter.ADAPTER_CLASSES)


def zyte_dict(item: Any) -> dict[str, Any]:
    """A zyte-common-items item as Zyte's add-on exports it (nested, empty fields left out)."""
    return dict(_ZyteAdapter(item).asdict())


#: ``en``, ``en-GB``, ``pt_BR``, ``zh-Hans-CN``: the primary subtag is the ISO 639-1 code.
_LANGUAGE: Final = re.compile(r"([A-Za-z]{2})(?:[-_][A-Za-z0-9]{1,8})*")


def iso_datetime(value: str | None) -> str | None:
    """An ISO 8601 date or datetime as Zyte's datetime format: ``YYYY-MM-DDThh:mm:ssZ`` (UTC),
    ``YYYY-MM-DDThh:mm:ss±hh:mm`` (another offset) or ``YYYY-MM-DDThh:mm:ss`` (none known).
    A date alone becomes midnight without an offset (the day is all the page says). None for
    None and for anything that does not parse."""
    if not value:
        return None
    try:
        parsed = datetime.fromisoformat(value.strip())
    except ValueError:
        return None
    text = parsed.replace(microsecond=0).isoformat(timespec="seconds")
    if parsed.utcoffset() is not None and not parsed.utcoffset():
        text = text.removesuffix("+00:00") + "Z"
    return text


def zyte_timestamp(moment: datetime | str | None = None) -> str:
    """A moment (default: now) in UTC, as zyte-common-items' ``dateDownloaded``:
    ``YYYY-MM-DDThh:mm:ssZ``. A naive datetime counts as UTC."""
    if isinstance(moment, str):
        try:
            moment = datetime.fromisoformat(moment)
        except ValueError:
            moment = None
    if moment is None:
        moment = datetime.now(UTC)
    elif moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.replace(tzinfo=None, microsecond=0).isoformat(timespec="seconds") + "Z"


def language_code(value: str | None) -> str | None:
    """The ISO 639-1 code of a language tag (``en-GB`` -> ``en``); None when it has none."""
    if not value:
        return None
    match = _LANGUAGE.fullmatch(value.strip())
    return match.group(1).lower() if match else None


def _text(value: str | None) -> str | None:
    value = value.strip() if value else None
    return value or None


def _absolute(url: Any) -> str | None:
    if not isinstance(url, str):
        return None
    parts = urlsplit(url.strip())
    return url.strip() if parts.scheme in ("http", "https") and parts.netloc else None


def _images(article: Article) -> list[Image]:
    """The body's images (``Article.images`` once it exists: records with a ``url``)."""
    found: list[Image] = []
    for record in getattr(article, "images", ()) or ():
        url = _absolute(getattr(record, "url", None))
        if url is not None and url not in {i.url for i in found}:
            found.append(Image(url=url))
    return found


def _authors(article: Article) -> list[Author] | None:
    """``Author(name, url)``: the profile URL from ``Article.author_profiles`` (``{"name",
    "url"}`` records) when the article has them."""
    profiles: dict[str, str] = {}
    for profile in getattr(article, "author_profiles", ()) or ():
        name, link = profile.get("name"), _absolute(profile.get("url"))
        if isinstance(name, str) and link is not None:
            profiles.setdefault(name.strip(), link)
    authors = [
        Author(name=name.strip(), url=profiles.get(name.strip()))
        for name in article.authors
        if name.strip()
    ]
    return authors or None


def to_zyte_article(
    article: Article,
    *,
    url: str | None = None,
    fetched_at: datetime | str | None = None,
    probability: float | None = None,
) -> ZyteArticle:
    """``article`` in zyte-common-items' schema.

    ``url``: the page's URL when the article has none; ``fetched_at``: when it was downloaded
    (``metadata.dateDownloaded``, default now); ``probability``: ``metadata.probability``
    (default the article's ``confidence``, the same scale: how likely this is the page's
    article, 0-1, calibrated).
    """
    page_url = article.url or url
    if not page_url:
        raise ValueError("a zyte-common-items Article needs a URL: pass url=")
    images = _images(article)
    image = Image(url=article.image) if article.image else (images[0] if images else None)
    if image is not None and image.url not in {i.url for i in images}:
        images.insert(0, image)
    # Fields other sessions are adding to Article (issue 34: raw date texts, author profiles;
    # the body's images) are read when present, so the mapping needs no change when they land.
    # TODO(breadcrumbs): Article has no breadcrumb trail (names and URLs) to map yet.
    values: dict[str, Any] = {
        "url": page_url,
        "canonicalUrl": article.canonical_url or None,
        "headline": _text(article.title),
        "datePublished": iso_datetime(article.date),
        "datePublishedRaw": _text(getattr(article, "date_raw", None)),
        "dateModified": iso_datetime(article.date_modified),
        "dateModifiedRaw": _text(getattr(article, "date_modified_raw", None)),
        "authors": _authors(article),
        "inLanguage": language_code(article.language),
        "mainImage": image,
        "images": images or None,
        "description": _text(article.description),
        "articleBody": _text(article.body),
        "articleBodyHtml": _text(article.body_html),
        "metadata": ArticleMetadata(
            dateDownloaded=zyte_timestamp(fetched_at),
            probability=round(article.confidence if probability is None else probability, 4),
        ),
    }
    return ZyteArticle(**values)

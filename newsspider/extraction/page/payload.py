"""Threads that a forum package ships only as JSON in the page: the posts rendered from it.

Discourse puts the topic's posts in the ``data-preloaded`` attribute of ``#data-preloaded``
(a JSON object whose ``topic_<id>`` value is itself JSON, with ``post_stream.posts[].cooked``
HTML); Flarum in ``<script id="flarum-json-payload">`` (``apiDocument.included`` items of type
``posts`` with ``contentHtml``). A script-rendered page shows crawlers an empty shell (or a
notice); when the visible page holds little prose, the posts from the payload are laid out as
a plain thread page (one post template, in order) and walked instead.

Only pages whose bytes carry one of the markers pay for anything beyond a substring test.
"""

from __future__ import annotations

import html
import json
from typing import Any, Final

from lxml import etree

from newsspider.extraction.page.cleaning import clean_tree
from newsspider.extraction.page.page_model import PageSegments
from newsspider.extraction.page.segments import segment_page
from newsspider.extraction.parse.parsing import parse_html

_MARKERS: Final = ("flarum-json-payload", "data-preloaded")
#: A visible page with at least this much prose is no script shell (as `noscript`).
SHELL_MAX_PROSE: Final = 1000
#: Posts read from a payload, at most (a page-controlled count).
MAX_POSTS: Final = 500
#: Payload text parsed as JSON, at most (bytes of the attribute or script).
MAX_PAYLOAD: Final = 8 * 1024 * 1024


def has_payload_marker(source: bytes | str) -> bool:
    """A cheap test on the raw page: may it hold a forum package's JSON payload?"""
    if isinstance(source, bytes):
        return any(marker.encode() in source for marker in _MARKERS)
    return any(marker in source for marker in _MARKERS)


def _discourse_posts(root: Any) -> tuple[str, list[str]] | None:
    for element in root.iterfind(".//*[@data-preloaded]"):
        raw = element.get("data-preloaded") or ""
        if len(raw) > MAX_PAYLOAD:
            return None
        try:
            data = json.loads(raw)
        except ValueError:
            return None
        if not isinstance(data, dict):
            return None
        for key, value in data.items():
            if not key.startswith("topic_") or not isinstance(value, str):
                continue
            try:
                topic = json.loads(value)
            except ValueError:
                continue
            stream = topic.get("post_stream") if isinstance(topic, dict) else None
            posts = stream.get("posts") if isinstance(stream, dict) else None
            if not isinstance(posts, list):
                continue
            cooked = [
                post["cooked"]
                for post in posts[:MAX_POSTS]
                if isinstance(post, dict) and isinstance(post.get("cooked"), str)
            ]
            title = topic.get("title")
            return (title if isinstance(title, str) else ""), cooked
    return None


def _flarum_posts(root: Any) -> tuple[str, list[str]] | None:
    for script in root.iterfind(".//script[@id='flarum-json-payload']"):
        raw = script.text or ""
        if len(raw) > MAX_PAYLOAD:
            return None
        try:
            data = json.loads(raw)
        except ValueError:
            return None
        document = data.get("apiDocument") if isinstance(data, dict) else None
        if not isinstance(document, dict):
            return None
        included = document.get("included")
        main = document.get("data")
        title = ""
        if isinstance(main, dict) and isinstance(main.get("attributes"), dict):
            found = main["attributes"].get("title")
            title = found if isinstance(found, str) else ""
        posts: list[tuple[int, str]] = []
        for entry in included if isinstance(included, list) else []:
            if not isinstance(entry, dict) or entry.get("type") != "posts":
                continue
            attributes = entry.get("attributes")
            if not isinstance(attributes, dict):
                continue
            content = attributes.get("contentHtml")
            number = attributes.get("number")
            if isinstance(content, str):
                posts.append((number if isinstance(number, int) else len(posts), content))
        posts.sort(key=lambda post: post[0])
        return title, [content for _, content in posts[:MAX_POSTS]]
    return None


def payload_thread_html(root: Any) -> str | None:
    """The payload's posts as a plain thread page (a heading, then one ``div.post`` per post
    in order), or None when the page has no readable payload with two posts or more."""
    found = _discourse_posts(root) or _flarum_posts(root)
    if found is None or len(found[1]) < 2:
        return None
    title, posts = found
    items = "".join(
        f'<div class="post"><div class="post-body">{content}</div></div>' for content in posts
    )
    return (
        f"<html><body><h1>{html.escape(title)}</h1><div class='thread'>{items}</div></body></html>"
    )


def segment_payload(rendered: str, visible: PageSegments, url: str | None) -> PageSegments | None:
    """The rendered payload walked into a page, used when it holds more prose than the
    visible page."""
    visible_prose = visible.prose[0] if visible.prose else 0
    if visible_prose >= SHELL_MAX_PROSE:
        return None
    root = parse_html(rendered)
    if root is None:
        return None
    etree.strip_tags(root, "noscript")
    clean_tree(root)
    page = segment_page(root, url)
    if page.prose and page.prose[0] > visible_prose:
        return page
    return None

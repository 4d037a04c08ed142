"""Extractors under test, each behind one signature: ``(html_bytes, url) -> PeerOutput``.

Every adapter gets the page's raw bytes and does its own decoding, as it would in a crawler.
Peers are optional: `load_peer` raises `PeerUnavailable` when a package is not installed.
"""

from __future__ import annotations

import importlib.metadata
import logging
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import lxml.html

__all__ = [
    "PEER_NAMES",
    "Adapter",
    "Peer",
    "PeerOutput",
    "PeerUnavailable",
    "html_to_text",
    "load_peer",
    "newsspider_peer",
]


class PeerOutput(NamedTuple):
    """What an extractor returned; None (or "") where it returned nothing or has no such field."""

    body: str
    title: str | None
    date: str | None
    #: Only newsspider reports a confidence.
    confidence: float | None = None


EMPTY = PeerOutput("", None, None, None)

Adapter = Callable[[bytes, "str | None"], PeerOutput]


@dataclass(frozen=True, slots=True)
class Peer:
    #: Short name used on the command line and in JSON (e.g. ``trafilatura_precision``).
    name: str
    #: Row label, with version and mode (e.g. ``trafilatura 2.3.1 (favor_precision)``).
    label: str
    fn: Adapter
    #: Which of "body", "title", "date", "confidence" the extractor produces.
    produces: frozenset[str]


class PeerUnavailable(Exception):
    """The peer's package is not installed (or fails to import)."""


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def _quiet(*loggers: str) -> None:
    for name in loggers:
        logging.getLogger(name).setLevel(logging.CRITICAL)


# --- HTML fragment → text (for readability's HTML summary) --------------------------------

_BLOCK_TAGS = frozenset(
    {
        *("address", "article", "aside", "blockquote", "body", "caption", "dd", "details"),
        *("div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "header"),
        *("h1", "h2", "h3", "h4", "h5", "h6", "hr", "html", "li", "main", "nav", "ol", "p"),
        *("pre", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr"),
        "ul",
    }
)
_SKIP_TAGS = frozenset({"script", "style", "noscript", "template", "head"})


def html_to_text(root: Any) -> str:
    """Text of an lxml element with a line break around every block element and at ``<br>``.

    Lines are whitespace-collapsed and empty lines dropped. Iterative, so deep trees are fine.
    """
    parts: list[str] = []
    # (element, entering) pairs; on leaving we emit the closing break and the tail.
    stack: list[tuple[Any, bool]] = [(root, True)]
    while stack:
        el, entering = stack.pop()
        tag = el.tag if isinstance(el.tag, str) else None
        if not entering:
            if tag in _BLOCK_TAGS:
                parts.append("\n")
            if el.tail and el is not root:
                parts.append(el.tail)
            continue
        if tag is None or tag in _SKIP_TAGS:  # comments, processing instructions, scripts
            if el.tail and el is not root:
                parts.append(el.tail)
            continue
        if tag in _BLOCK_TAGS or tag == "br":
            parts.append("\n")
        if el.text:
            parts.append(el.text)
        stack.append((el, False))
        stack.extend((child, True) for child in reversed(el))
    lines = (" ".join(line.split()) for line in "".join(parts).splitlines())
    return "\n".join(line for line in lines if line)


# --- adapters -----------------------------------------------------------------------------


def newsspider_peer(algorithm: str = "default") -> Peer:
    try:
        import newsspider
    except ImportError as exc:  # pragma: no cover - the project itself
        raise PeerUnavailable(str(exc)) from exc
    extract = newsspider.extract

    def run(html: bytes, url: str | None) -> PeerOutput:
        article = extract(html, url=url, algorithm=algorithm)
        return PeerOutput(article.body, article.title, article.date, article.confidence)

    name = "newsspider" if algorithm == "default" else f"newsspider:{algorithm}"
    label = f"newsspider {newsspider.__version__}"
    if algorithm != "default":
        label += f" [{algorithm}]"
    return Peer(name, label, run, frozenset({"body", "title", "date", "confidence"}))


def _trafilatura_peer(favor_precision: bool) -> Peer:
    try:
        from trafilatura import bare_extraction
    except ImportError as exc:
        raise PeerUnavailable(str(exc)) from exc
    _quiet("trafilatura", "htmldate", "courlan")

    def run(html: bytes, url: str | None) -> PeerOutput:
        # bare_extraction(with_metadata=True) gives the same text as trafilatura.extract()'s
        # default txt output (checked: identical on scrapinghub_aeb) plus title and date, in
        # one pass; extract() would skip the metadata step, which newsspider always does.
        doc = bare_extraction(html, url=url, favor_precision=favor_precision, with_metadata=True)
        if doc is None or isinstance(doc, dict):
            return EMPTY
        body = doc.text or ""
        if doc.commentsbody is not None:  # extract() appends comments (include_comments=True)
            body = f"{body}\n{doc.comments or ''}".strip()
        body = unicodedata.normalize("NFC", body)
        return PeerOutput(body, doc.title or None, doc.date or None)

    version = _version("trafilatura")
    if favor_precision:
        return Peer(
            "trafilatura_precision",
            f"trafilatura {version} (favor_precision)",
            run,
            frozenset({"body", "title", "date"}),
        )
    return Peer("trafilatura", f"trafilatura {version}", run, frozenset({"body", "title", "date"}))


def _readability_peer() -> Peer:
    try:
        from readability import Document
    except ImportError as exc:
        raise PeerUnavailable(str(exc)) from exc
    _quiet("readability", "readability.readability")

    def run(html: bytes, url: str | None) -> PeerOutput:
        doc = Document(html, url=url)
        summary = doc.summary()
        body = html_to_text(lxml.html.fromstring(summary)) if summary.strip() else ""
        return PeerOutput(body, doc.short_title() or None, None)

    return Peer(
        "readability",
        f"readability-lxml {_version('readability-lxml')}",
        run,
        frozenset({"body", "title"}),
    )


def _resiliparse_peer() -> Peer:
    try:
        from resiliparse.extract.html2text import extract_plain_text
        from resiliparse.parse.encoding import detect_encoding
        from resiliparse.parse.html import HTMLTree
    except ImportError as exc:
        raise PeerUnavailable(str(exc)) from exc

    def run(html: bytes, url: str | None) -> PeerOutput:
        tree = HTMLTree.parse_from_bytes(html, detect_encoding(html) or "utf-8")
        body = extract_plain_text(tree, main_content=True)
        # resiliparse has no title extraction: this is the raw <title>, a baseline.
        return PeerOutput(body or "", tree.title or None, None)

    return Peer(
        "resiliparse",
        f"resiliparse {_version('resiliparse')} (main_content)",
        run,
        frozenset({"body", "title"}),
    )


def _htmldate_peer() -> Peer:
    try:
        from htmldate import find_date
    except ImportError as exc:
        raise PeerUnavailable(str(exc)) from exc
    _quiet("htmldate")

    def run(html: bytes, url: str | None) -> PeerOutput:
        date = find_date(html, original_date=True, url=url)
        return PeerOutput("", None, date or None)

    return Peer(
        "htmldate",
        f"htmldate {_version('htmldate')} (original_date)",
        run,
        frozenset({"date"}),
    )


_FACTORIES: dict[str, Callable[[], Peer]] = {
    "newsspider": newsspider_peer,
    "trafilatura": lambda: _trafilatura_peer(favor_precision=False),
    "trafilatura_precision": lambda: _trafilatura_peer(favor_precision=True),
    "readability": _readability_peer,
    "resiliparse": _resiliparse_peer,
    "htmldate": _htmldate_peer,
}
#: Peer names accepted by ``--peers``, in report order.
PEER_NAMES: tuple[str, ...] = tuple(_FACTORIES)


def load_peer(name: str) -> Peer:
    """The peer called ``name``; `PeerUnavailable` if its package is missing."""
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise ValueError(f"unknown peer {name!r}; choose from {', '.join(PEER_NAMES)}") from None
    try:
        return factory()
    except PeerUnavailable:
        raise
    except Exception as exc:  # broken install: treat like a missing one
        raise PeerUnavailable(f"{type(exc).__name__}: {exc}") from exc


def lxml_parse(html: bytes) -> object:
    """The speed baseline: a bare ``lxml.html.fromstring`` of the page bytes."""
    return lxml.html.fromstring(html)

"""Loading the evaluation corpora from ``../shared/corpora`` (never copied into the repo).

Each corpus folder holds ``truth.jsonl`` (one JSON object per page) and
``pages/<id>.html.gz``. Pages are read and gunzipped into memory once, before any timing.
"""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import ROOT

__all__ = [
    "CORPORA",
    "ENV_VAR",
    "OTHER_GROUP",
    "PAGE_TYPE_GROUPS",
    "Page",
    "available_corpora",
    "corpora_root",
    "iter_corpus",
    "load_corpus",
]

#: Environment variable that overrides the corpora folder.
ENV_VAR = "NEWSSPIDER_CORPORA"
#: Known corpora, in the order the benchmark reports them.
CORPORA = (
    "scrapinghub_aeb",
    "magichtml_article",
    "readability_testpages",
    "newspaper4k_regression",
    "htmldate_eval",
    "wceb2026_llm_dev",
)

#: wceb2026_llm_dev's upstream ``meta.page_type`` grouped as the benchmark reports it: articles
#: and blogs, forum threads, and the rest (pages whose truth keeps every section of the page).
PAGE_TYPE_GROUPS = {"article": "article + blog", "blog": "article + blog", "forum": "forum"}
OTHER_GROUP = "other types"

REPO_ROOT = ROOT


@dataclass(frozen=True, slots=True)
class Page:
    """One corpus page: its raw bytes and its ground truth (None where there is none)."""

    corpus: str
    id: str
    url: str | None
    lang: str | None
    html: bytes
    #: True main text; "" is a real truth ("this page has no article"), None means unknown.
    body: str | None
    title: str | None
    #: ``YYYY-MM-DD``.
    date: str | None
    meta: Mapping[str, Any] = field(default_factory=dict)
    path: Path | None = None
    #: Snippets that must appear in the body (``with``) and must not (``without``); None = unknown.
    with_snippets: tuple[str, ...] | None = None
    without_snippets: tuple[str, ...] | None = None

    @property
    def group(self) -> str | None:
        """The page-type group the benchmark reports this page under (None: not grouped)."""
        page_type = self.meta.get("page_type")
        if not isinstance(page_type, str):
            return None
        return PAGE_TYPE_GROUPS.get(page_type, OTHER_GROUP)


def corpora_root(explicit: str | os.PathLike[str] | None = None) -> Path:
    """``explicit`` if given, else ``$NEWSSPIDER_CORPORA``, else ``<repo>/../shared/corpora``."""
    if explicit:
        return Path(explicit).expanduser().resolve()
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser().resolve()
    return (REPO_ROOT.parent / "shared" / "corpora").resolve()


def available_corpora(root: Path) -> list[str]:
    """Corpus folders under ``root`` (those with a ``truth.jsonl``), known ones first."""
    if not root.is_dir():
        return []
    found = {p.parent.name for p in root.glob("*/truth.jsonl")}
    return [name for name in CORPORA if name in found] + sorted(found - set(CORPORA))


def _excluded(record: Mapping[str, Any]) -> bool:
    meta = record.get("meta") or {}
    # readability_testpages: lorem-ipsum unit cases, not quality material.
    return bool(meta.get("synthetic"))


def _snippets(value: object) -> tuple[str, ...] | None:
    if not isinstance(value, list):
        return None
    return tuple(v for v in value if isinstance(v, str) and v.strip())


def iter_corpus(name: str, root: Path, limit: int | None = None) -> Iterator[Page]:
    """Yield the pages of corpus ``name`` in truth.jsonl order, bytes already gunzipped."""
    folder = root / name
    truth_path = folder / "truth.jsonl"
    if not truth_path.is_file():
        raise FileNotFoundError(f"no corpus {name!r} at {folder} (set --corpora or ${ENV_VAR})")
    count = 0
    with truth_path.open(encoding="utf-8") as lines:
        for line in lines:
            if limit is not None and count >= limit:
                return
            if not line.strip():
                continue
            record: dict[str, Any] = json.loads(line)
            if _excluded(record):
                continue
            page_id = str(record["id"])
            page_path = folder / "pages" / f"{page_id}.html.gz"
            if not page_path.is_file():
                continue
            body = record.get("body")
            yield Page(
                corpus=name,
                id=page_id,
                url=record.get("url") or None,
                lang=record.get("lang") or None,
                html=gzip.decompress(page_path.read_bytes()),
                body=body if isinstance(body, str) else None,
                title=record.get("title") or None,
                date=record.get("date") or None,
                meta=record.get("meta") or {},
                path=page_path,
                with_snippets=_snippets(record.get("with")),
                without_snippets=_snippets(record.get("without")),
            )
            count += 1


def load_corpus(name: str, root: Path, limit: int | None = None) -> list[Page]:
    """All pages of corpus ``name`` in memory (see `iter_corpus`)."""
    return list(iter_corpus(name, root, limit))

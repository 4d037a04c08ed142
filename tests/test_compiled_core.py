"""The mypyc-compiled extraction modules against their Python sources (`newsspider.core_loader`).

The sources are the reference: every fixture page and every demo page must come out as the
same `Article`, field for field, from both. The sources run in a child process
(NEWSSPIDER_PURE_PYTHON=1): a process imports one or the other.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from newsspider import core_loader

FIXTURES = Path(__file__).parent / "fixtures"
IN_CI = os.environ.get("CI", "").lower() == "true"

needs_compiled_core = pytest.mark.skipif(
    not core_loader.COMPILED_CORE and not IN_CI,
    reason=f"the compiled core is not in use here: {core_loader.PURE_REASON}",
)

# Prints one JSON line per page: the Article's fields, from whichever modules this process runs.
_EXTRACT_ALL = """
import dataclasses, json, sys
from pathlib import Path
from newsspider import core_loader, extract
from newsspider.demo.site import build_site
print(json.dumps({"compiled": core_loader.COMPILED_CORE}))
pages = [(str(p), p.read_bytes()) for p in sorted(Path(sys.argv[1]).rglob("*.html"))]
site = build_site("http://127.0.0.1:8000")
pages += [(path, page.body) for path, page in sorted(site.pages.items())
          if page.content_type.startswith("text/html")]
for name, html in pages:
    article = extract(html, url="http://example.com/" + name.rsplit("/", 1)[-1])
    print(json.dumps({"page": name, "article": dataclasses.asdict(article)}, default=str))
"""


def _articles(pure: bool) -> tuple[bool, dict[str, object]]:
    env = {**os.environ, "NEWSSPIDER_PURE_PYTHON": "1" if pure else "0"}
    result = subprocess.run(
        [sys.executable, "-c", _EXTRACT_ALL, str(FIXTURES)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    first, *rest = result.stdout.splitlines()
    pages = {line["page"]: line["article"] for line in map(json.loads, rest)}
    return bool(json.loads(first)["compiled"]), pages


def test_ci_builds_and_uses_the_compiled_core() -> None:
    if not IN_CI:
        pytest.skip("only under CI=true: a machine without a compiler runs the sources")
    assert core_loader.COMPILED_CORE, core_loader.PURE_REASON


def test_ci_builds_every_cython_twin() -> None:
    if not IN_CI:
        pytest.skip("only under CI=true: a machine without a compiler runs the Python twins")
    from newsspider.extraction import api  # noqa: F401 - imports every module with a twin

    twins = core_loader.compiled_twins()
    # decoding, class words, confidence (2), binary, noscript, page scan, bylines
    assert len(twins) >= 8
    assert all(twin.available and twin.active is not None for twin in twins)


@needs_compiled_core
def test_every_fixture_and_demo_page_is_the_same_article_from_both() -> None:
    compiled, from_compiled = _articles(pure=False)
    pure, from_sources = _articles(pure=True)
    assert compiled and not pure
    assert len(from_compiled) > 50
    differing = [page for page in from_compiled if from_compiled[page] != from_sources[page]]
    assert differing == []


def test_the_switch_loads_the_sources_and_turns_every_compiled_part_off() -> None:
    # One switch for both kinds: the mypyc modules (sources loaded instead) and the Cython
    # parts (walk, guard scans, class meaning, UTF-8 check, gram counts).
    code = (
        "from newsspider import core_loader; "
        "from newsspider.extraction import api; "
        "from newsspider.extraction.body import scoring; "
        "from newsspider.extraction.classify import confidence; "
        "from newsspider.extraction.common import gil; "
        "from newsspider.extraction.page import class_words, segments; "
        "from newsspider.extraction.parse import decoding, parsing; "
        "print(core_loader.COMPILED_CORE, scoring.__file__.endswith('.py'), "
        "gil.__file__.endswith('.py'), segments.WALK.active is None, parsing.GUARD.active is None, "
        "class_words.WORK_OUT.active, decoding.UTF8_LENGTH.active, confidence.GRAM_SHARE.active, "
        "len(core_loader.compiled_twins()) >= 8, "
        "any(twin.active for twin in core_loader.compiled_twins())); "
        "print(core_loader.PURE_REASON)"
    )
    env = {**os.environ, "NEWSSPIDER_PURE_PYTHON": "1"}
    result = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    switches, reason = result.stdout.strip().splitlines()
    assert switches == "False True True True True None None None True False"
    if core_loader.COMPILED_CORE:
        assert reason == "NEWSSPIDER_PURE_PYTHON is set"


def test_a_source_edited_since_the_build_is_found() -> None:
    from newsspider.extraction import api

    source = Path(api.__file__).with_name("api.py")
    if not source.exists():
        pytest.skip("installed without sources")
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    assert core_loader._stale({"api": digest}) == []
    assert core_loader._stale({"api": "0" * 64}) == ["api.py"]
    # A module in a stage package: named with dots, found at its path.
    walk = Path(api.__file__).parent / "page" / "segments.py"
    walk_digest = hashlib.sha256(walk.read_bytes()).hexdigest()
    assert core_loader._stale({"page.segments": walk_digest}) == []
    assert core_loader._stale({"page.segments": "0" * 64}) == ["page/segments.py"]


def test_the_articles_module_stays_python() -> None:
    # Workers pickle Articles and the content filter's records: a frozen dataclass compiled
    # by mypyc cannot be rebuilt by pickle.
    from newsspider.extraction import article, page_judgement
    from newsspider.extraction.classify import content_score

    for module in (article, content_score, page_judgement):
        assert module.__file__ is not None and module.__file__.endswith(".py")
    assert dataclasses.is_dataclass(article.Article)

"""Deployment to a real Scrapyd on loopback: the bundled project as it is, and a user project
that depends on newsspider. Each deploys with ``scrapyd-deploy`` and runs a job to the end.

About a minute on an idle machine (eggs built, Scrapyd starting crawler processes): marked
``slow`` and skipped unless ``NEWSSPIDER_SLOW_TESTS=1`` (``.ci/run`` sets it for this file).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.news_site import serve_news_site
from support.server import serve
from support.services import free_port, missing_service, running_service

ROOT = Path(__file__).resolve().parent.parent
USER_PROJECT = Path(__file__).resolve().parent / "support" / "userproject"
BIN = Path(sys.executable).parent

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        os.environ.get("NEWSSPIDER_SLOW_TESTS") != "1",
        reason="about a minute: set NEWSSPIDER_SLOW_TESTS=1",
    ),
]


def _get(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=90) as response:
        data: dict[str, Any] = json.load(response)
        return data


def _post(url: str, fields: list[tuple[str, str]]) -> dict[str, Any]:
    body = urllib.parse.urlencode(fields).encode()
    with urllib.request.urlopen(url, data=body, timeout=90) as response:
        data: dict[str, Any] = json.load(response)
        return data


@pytest.fixture(scope="module")
def scrapyd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if shutil.which("scrapyd", path=str(BIN)) is None:
        missing_service("scrapyd is not installed (pip install 'newsspider[scrapyd]')")
    home = tmp_path_factory.mktemp("scrapyd")
    port = free_port()
    (home / "scrapyd.conf").write_text(
        "[scrapyd]\n"
        f"bind_address = 127.0.0.1\nhttp_port = {port}\n"
        f"eggs_dir = {home / 'eggs'}\nlogs_dir = {home / 'logs'}\n"
        f"items_dir = {home / 'items'}\ndbs_dir = {home / 'dbs'}\n"
        "max_proc = 2\npoll_interval = 0.5\n",
        encoding="utf-8",
    )
    url = f"http://127.0.0.1:{port}"

    def status_ok() -> bool:
        return _get(url + "/daemonstatus.json").get("status") == "ok"

    command = [str(BIN / "scrapyd")]
    with running_service("scrapyd", command, status_ok, timeout=60, poll=0.2, cwd=home):
        yield url


def _deploy(project_dir: Path, scrapyd: str, project: str) -> None:
    """``scrapyd-deploy`` from a copy of the project with a target on our Scrapyd."""
    cfg = project_dir / "scrapy.cfg"
    text = cfg.read_text(encoding="utf-8")
    if "[deploy]" not in text:
        text += f"\n[deploy]\nproject = {project}\n"
    cfg.write_text(text.replace("[deploy]", f"[deploy]\nurl = {scrapyd}/", 1), encoding="utf-8")
    proc = subprocess.run(
        [str(BIN / "scrapyd-deploy"), "-p", project, "--debug"],
        cwd=project_dir,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
        env={**os.environ, "PYTHONPATH": ""},
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert '"status": "ok"' in proc.stdout + proc.stderr, proc.stdout[-2000:]


def _run_job(scrapyd: str, project: str, spider: str, args: list[tuple[str, str]]) -> str:
    job = _post(scrapyd + "/schedule.json", [("project", project), ("spider", spider), *args])
    assert job["status"] == "ok", job
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        jobs = _get(f"{scrapyd}/listjobs.json?project={project}")
        if any(j["id"] == job["jobid"] for j in jobs["finished"]):
            return str(job["jobid"])
        time.sleep(0.5)
    raise AssertionError(f"job {job['jobid']} did not finish: {jobs}")


def _log(scrapyd: str, project: str, spider: str, job: str) -> str:
    with urllib.request.urlopen(f"{scrapyd}/logs/{project}/{spider}/{job}.log") as response:
        text: str = response.read().decode("utf-8", "replace")
        return text


def test_bundled_project_deploys_and_crawls(scrapyd: str, tmp_path: Path) -> None:
    project = tmp_path / "newsspider"
    project.mkdir()
    for name in ("pyproject.toml", "README.md", "scrapy.cfg"):
        shutil.copy(ROOT / name, project / name)
    shutil.copytree(ROOT / "newsspider", project / "newsspider",
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    _deploy(project, scrapyd, "newsspider")
    spiders = _get(f"{scrapyd}/listspiders.json?project=newsspider")
    assert {"feed", "sitemap", "site"} <= set(spiders["spiders"])
    with serve_news_site(count=12) as site:
        settings = ["AUTOTHROTTLE_ENABLED=False", "ROBOTSTXT_OBEY=False"]
        job = _run_job(scrapyd, "newsspider", "site",
                       [("url", site.url + "/"), *(("setting", s) for s in settings)])  # fmt: skip
    log = _log(scrapyd, "newsspider", "site", job)
    assert "'finish_reason': 'finished'" in log
    assert "'item_scraped_count': 12" in log, log[-3000:]


def test_user_project_depending_on_newsspider_deploys(scrapyd: str, tmp_path: Path) -> None:
    project = tmp_path / "gazette"
    shutil.copytree(USER_PROJECT, project, ignore=shutil.ignore_patterns("__pycache__"))
    _deploy(project, scrapyd, "gazette")
    with serve() as site:
        job = _run_job(scrapyd, "gazette", "news", [("site", site.url)])
    log = _log(scrapyd, "gazette", "news", job)
    assert "'finish_reason': 'finished'" in log
    assert "'newsspider/pipeline/article_count'" in log, log[-3000:]

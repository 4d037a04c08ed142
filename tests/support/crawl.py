"""Run a real Scrapy crawl in a subprocess (keeps the reactor out of pytest) and read its
feed, stats and log back."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SUPPORT_DIR = Path(__file__).resolve().parent
USER_PROJECT = SUPPORT_DIR / "userproject"


@dataclass
class CrawlResult:
    items: list[dict[str, Any]]
    stats: dict[str, Any]
    log: str

    def stat(self, key: str) -> int:
        return int(self.stats.get(key, 0))

    def prefixed(self, prefix: str) -> dict[str, int]:
        return {k[len(prefix) :]: int(v) for k, v in self.stats.items() if k.startswith(prefix)}


def run_crawl(
    spider: str,
    out_dir: Path,
    *,
    args: dict[str, str] | None = None,
    settings: dict[str, str] | None = None,
    project_dir: Path = USER_PROJECT,
    timeout: float = 60,
) -> CrawlResult:
    """``scrapy crawl <spider> -O feed.jsonl`` in `project_dir`, as a user would run it."""
    feed = out_dir / "items.jsonl"
    stats_file = out_dir / "stats.json"
    log_file = out_dir / "crawl.log"
    command = [sys.executable, "-m", "scrapy", "crawl", spider, "-O", str(feed)]
    for name, value in (args or {}).items():
        command += ["-a", f"{name}={value}"]
    test_settings = {
        "STATS_CLASS": "support.stats.FileStatsCollector",
        "TEST_STATS_FILE": str(stats_file),
        "LOG_FILE": str(log_file),
        "LOG_LEVEL": "DEBUG",
        "TELNETCONSOLE_ENABLED": "False",
        **(settings or {}),
    }
    for name, value in test_settings.items():
        command += ["-s", f"{name}={value}"]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(SUPPORT_DIR.parent), str(project_dir), env.get("PYTHONPATH", "")]
    )
    env.pop("SCRAPY_SETTINGS_MODULE", None)
    completed = subprocess.run(
        command,
        cwd=project_dir,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    log = log_file.read_text(encoding="utf-8") if log_file.exists() else ""
    if completed.returncode != 0 or not stats_file.exists():
        raise AssertionError(
            f"crawl failed ({completed.returncode}):\n{completed.stderr[-4000:]}\n{log[-4000:]}"
        )
    items = [json.loads(line) for line in feed.read_text(encoding="utf-8").splitlines() if line]
    return CrawlResult(items, json.loads(stats_file.read_text()), log)

"""One `scrapy crawl site` worker of a shared crawl, as a child process (the shared-crawl tests)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
TESTS = ROOT / "tests"


def start_site_worker(out: Path, redis_url: str, **settings: Any) -> subprocess.Popen[str]:
    """Start the worker in the folder ``out``: its items (``-o`` appends, so a restarted worker
    adds to its own file), stats and log go there; ``settings`` add to or override the test's."""
    values = {
        "NEWSSPIDER_REDIS_URL": redis_url,
        "NEWSSPIDER_REDIS_IDLE_CLOSE": 3,
        "AUTOTHROTTLE_ENABLED": False,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
        "STATS_CLASS": "support.stats.FileStatsCollector",
        "TEST_STATS_FILE": out / "stats.json",
        "LOG_FILE": out / "crawl.log",
        "LOG_LEVEL": "INFO",
        "TELNETCONSOLE_ENABLED": False,
        **settings,
    }
    command = [sys.executable, "-m", "scrapy", "crawl", "site", "-o", str(out / "items.jsonl")]
    for key, value in values.items():
        command += ["-s", f"{key}={value}"]
    env = {**os.environ, "SCRAPY_SETTINGS_MODULE": "newsspider.settings"}
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS), str(ROOT), env.get("PYTHONPATH", "")])
    return subprocess.Popen(command, cwd=out, env=env, stderr=subprocess.PIPE, text=True)

"""``scrapy check``: the bundled spiders' callback contracts, against the demo site on loopback
(`newsspider.contracts.DemoPageContract` serves it). Run the way a user runs it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from packaging.version import Version
from scrapy import __version__ as scrapy_version

ROOT = Path(__file__).resolve().parent.parent
#: Every contracted callback: feed 2, sitemap 3, site 2 (parse_listing, parse_article).
CALLBACKS = {
    "feed": {"parse_article", "parse_feed"},
    "sitemap": {"parse_article", "parse_robots", "parse_sitemap"},
    "site": {"parse_article", "parse_listing"},
}


def scrapy(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "SCRAPY_CHECK"}
    return subprocess.run(
        [sys.executable, "-m", "scrapy", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_every_bundled_spider_has_contracts() -> None:
    listed = scrapy("check", "-l")
    assert listed.returncode == 0, listed.stderr[-2000:]
    found: dict[str, set[str]] = {}
    spider = ""
    for line in listed.stdout.splitlines():
        if line and not line.startswith(" "):
            spider = line.strip()
        elif line.strip().startswith("*"):
            found.setdefault(spider, set()).add(line.strip("* \n"))
    assert found == CALLBACKS


#: Scrapy runs the contracts of async callbacks (feed's and sitemap's parsers) from 2.19 on;
#: on the declared floor (2.18) only the site spider's, whose callbacks are plain generators.
ASYNC_CONTRACTS = Version(scrapy_version) >= Version("2.19")


def test_scrapy_check_passes() -> None:
    spiders = sorted(CALLBACKS) if ASYNC_CONTRACTS else ["site"]
    done = scrapy("check", *spiders)
    assert done.returncode == 0, done.stderr[-3000:]
    ran = re.search(r"Ran (\d+) contracts", done.stderr)
    callbacks = sum(len(CALLBACKS[name]) for name in spiders)
    assert ran is not None and int(ran.group(1)) >= callbacks * 2
    assert "OK" in done.stderr.splitlines()[-1]

"""A stats collector that also writes the final stats to ``TEST_STATS_FILE`` as JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from scrapy.statscollectors import MemoryStatsCollector


class FileStatsCollector(MemoryStatsCollector):
    def _persist_stats(self, stats: dict[str, Any]) -> None:
        super()._persist_stats(stats)
        path = self._crawler.settings.get("TEST_STATS_FILE")
        if path:
            Path(path).write_text(json.dumps(stats, default=str, indent=1, sort_keys=True))

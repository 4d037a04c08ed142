"""`DemoPageContract`: ``scrapy check`` contracts of the bundled spiders, against the demo site.

A contract needs a URL that answers. The bundled spiders' callbacks name a path of the bundled
demo site (``@demo_page /en/city/``); the first such contract of a ``scrapy check`` run serves the
demo site on a loopback port (`newsspider.demo.server.serve_site`, a daemon thread that ends
with the process) and every contract request goes there. The add-on registers the contract
(``SPIDER_CONTRACTS``), so ``scrapy check`` works in the bundled project and in any project that
enables the add-on.
"""

from __future__ import annotations

import threading
from contextlib import ExitStack
from typing import Any, Final

from scrapy.contracts import Contract

__all__ = ["DemoPageContract", "demo_site_url"]

_lock: Final = threading.Lock()
_served: dict[str, str] = {}
_stack = ExitStack()


def demo_site_url() -> str:
    """The base URL of the demo site, served from the first call on."""
    with _lock:
        if "base" not in _served:
            from newsspider.demo.server import serve_site

            _served["base"] = _stack.enter_context(serve_site()).base_url
        return _served["base"]


class DemoPageContract(Contract):
    """``@demo_page <path>``: the contract's request is for this path of the demo site."""

    name = "demo_page"

    def adjust_request_args(self, args: dict[str, Any]) -> dict[str, Any]:
        path = self.args[0] if self.args else "/"
        args["url"] = demo_site_url() + ("" if path.startswith("/") else "/") + path
        return args

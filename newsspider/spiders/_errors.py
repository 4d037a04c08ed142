"""Why a request of a bundled spider failed, as one word from a closed set (a stats key part).

Scrapy counts failures in several places (``retry/max_reached``, ``httperror/...``,
``downloader/exception_type_count/...``) and some not at all: a redirect chain cut at
``REDIRECT_MAX_TIMES`` or a compressed body that expands past ``DOWNLOAD_MAXSIZE`` end in a bare
``IgnoreRequest`` that only a log line mentions. The spiders' errback counts every failed request
once, under one of `REQUEST_ERROR_REASONS`, so that every URL ends as an item, a counted drop or
a counted error. Exceptions are matched by class name, so this works across Scrapy and Twisted
versions (Scrapy 2.13 raises Twisted's exceptions where later versions raise their own).
"""

from __future__ import annotations

from typing import Any, Final

#: Every reason `failure_reason` can return.
REQUEST_ERROR_REASONS: Final = (
    "http_error",  # a non-2xx response (after retries, for 5xx): Scrapy's HttpError
    "timeout",  # DOWNLOAD_TIMEOUT passed (after retries)
    "connection",  # refused, reset or closed before a response (after retries)
    "data_loss",  # the body ended before its Content-Length (after retries)
    "dns",  # the host name does not resolve
    "too_large",  # above DOWNLOAD_MAXSIZE, as declared or once decompressed
    "redirect_limit",  # more than REDIRECT_MAX_TIMES redirects
    "robots_txt",  # forbidden by robots.txt
    "offsite",  # redirected off the crawled sites
    "ignored",  # any other IgnoreRequest
    "other",
)

# Checked along the exception's MRO, most specific class first.
_BY_CLASS_NAME: Final = {
    "HttpError": "http_error",
    "DownloadTimeoutError": "timeout",
    "TimeoutError": "timeout",  # twisted.internet.error / twisted.internet.defer
    "TCPTimedOutError": "timeout",
    "ResponseDataLossError": "data_loss",
    "DownloadCancelledError": "too_large",  # Content-Length above DOWNLOAD_MAXSIZE
    "CannotResolveHostError": "dns",
    "DNSLookupError": "dns",
    "DownloadConnectionRefusedError": "connection",
    "DownloadFailedError": "connection",
    "ConnectionRefusedError": "connection",
    "ConnectionLost": "connection",
    "ConnectionDone": "connection",
    "ConnectError": "connection",
    "ResponseNeverReceived": "connection",
    "ResponseFailed": "connection",
    "OSError": "connection",
}
_IGNORED_BY_MESSAGE: Final = (
    ("max redirections", "redirect_limit"),
    ("DOWNLOAD_MAXSIZE", "too_large"),
    ("Forbidden by robots.txt", "robots_txt"),
    ("Filtered offsite request", "offsite"),
)


def failure_reason(exc: BaseException) -> str:
    """The `REQUEST_ERROR_REASONS` entry for a download or HTTP failure."""
    names = [cls.__name__ for cls in type(exc).__mro__]
    if "IgnoreRequest" in names and "HttpError" not in names:
        message = str(exc)
        for needle, reason in _IGNORED_BY_MESSAGE:
            if needle in message:
                return reason
        return "ignored"
    # Twisted wraps the causes of a failed response: ResponseFailed([Failure(_DataLoss)]).
    inner: list[Any] = list(getattr(exc, "reasons", None) or [])
    if any(type(getattr(r, "value", r)).__name__ == "_DataLoss" for r in inner):
        return "data_loss"
    for name in names:
        if name in _BY_CLASS_NAME:
            return _BY_CLASS_NAME[name]
    return "other"

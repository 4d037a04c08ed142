"""The body: container scoring, comment threads, assembly, edge trimming, the page-content
fallback and the HTML output."""

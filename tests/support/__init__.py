"""Test helpers: a loopback HTTP server for the fixture site and a subprocess crawl runner."""

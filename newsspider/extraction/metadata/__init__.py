"""Title, authors, dates, description and the rest, from meta tags, JSON-LD and the page."""

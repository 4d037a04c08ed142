"""Worker plumbing for the Scrapy layer: where extraction runs (threads or processes), the
bridge between the event loop and the workers, and the hand-off of extracted pages from the
content filter to the pipeline."""

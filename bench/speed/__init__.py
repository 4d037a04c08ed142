"""Speed and memory: compiled against pure Python, crawls, WARC batches, shared crawls."""

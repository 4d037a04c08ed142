"""The page model and the walk that fills it: cleaning, noscript, streamed parts, what class
words mean, what is hidden, and the segments (text runs) each block owns."""

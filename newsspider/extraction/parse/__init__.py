"""Bytes to a tree: decoding, the binary-content gate, the markup guard and the lxml parse."""

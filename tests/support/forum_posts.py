"""Forum threads written in each package's post template, for the thread tests.

A template is data: the markup of one post, with ``{t}`` for its text, ``{i}`` for its index,
``{n}`` for its number (``i + 1``) and ``{alt}`` for the alternating row (1, 2, 1, ...), and
optionally the list around the posts with ``{items}``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PostTemplate:
    post: str
    around: str = "{items}"

    def render(self, posts: list[str]) -> str:
        items = "".join(
            self.post.format(t=text, i=i, n=i + 1, alt=i % 2 + 1) for i, text in enumerate(posts)
        )
        return self.around.format(items=items)

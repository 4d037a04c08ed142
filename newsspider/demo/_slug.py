"""URL slugs from headlines (Russian transliterated; CJK has none)."""

from __future__ import annotations

import re

_LATIN = "a b v g d e e zh z i y k l m n o p r s t u f kh ts ch sh shch - y - e yu ya"
_TRANSLIT = dict(zip("абвгдеёжзийклмнопрстуфхцчшщъыьэюя", _LATIN.split(" "), strict=True))


def slugify(text: str, words: int = 7) -> str:
    lowered = "".join(_TRANSLIT.get(ch, ch) for ch in text.lower()).replace("-", "")
    parts = re.findall(r"[a-z0-9]+", lowered)
    return "-".join(parts[:words])

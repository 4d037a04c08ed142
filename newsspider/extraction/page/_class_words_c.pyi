"""Type stub of the compiled class meaning (`_class_words_c.pyx`)."""

from collections.abc import Callable

def configure(
    positive: frozenset[str],
    overlay: frozenset[str],
    strong: frozenset[str],
    weak: frozenset[str],
    caption: frozenset[str],
    furniture: frozenset[str],
    hidden_class: Callable[[str], bool],
    hidden_keys: tuple[str, ...],
    overlay_signal: int,
    strong_signal: int,
    weak_signal: int,
    cache: dict[tuple[str | None, str | None], tuple[int, bool, bool, frozenset[str]]],
    max_key_chars: int,
    cache_limit: int,
) -> None: ...
def work_out(
    classes: str | None, ident: str | None
) -> tuple[int, bool, bool, frozenset[str]] | None: ...
def remembered(
    key: tuple[str | None, str | None],
) -> tuple[int, bool, bool, frozenset[str]] | None: ...

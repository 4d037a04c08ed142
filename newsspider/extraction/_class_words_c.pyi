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
) -> None: ...
def work_out(
    classes: str | None, ident: str | None
) -> tuple[int, bool, bool, frozenset[str]] | None: ...

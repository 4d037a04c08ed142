"""Which implementation of the extraction core runs: the modules mypyc compiled at install time
(`setup.py`), or their Python sources.

The compiled modules sit beside their sources and Python's import system prefers them. The
sources are the reference, and are loaded instead (a finder placed first on `sys.meta_path`
for `newsspider.extraction.<module>`) when:

- NEWSSPIDER_PURE_PYTHON=1 (read once, at import; the Cython walk follows it too);
- a source changed since the build (an editable install being worked on): the compiled module
  would run old code, so the sources run, with a warning, until `pip install -e .` rebuilds.

`newsspider.extraction` imports this module before any of its own: importing it decides, once
per process. `COMPILED_CORE` tells which runs, `PURE_REASON` why not compiled. No Scrapy here.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Any, Generic, TypeVar

PACKAGE = "newsspider.extraction"
_CORE_DIR = Path(__file__).resolve().parent / "extraction"
#: mypyc's shared library for the whole group (setup.py's group_name), beside the package.
_GROUP_LIBRARY = "newsspider_core__mypyc"
#: NEWSSPIDER_PURE_PYTHON=1, read once, at import: the sources instead of the mypyc modules, and
#: every Cython part (walk, guard scans, class meaning, UTF-8 check) off. The one reading of it.
PURE_PYTHON_REQUESTED = os.environ.get("NEWSSPIDER_PURE_PYTHON", "") not in ("", "0")


class _SourceFinder(MetaPathFinder):
    """Loads `newsspider.extraction.<name>` (dots for sub-packages) from its `.py` source for
    the compiled names."""

    def __init__(self, names: frozenset[str]) -> None:
        self.names = names

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        name = fullname.removeprefix(f"{PACKAGE}.")
        if name == fullname or name not in self.names:
            return None
        return importlib.util.spec_from_file_location(fullname, _source(name))


def _source(name: str) -> Path:
    """The source of the core's module ``name`` (relative, dots for sub-packages)."""
    return _CORE_DIR.joinpath(*name.split(".")).with_suffix(".py")


def _built_sources() -> dict[str, str]:
    try:  # written by setup.py when it compiled the core
        module = importlib.import_module("newsspider._compiled_sources")
    except ImportError:
        return {}
    sources: dict[str, str] = module.SOURCES
    return sources


def _extension_present(directory: Path, name: str) -> bool:
    return any((directory / f"{name}{s}").exists() for s in importlib.machinery.EXTENSION_SUFFIXES)


def _stale(sources: dict[str, str]) -> list[str]:
    changed = []
    for name, digest in sources.items():
        source = _source(name)
        try:
            current = hashlib.sha256(source.read_bytes()).hexdigest()
        except OSError:  # an install without sources: nothing to be stale against
            continue
        if current != digest:
            changed.append(source.relative_to(_CORE_DIR).as_posix())
    return changed


def _decide() -> tuple[bool, str, frozenset[str]]:
    """(compiled modules in use, why not, the names to load from source instead)."""
    sources = _built_sources()
    built = bool(sources) and _extension_present(_CORE_DIR.parent.parent, _GROUP_LIBRARY)
    built = built and all(
        _extension_present(_source(name).parent, name.rpartition(".")[2]) for name in sources
    )
    if not built:
        return False, "the compiled modules were not built (no C compiler or mypy)", frozenset()
    if PURE_PYTHON_REQUESTED:
        return False, "NEWSSPIDER_PURE_PYTHON is set", frozenset(sources)
    if changed := _stale(sources):
        reason = f"sources changed since the build ({', '.join(changed[:3])})"
        warnings.warn(
            f"newsspider: {reason}; running the Python sources until a rebuild (pip install -e .)",
            RuntimeWarning,
            stacklevel=2,
        )
        return False, reason, frozenset(sources)
    return True, "", frozenset()


#: Decided once per process, when `newsspider.extraction` first imports this module.
COMPILED_CORE, PURE_REASON, _FROM_SOURCE = _decide()
if _FROM_SOURCE:
    sys.meta_path.insert(0, _SourceFinder(_FROM_SOURCE))


T = TypeVar("T")
#: Every twin made so far, and whether twins run: `use_compiled` switches both.
_TWINS: list[CompiledTwin[Any]] = []
_twins_on = not PURE_PYTHON_REQUESTED


class CompiledTwin(Generic[T]):
    """One compiled part built at install time (`setup.py`): a function of a Cython module (or
    a set of them, like the markup guard's scans), beside the Python code it twins, and the
    switch between them. The module imports the Cython module itself (some configure it
    first) and passes the part, or None when it is not built.

    ``active`` is the part when built and switched on, else None: the caller then runs its
    Python code. NEWSSPIDER_PURE_PYTHON=1 starts every twin off; `use` switches one (tests),
    `use_compiled` all of them."""

    def __init__(self, built: T | None) -> None:
        self.built = built
        self.active: T | None = built if _twins_on else None
        _TWINS.append(self)

    @property
    def available(self) -> bool:
        """Whether the twin can run here (it was built)."""
        return self.built is not None

    def use(self, enabled: bool) -> bool:
        """Run the twin (when built) or the Python code; whether the twin runs now."""
        self.active = self.built if enabled else None
        return self.active is not None


def compiled_twins() -> tuple[CompiledTwin[Any], ...]:
    """Every twin made so far (one per compiled part the extraction modules use: the walk, the
    guard's scans, the class meaning, the UTF-8 check, the gram counts, ...)."""
    return tuple(_TWINS)


def use_compiled(enabled: bool) -> None:
    """The one switch for the Cython parts: run every twin (when built) or every Python
    version, twins made later included (tests and the benchmarks compare the paths). The mypyc
    modules are chosen once, at import (NEWSSPIDER_PURE_PYTHON)."""
    global _twins_on  # noqa: PLW0603 - the switch is module state by design
    _twins_on = enabled
    for twin in _TWINS:
        twin.use(enabled)

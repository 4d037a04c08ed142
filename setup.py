"""The compiled extraction core, optional: two kinds of extension module.

- Cython (`newsspider/extraction/<stage>/_*_c.pyx`): the segment walk and subtree sums, the
  markup guard's scans, the class meaning, UTF-8 validation, the confidence's shared character
  grams, the metadata's page scan and walks, the language identifier's counts, the page-type
  features' reads, cleaning's form boxes, the forum post words and the article HTML, written
  for C (those that read the tree, against lxml's public C API), each beside the Python code
  it twins (`common/compiled_parts.py` lists them).
- mypyc: the extraction modules themselves (`newsspider/extraction/**.py`), compiled from their
  unchanged, type-checked sources. The Python sources stay the reference;
  `newsspider/core_loader.py` loads them instead when NEWSSPIDER_PURE_PYTHON=1 or when a source
  changed since the build (an editable install).

Which modules are which is listed once, in `newsspider/extraction/common/compiled_parts.py`.
Everything else about the package is in pyproject.toml. Cython, lxml, mypy and lxml-stubs are
in [build-system] requires; when a part cannot be built (no C compiler, no Python headers, a
type error under a newer mypy) the install goes on without it, with a warning, and the Python
code runs (same output, slower).
"""

from __future__ import annotations

import hashlib
import os
import runpy
import sys
from pathlib import Path
from typing import Any, ClassVar

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

_WARNING = (
    "WARNING: newsspider's compiled {part} was not built ({error}); "
    "its Python code is used (same output, slower)."
)


def _warn(error: BaseException, part: str = "segment walk") -> None:
    print(_WARNING.format(part=part, error=f"{type(error).__name__}: {error}"), file=sys.stderr)


class OptionalBuildExt(build_ext):
    """build_ext whose failures are warnings: the package works without the extension.

    The mypyc modules are added here rather than in `setup()`: mypyc type-checks and writes C
    for the whole core (seconds), which only a build needs, not every metadata hook. Once they
    are all built, `newsspider/_compiled_sources.py` records them beside the build's output."""

    mypyc_done = False  # the command can be finalised more than once in a build
    mypyc_names: ClassVar[set[str]] = set()
    failed: ClassVar[set[str]] = set()

    def finalize_options(self) -> None:
        # Always compile: objects left in an earlier build/ folder are never reused (a build
        # without a compiler took them and reported itself compiled).
        self.force = True
        # Metadata hooks (egg_info, dist_info, sdist) finalise this command too, to list the
        # extensions' sources: compile only when something is being built.
        building = bool(_BUILD_COMMANDS & set(self.distribution.commands))
        if building and not OptionalBuildExt.mypyc_done:
            OptionalBuildExt.mypyc_done = True
            compiled = _mypyc_extensions()
            OptionalBuildExt.mypyc_names = {ext.name for ext in compiled}
            self.distribution.ext_modules = [*(self.distribution.ext_modules or []), *compiled]
        super().finalize_options()

    first_error: ClassVar[list[BaseException]] = []

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # any build failure means "pure Python"
            self.first_error.append(error)
            OptionalBuildExt.failed.add("*")
        if self.failed:
            # One notice for the whole build (without a compiler every module fails alike).
            error = self.first_error[0]
            why = f"{type(error).__name__}: {error}"
            print(
                f"NOTICE: newsspider's compiled extraction core was not built "
                f"({why[:200]}); its Python code is used (same output, slower). "
                "A C compiler and the Python headers build it.",
                file=sys.stderr,
            )
        if self.mypyc_names and not self.failed & (self.mypyc_names | {"*"}):
            root = Path(".") if self.inplace else Path(self.build_lib)
            _write_built_sources(root / _BUILT_SOURCES)

    def build_extension(self, ext: Any) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:
            self.first_error.append(error)
            OptionalBuildExt.failed.add(ext.name)


#: The one list of compiled parts (Cython sources, mypyc exclusions), read as data.
_PARTS: dict[str, Any] = runpy.run_path("newsspider/extraction/common/compiled_parts.py")
_CORE = Path("newsspider/extraction")
_BUILD_COMMANDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "install", "develop"}
#: Written at build time: which modules were compiled, from which source (sha256), so
#: `core_loader` can tell a stale build (a source edited since) and load the Python instead.
_BUILT_SOURCES = Path("newsspider/_compiled_sources.py")


def _extensions() -> list[Extension]:
    try:
        import lxml
        from Cython.Build import cythonize
    except ImportError as error:
        _warn(error)
        return []
    extensions = [
        Extension(
            f"newsspider.extraction.{name}",
            [str(_CORE / f"{name.replace('.', '/')}.pyx")],
            include_dirs=lxml.get_include() if with_lxml else [],
        )
        for name, with_lxml in _PARTS["CYTHON"].items()
    ]
    try:
        return list(cythonize(extensions, compiler_directives={"language_level": "3"}))
    except Exception as error:
        _warn(error)
        return []


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(_CORE).with_suffix("").parts)


def _core_modules() -> list[Path]:
    skipped = set(_PARTS["MYPYC_SKIPPED_MODULES"])
    packages = tuple(f"{package}." for package in _PARTS["MYPYC_SKIPPED_PACKAGES"])
    return sorted(
        path
        for path in _CORE.rglob("*.py")
        if path.name != "__init__.py"
        and _module_name(path) not in skipped
        and not _module_name(path).startswith(packages)
    )


def _write_built_sources(path: Path) -> None:
    lines = [
        f"    {_module_name(p)!r}: {hashlib.sha256(p.read_bytes()).hexdigest()!r},\n"
        for p in _core_modules()
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        '"""Written by setup.py: the modules mypyc compiled, and the sha256 of their sources."""\n'
        "\nSOURCES = {\n" + "".join(lines) + "}\n"
    )


def _mypyc_extensions() -> list[Extension]:
    if os.environ.get("NEWSSPIDER_NO_MYPYC", "") not in ("", "0"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as error:
        _warn(error, "core (mypyc)")
        return []
    modules = _core_modules()
    try:
        built = list(
            mypycify(
                # The build environment has the core's dependencies only: the Scrapy layer,
                # which mypy reads through `newsspider/__init__`, is checked by `make lint`,
                # not here. A cache of its own, not a checkout's .mypy_cache.
                ["--follow-imports=silent", "--cache-dir=build/mypyc-cache"]
                + [str(p) for p in modules],
                opt_level="3",
                group_name="newsspider_core",
            )
        )
    except (Exception, SystemExit) as error:  # mypy's type errors end in SystemExit
        _warn(error, "core (mypyc)")
        return []
    return built


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})

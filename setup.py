"""The compiled segment walk and markup guard (newsspider/extraction/_segments_c.pyx,
_markup_c.pyx), optional.

Everything else about the package is in pyproject.toml. The extension is built with Cython
against lxml's public C API (both in [build-system] requires); when it cannot be built (no C
compiler, no Python headers) the install goes on with the pure-Python walk and a warning.
"""

from __future__ import annotations

import sys
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

_WARNING = (
    "WARNING: newsspider's compiled segment walk was not built ({error}); "
    "the pure-Python walk is used (same output, slower)."
)


def _warn(error: BaseException) -> None:
    print(_WARNING.format(error=f"{type(error).__name__}: {error}"), file=sys.stderr)


class OptionalBuildExt(build_ext):
    """build_ext whose failures are warnings: the package works without the extension."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # any build failure means "pure Python"
            _warn(error)

    def build_extension(self, ext: Any) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:
            _warn(error)


def _extensions() -> list[Extension]:
    try:
        import lxml
        from Cython.Build import cythonize
    except ImportError as error:
        _warn(error)
        return []
    extensions = [
        Extension(
            "newsspider.extraction._segments_c",
            ["newsspider/extraction/_segments_c.pyx"],
            include_dirs=lxml.get_include(),
        ),
        Extension("newsspider.extraction._markup_c", ["newsspider/extraction/_markup_c.pyx"]),
        Extension(
            "newsspider.extraction._class_words_c", ["newsspider/extraction/_class_words_c.pyx"]
        ),
    ]
    try:
        return list(cythonize(extensions, compiler_directives={"language_level": "3"}))
    except Exception as error:
        _warn(error)
        return []


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})

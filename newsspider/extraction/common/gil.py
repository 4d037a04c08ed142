"""A point where the interpreter may hand the GIL to another thread.

Left out of the mypyc build (setup.py): its worth is that calling it runs Python bytecode,
where the interpreter checks for a thread waiting on the GIL (the crawl's event loop). The
compiled walk calls it every few thousand elements."""


def yield_point() -> None:
    """Runs no code of its own: entering the bytecode loop is the point."""

"""The package's shape: the extraction core's stages import one way, nothing imports in a circle,
and the core imports nothing from Scrapy (or Twisted). Read from the sources with `ast`."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "newsspider"
CORE = "newsspider.extraction"
#: The core's stage packages, lowest first: a module may import from its own package and from
#: lower ranks only (so `page` and `metadata` never import each other, nor `body` and
#: `classify`). The modules at the core's top (`api`, `article`, `stages`, `page_judgement`,
#: `explain`) come last.
RANKS = {
    "common": 0,
    "parse": 1,
    "page": 2,
    "metadata": 2,
    "body": 3,
    "classify": 3,
    "strategies": 4,
}
TOP = 5


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


MODULES = _modules()


def _imports(path: Path, *, top_level_only: bool) -> set[str]:
    """The modules (or packages) `path` imports: ``from a.b import c`` is ``a.b.c`` when that is
    a module, else ``a.b``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = _module_name(path)  # the package relative imports start from
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    nodes = _top_level(tree.body) if top_level_only else list(ast.walk(tree))
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                found.add(candidate if candidate in MODULES else base)
    return found


def _top_level(body: list[ast.stmt]) -> list[ast.AST]:
    """The statements run at import: the module's own, and those inside its top-level `if`,
    `try` and `with` blocks (not a function's, nor an `if TYPE_CHECKING:` block's)."""
    nodes: list[ast.AST] = []
    for statement in body:
        if isinstance(statement, ast.If):
            test = ast.unparse(statement.test)
            if "TYPE_CHECKING" not in test:
                nodes.extend(_top_level(statement.body))
            nodes.extend(_top_level(statement.orelse))
        elif isinstance(statement, ast.Try):
            for block in (statement.body, statement.orelse, statement.finalbody):
                nodes.extend(_top_level(block))
            for handler in statement.handlers:
                nodes.extend(_top_level(handler.body))
        elif isinstance(statement, ast.With):
            nodes.extend(_top_level(statement.body))
        else:
            nodes.append(statement)
    return nodes


def _rank(module: str) -> tuple[int, str]:
    """(rank, stage package) of a core module."""
    rest = module.removeprefix(f"{CORE}.").split(".")
    stage = rest[0]
    return RANKS.get(stage, TOP), stage if stage in RANKS else ""


def _core_modules() -> list[str]:
    return [name for name in MODULES if name.startswith(f"{CORE}.")]


def test_the_layout_test_reads_the_core() -> None:
    stages = {_rank(name)[1] for name in _core_modules()}
    assert set(RANKS) <= stages
    assert len(_core_modules()) > 40


@pytest.mark.parametrize("module", _core_modules())
def test_the_core_stages_import_one_way(module: str) -> None:
    rank, stage = _rank(module)
    wrong = []
    for imported in _imports(MODULES[module], top_level_only=False):
        if not imported.startswith(f"{CORE}.") or imported not in MODULES:
            continue
        other_rank, other_stage = _rank(imported)
        if other_stage == stage and (stage or other_rank == TOP):
            continue  # within one stage package, or between the core's top modules
        if other_rank >= rank:
            wrong.append(imported)
    assert wrong == [], f"{module} imports from its own or a higher stage"


@pytest.mark.parametrize("module", _core_modules())
def test_the_core_imports_nothing_from_scrapy(module: str) -> None:
    for imported in _imports(MODULES[module], top_level_only=False):
        root = imported.partition(".")[0]
        assert root not in {"scrapy", "twisted", "parsel", "itemadapter"}, imported
        if root == "newsspider":
            # Only the core itself and the switch between its compiled and Python code.
            assert imported.startswith(CORE) or imported == "newsspider.core_loader", imported


def test_nothing_imports_in_a_circle() -> None:
    graph = {
        name: {
            imported
            for imported in _imports(path, top_level_only=True)
            if imported in MODULES and imported != name
        }
        for name, path in MODULES.items()
    }
    # Depth-first search; the path of the first circle found is the failure message.
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(name: str, path: list[str]) -> list[str] | None:
        state[name] = 1
        for imported in sorted(graph[name]):
            if state.get(imported) == 1:
                return [*path[path.index(imported) :], imported] if imported in path else [name]
            if imported not in state and (circle := visit(imported, [*path, imported])):
                return circle
        state[name] = 2
        return None

    for name in sorted(graph):
        if name not in state and (circle := visit(name, [name])):
            pytest.fail(" -> ".join(circle))


def test_the_compiled_parts_list_names_every_cython_source() -> None:
    from newsspider.extraction.common import compiled_parts

    core = PACKAGE / "extraction"
    sources = {
        ".".join(path.relative_to(core).with_suffix("").parts) for path in core.rglob("_*_c.pyx")
    }
    assert sources == set(compiled_parts.CYTHON)
    for name in sources:  # each with its type stub, beside the Python code it twins
        assert (core / f"{name.replace('.', '/')}.pyi").exists(), name
    for name in compiled_parts.MYPYC_SKIPPED_MODULES:
        assert (core / f"{name.replace('.', '/')}.py").exists(), name

"""How much of Magellan's code names an explorer: the figures of issue 34's "one place per explorer".

`python -m devtools.explorer_branches [checkout]` reads `api/rules/magellan/*.py` (of this checkout,
or another, e.g. an old commit's) and prints:
- modules: the package's modules, `__init__` not counted;
- branches: places that branch on an explorer's name — a comparison with a name (`==`, `!=`, `in`,
  `not in`, also against a tuple of names) or a `match` case on one; each is listed;
- mentions: every other string literal that is an explorer's name, outside the two modules whose job
  is to name them (the material and the powers table), listed so a reader can judge them;
- circles: import circles between the package's modules, typing-only imports included.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXPLORERS = ("columbus", "pizarro", "magellan", "marco_polo", "vasco", "cook")
#: The modules whose job is to name the explorers: the material (MG-1) and the powers table (MG-8).
NAMING = ("constants", "powers")
PACKAGE = "api.rules.magellan"


def _names_in(node: ast.AST) -> bool:
    """An explorer's name, or a tuple/list/set of them."""
    if isinstance(node, ast.Constant):
        return node.value in EXPLORERS
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_names_in(item) for item in node.elts)
    return False


def _branches(tree: ast.AST) -> list[ast.AST]:
    found: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(_names_in(n) for n in (node.left, *node.comparators)):
            found.append(node)
        elif isinstance(node, ast.match_case):
            patterns = [p for p in ast.walk(node.pattern) if isinstance(p, ast.MatchValue)]
            if any(_names_in(p.value) for p in patterns):
                found.append(node.pattern)
    return found


def _imports(tree: ast.AST) -> set[str]:
    """Modules of the package this one imports (inside `if TYPE_CHECKING:` too)."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(PACKAGE):
            rest = node.module[len(PACKAGE) :].lstrip(".")
            out |= {alias.name for alias in node.names} if not rest else {rest.split(".")[0]}
    return out


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (or a module importing itself)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for dep in sorted(graph.get(node, ())):
            if dep not in graph:
                continue
            if dep not in index:
                visit(dep)
                low[node] = min(low[node], low[dep])
            elif dep in stack:
                low[node] = min(low[node], index[dep])
        if low[node] == index[node]:
            group: list[str] = []
            while True:
                top = stack.pop()
                group.append(top)
                if top == node:
                    break
            if len(group) > 1 or node in graph[node]:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def measure(checkout: Path) -> dict[str, object]:
    package = checkout / "api" / "rules" / "magellan"
    branches: list[str] = []
    mentions: list[str] = []
    graph: dict[str, set[str]] = {}
    for path in sorted(package.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if path.stem != "__init__":
            graph[path.stem] = _imports(tree)
        at_branch = {id(n) for b in _branches(tree) for n in ast.walk(b)}
        branches += [f"{path.name}:{getattr(b, 'lineno', '?')}" for b in _branches(tree)]
        if path.stem in NAMING:
            continue
        named = [
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and node.value in EXPLORERS and id(node) not in at_branch
        ]
        for node in sorted(named, key=lambda n: (n.lineno, n.col_offset)):
            mentions.append(f"{path.name}:{node.lineno} {node.value!r}")
    return {"modules": len(graph), "branches": branches, "mentions": mentions, "circles": _circles(graph)}


if __name__ == "__main__":
    where = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else ROOT
    found = measure(where)
    print(f"{where}: {found['modules']} modules")
    for key in ("branches", "mentions", "circles"):
        items = found[key]
        assert isinstance(items, list)
        print(f"{key}: {len(items)}")
        for item in items:
            print(f"  {' → '.join(item) if isinstance(item, list) else item}")

"""The server's rooms and the arrows between them (issue 34): each web room has one job, and imports
only point down, so a room can be read, tested and changed without the ones above it.

    api.app, api.openapi_doc, api.serving   the top: assemble the app, write the document, serve it
    api.phone     the phone app's build and serving (var/static/ under hashed names, WhiteNoise)
    api.http      the handlers (blueprints) and their request plumbing; a game's own endpoints
                  (api/games/<game>/endpoints.py) are handlers too, found by the app
    api.push      one read and one render per change, written to every stream that keeps up
    api.contract  the OpenAPI document's machinery, the examples, problem codes, the table's schema
    everything else under api/ (rules, tables, groups, sheets, i18n, db, …): no web room at all

Every import counts — at the top of a module, inside a function or under TYPE_CHECKING — since a
lazy import is an arrow all the same. Migrations import nothing of the application (Alembic's
practice: a migration keeps writing what it wrote when the code it once used has changed).
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

API = Path(__file__).resolve().parents[2] / "api"

TOP = {"api.app", "api.openapi_doc", "api.serving"}
# What each web room may import of the other web rooms (besides itself), top to bottom.
MAY_IMPORT = {
    "api.phone": {"api.http"},  # in front of the API: the pages' security policy (api.http.security)
    "api.http": {"api.push", "api.contract"},
    "api.push": {"api.contract"},  # the table's answer as documented (api.contract.table)
    "api.contract": set(),
}
WEB = set(MAY_IMPORT)
MIGRATIONS = API / "db" / "migrations"
# Alembic's environment (not a migration) compares against the declared schema; migrations: nothing.
ENVIRONMENT_MAY_IMPORT = {"api.db.schema"}


def module_name(path: Path) -> str:
    parts = path.relative_to(API.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def room_of(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 4 and parts[:2] == ["api", "games"] and parts[3] == "endpoints":
        return "api.http"  # a game's handlers live with the game, and count with the handlers
    return ".".join(parts[:2])


def imports_of(path: Path) -> set[str]:
    """Every `api…` module the file imports anywhere (`from api.x import y` counts as api.x.y when
    y is a module)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            names = (f"{node.module}.{alias.name}" for alias in node.names)
            found |= {name for name in names if _is_module(name)}
    return {name for name in found if name == "api" or name.startswith("api.")}


def _is_module(name: str) -> bool:
    base = API.parent.joinpath(*name.split("."))
    return base.with_suffix(".py").exists() or (base / "__init__.py").exists()


@cache
def graph() -> dict[str, set[str]]:
    """Module → the api modules it imports, for every module under api/ but the migrations."""
    return {
        module_name(path): imports_of(path)
        for path in sorted(API.rglob("*.py"))
        if MIGRATIONS not in path.parents
    }


def test_the_rooms_are_there() -> None:
    modules = graph()
    for room in WEB:
        assert any(room_of(m) == room for m in modules), f"{room} is gone: update this test and the docs"


def test_web_rooms_import_only_down() -> None:
    wrong = []
    for module, imported in graph().items():
        room = room_of(module)
        if room not in WEB:
            continue
        for name in imported:
            if name in TOP or (room_of(name) in WEB - {room} - MAY_IMPORT[room]):
                wrong.append(f"{module} imports {name}")
    assert not wrong, "arrows back up:\n" + "\n".join(sorted(wrong))


def test_nothing_below_imports_a_web_room_or_the_top() -> None:
    wrong = [
        f"{module} imports {name}"
        for module, imported in graph().items()
        if module not in TOP and room_of(module) not in WEB
        for name in imported
        if name in TOP or room_of(name) in WEB
    ]
    assert not wrong, "\n".join(sorted(wrong))


def test_no_import_circle_between_modules_of_the_web_rooms() -> None:
    """Lazy imports included: two modules that need each other are one job in two files."""
    modules = graph()
    web = {m: {n for n in imported if n in modules and room_of(n) in WEB} for m, imported in modules.items()}
    web = {m: targets for m, targets in web.items() if room_of(m) in WEB}
    state: dict[str, int] = {}
    circles: list[str] = []

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(web.get(module, ())):
            if state.get(target) == 1:
                circles.append(" → ".join([*path[path.index(target) :], target]))
            elif target not in state:
                visit(target, [*path, target])
        state[module] = 2

    for module in sorted(web):
        if module not in state:
            visit(module, [module])
    assert not circles, "\n".join(circles)


def test_migrations_import_nothing_of_the_application() -> None:
    versions = sorted((MIGRATIONS / "versions").glob("*.py"))
    assert len(versions) >= 15
    wrong = {path.name: sorted(imports_of(path)) for path in versions if imports_of(path)}
    assert not wrong, f"migrations importing live code (freeze what they need into them): {wrong}"
    environment = imports_of(MIGRATIONS / "env.py")
    assert environment <= ENVIRONMENT_MAY_IMPORT | {"api", "api.db"}, environment


def test_the_rules_here_are_what_the_test_reads() -> None:
    """The checker sees a lazy import and a `from api.room import module` (else it proves nothing)."""
    assert "api.http.stream" in graph()["api.http.health"]  # imported inside a function
    assert "api.contract.examples" in graph()["api.http.tables"]  # from api.contract import examples
    assert room_of("api.games.mahe.endpoints") == "api.http" and room_of("api.games.mahe") == "api.games"


def test_a_game_package_holds_no_handler() -> None:
    """The contract and the groups read a game's package (api.games.servers()); its endpoints are
    found by the app alone, so reading a game's schemas never loads a handler."""
    for folder in ("mahe", "magellan", "mhing"):
        assert f"api.games.{folder}.endpoints" not in graph()[f"api.games.{folder}"]
    assert "api.app" in graph()["api.openapi_doc"]

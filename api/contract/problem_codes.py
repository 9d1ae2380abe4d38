"""Every problem `code` the service can answer, read from its own source, for the OpenAPI document.

A client branches on `code`; it can only do so for codes it knows. Rather than a list kept by hand
(which drifts), the codes are read from the places that raise them: each `ApiProblem(status, code,
…)` and each rule refusal (`RuleError` and its kinds, always 422) with a literal code, plus the codes
given to Flask's own errors (`HTTP_CODES`). The document then gives `Problem.code` as an enum and
names, on the operations that append or preview an event, the rule refusals of each game with their
REFEREE.md rule. Reading the sources takes seconds, so the result is committed beside this module
(`problem_codes.json`, written by `python -m api.contract.problem_codes`) and the app reads that;
tests/contract/test_problem_codes.py checks it is fresh, that no refusal escapes the reading (a code
built at run time would), and that answers carry only listed codes.
"""

from __future__ import annotations

import ast
import json
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from api.rules.registry import MANIFESTS

API = Path(__file__).resolve().parents[1]
COMMITTED = Path(__file__).with_suffix(".json")
# Codes of the errors Flask and werkzeug raise themselves (api.http.problems), so clients can branch
# on `code` everywhere; any other status werkzeug knows gets its phrase as a code.
HTTP_CODES = {
    400: "bad-request",
    401: "unauthorized",
    403: "forbidden",
    404: "not-found",
    405: "method-not-allowed",
    406: "not-acceptable",
    409: "conflict",
    413: "request-too-large",
    415: "unsupported-media-type",
    422: "invalid-request",
    428: "precondition-required",
    429: "too-many-requests",
    500: "internal-error",
}
def passed_on() -> set[tuple[str, str]]:
    from api.games import servers  # the game packages import the HTTP layer

    return PASSED_ON.union(*(g.passed_on for g in servers().values()))


RULE_ERRORS = {"RuleError", "IllegalMove", "InvalidSetup", "MalformedEvent"}
# Where a code reaches a refusal only through a variable: the code passed on is one read elsewhere.
# Each game's own are in its package (api.games.server.GameServer.passed_on).
PASSED_ON: set[tuple[str, str]] = set()


@dataclass(frozen=True, order=True)
class Refusal:
    code: str
    status: int
    where: str  # the module, relative to the repository (api/rules/mahe/moves.py)
    rule: str | None = None
    kind: str = "ApiProblem"  # the exception: ApiProblem, IllegalMove, InvalidSetup, …


@dataclass(frozen=True)
class _Maker:
    """A call that makes a refusal: its status, and which argument gives the code (by position
    and name), turned into the code by `shape` (a helper's f-string such as f"{key}-required")."""

    status: int
    position: int
    name: str
    shape: tuple[object, ...] = ()
    kind: str = "ApiProblem"  # parts of an f-string: str, or (old, new) for key.replace(old, new)

    def code(self, value: str) -> str:
        if not self.shape:
            return value
        parts = []
        for part in self.shape:
            if isinstance(part, str):
                parts.append(part)
            else:
                old, new = part if isinstance(part, tuple) else ("", "")
                parts.append(value.replace(old, new) if old else value)
        return "".join(parts)


BASE_MAKERS = {
    "ApiProblem": _Maker(0, 1, "code"),  # status from its own first argument
    **{name: _Maker(422, 0, "code", kind=name) for name in RULE_ERRORS},
}


def _called(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _argument(node: ast.Call, position: int, name: str) -> ast.expr | None:
    for keyword in node.keywords:
        if keyword.arg == name:
            return keyword.value
    return node.args[position] if len(node.args) > position else None


def _strings(node: ast.expr | None, constants: dict[str, str]) -> list[str] | None:
    """The codes an expression can be: a literal, a module constant, or either of two such."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Name) and node.id in constants:
        return [constants[node.id]]
    if isinstance(node, ast.IfExp):
        body, orelse = _strings(node.body, constants), _strings(node.orelse, constants)
        return body + orelse if body is not None and orelse is not None else None
    return None


def _shape(node: ast.expr, param: str) -> tuple[object, ...] | None:
    """An f-string over the parameter `param` (plain, or `param.replace("_", "-")`) as parts."""
    if not isinstance(node, ast.JoinedStr):
        return None
    parts: list[object] = []
    for value in node.values:
        if isinstance(value, ast.Constant):
            parts.append(str(value.value))
            continue
        inner = value.value if isinstance(value, ast.FormattedValue) else None
        if isinstance(inner, ast.Name) and inner.id == param:
            parts.append(("", ""))
        elif (
            isinstance(inner, ast.Call)
            and isinstance(inner.func, ast.Attribute)
            and inner.func.attr == "replace"
            and isinstance(inner.func.value, ast.Name)
            and inner.func.value.id == param
            and all(isinstance(a, ast.Constant) for a in inner.args)
        ):
            parts.append(tuple(a.value for a in inner.args))  # type: ignore[attr-defined]
        else:
            return None
    return tuple(parts)


def _status(node: ast.Call, maker: _Maker) -> int | None:
    if maker is BASE_MAKERS["ApiProblem"]:
        value = node.args[0].value if node.args and isinstance(node.args[0], ast.Constant) else None
        return value if isinstance(value, int) else None
    return maker.status


def _rule_of(node: ast.Call, name: str | None) -> str | None:
    if name not in RULE_ERRORS:
        return None
    found = _argument(node, 2, "rule")
    return found.value if isinstance(found, ast.Constant) and isinstance(found.value, str) else None


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(API.parent).with_suffix("").parts)


def _imports(tree: ast.Module, known: set[str]) -> tuple[dict[str, str], dict[str, tuple[str, str]]]:
    """A module's aliases: local name → module (for `module.helper(…)`), and local name →
    (module, name) for helpers imported by name."""
    modules: dict[str, str] = {}
    names: dict[str, tuple[str, str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                local = alias.asname or alias.name
                if f"{node.module}.{alias.name}" in known:
                    modules[local] = f"{node.module}.{alias.name}"
                else:
                    names[local] = (node.module, alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    modules[alias.asname] = alias.name
    return modules, names


@cache
def refusals() -> tuple[tuple[Refusal, ...], tuple[str, ...]]:
    """(every refusal whose code can be read, every call whose code could not be read).

    A code is read where it is a literal, a module constant or a choice of two; a helper that
    passes a parameter on as the code (or builds it with an f-string over one) becomes a maker
    itself, and its callers' literal arguments are read in turn (helpers found by module and name,
    through the imports of the calling module)."""
    modules = {_module_name(p): (p, ast.parse(p.read_text(), str(p))) for p in sorted(API.rglob("*.py"))}
    known = set(modules)
    imports = {name: _imports(tree, known) for name, (_, tree) in modules.items()}
    constants: dict[str, str] = {}
    for _, tree in modules.values():
        for node in tree.body:
            if isinstance(node, ast.Assign) and isinstance(getattr(node.value, "value", None), str):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        constants[target.id] = node.value.value  # type: ignore[attr-defined]
    derived: dict[tuple[str, str], _Maker] = {}

    def maker_of(module: str, node: ast.Call) -> _Maker | None:
        func = node.func
        name = _called(node)
        if name in BASE_MAKERS and (isinstance(func, ast.Name) or name == "ApiProblem"):
            return BASE_MAKERS[name]
        aliases, imported = imports[module]
        if isinstance(func, ast.Name):
            home = imported.get(func.id, (module, func.id))
            return derived.get(home) or derived.get((module, func.id))
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            target = aliases.get(func.value.id)
            return derived.get((target, func.attr)) if target else None
        return None

    while True:  # find helpers that make refusals, until no new one turns up
        grown = False
        for module, (_, tree) in modules.items():
            for function in ast.walk(tree):
                if not isinstance(function, ast.FunctionDef) or (module, function.name) in derived:
                    continue
                params = [a.arg for a in function.args.args]
                for node in ast.walk(function):
                    maker = maker_of(module, node) if isinstance(node, ast.Call) else None
                    if maker is None or not isinstance(node, ast.Call):
                        continue
                    code = _argument(node, maker.position, maker.name)
                    for position, param in enumerate(params):
                        plain = isinstance(code, ast.Name) and code.id == param
                        shape = () if plain else (_shape(code, param) if code is not None else None)
                        if shape is not None and not (maker.shape and shape):
                            status = 422 if maker is BASE_MAKERS["ApiProblem"] else maker.status
                            derived[(module, function.name)] = _Maker(
                                status, position, param, shape or maker.shape, maker.kind
                            )
                            grown = True
                            break
                    if (module, function.name) in derived:
                        break
        if not grown:
            break
    found: list[Refusal] = []
    unread: list[str] = []
    for module, (path, tree) in modules.items():
        where = path.relative_to(API.parent).as_posix()
        for node in ast.walk(tree):
            maker = maker_of(module, node) if isinstance(node, ast.Call) else None
            if maker is None or not isinstance(node, ast.Call):
                continue
            code = _argument(node, maker.position, maker.name)
            values = _strings(code, constants)
            if values is None and isinstance(code, ast.Name):  # a local set to a literal or a choice
                values = _strings(_assigned_around(tree, node, code.id), constants)
            status = _status(node, maker)
            if values is not None and status is not None:
                rule = _rule_of(node, _called(node))
                found += [Refusal(maker.code(v), status, where, rule, maker.kind) for v in values]
                continue
            enclosing_params = _parameters_around(tree, node)
            passed = isinstance(code, ast.Name) and code.id in enclosing_params
            shaped = code is not None and any(_shape(code, p) is not None for p in enclosing_params)
            if not (passed or shaped) and (where, ast.unparse(code) if code else "") not in passed_on():
                unread.append(f"{where}:{node.lineno}: {ast.unparse(node)[:80]}")
    ordered = sorted(set(found), key=lambda r: (r.code, r.where, r.rule or ""))
    return tuple(ordered), tuple(unread)


def _assigned_around(tree: ast.Module, target: ast.AST, name: str) -> ast.expr | None:
    """What a local of the function around `target` was last set to before it (one plain `=`)."""
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef) and any(n is target for n in ast.walk(function)):
            for node in ast.walk(function):
                if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == name for t in node.targets
                ):
                    return node.value
    return None


def _parameters_around(tree: ast.Module, target: ast.AST) -> set[str]:
    """The parameters of the functions a node sits in (a helper passing its own code on)."""
    found: set[str] = set()
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef) and any(n is target for n in ast.walk(function)):
            found |= {a.arg for a in function.args.args}
    return found


def http_code(status: int) -> str:
    """The code of an error werkzeug raised with this status."""
    from http import HTTPStatus

    if status in HTTP_CODES:
        return HTTP_CODES[status]
    try:
        return HTTPStatus(status).phrase.lower().replace(" ", "-").replace("'", "")
    except ValueError:
        return f"http-{status}"


def _werkzeug_codes() -> set[str]:
    from werkzeug.exceptions import default_exceptions

    return {http_code(status) for status in default_exceptions}


GAME_FOLDERS = {m.id: m.title for m in MANIFESTS.values()}  # api/rules/<folder> → the game's title


def read_catalog() -> dict[str, object]:
    """What the document says of problem codes, read from the sources (seconds)."""
    found = refusals()[0]
    by_game: dict[str, dict[str, Refusal]] = {}
    setup: dict[str, Refusal] = {}
    for refusal in found:
        parts = refusal.where.split("/")
        if parts[:2] != ["api", "rules"] or refusal.status != 422:
            continue
        game = GAME_FOLDERS.get(parts[2], "every game") if len(parts) > 3 else "every game"
        kept = by_game.setdefault(game, {})
        if refusal.code not in kept or (refusal.rule and not kept[refusal.code].rule):
            kept[refusal.code] = refusal
    rules_of: dict[str, set[str | None]] = {}
    for refusal in found:  # what refuses a table's creation (a rule named only where all agree)
        if refusal.kind == "InvalidSetup" or (refusal.where, refusal.code) == (
            "api/tables/store.py",
            "unknown-game",
        ):
            setup[refusal.code] = refusal
            rules_of.setdefault(refusal.code, set()).add(refusal.rule)
    return {
        "codes": sorted({r.code for r in found} | _werkzeug_codes()),
        "rules": {
            game: [{"code": c, "rule": codes[c].rule} for c in sorted(codes)]
            for game, codes in sorted(by_game.items())
        },
        "setup": [
            {"code": c, "rule": setup[c].rule if len(rules_of[c]) == 1 else None} for c in sorted(setup)
        ],
    }


@cache
def catalog() -> dict[str, object]:
    """The committed reading (fast; the app and the document use it)."""
    return dict(json.loads(COMMITTED.read_text()))


def _listed(items: object) -> str:
    assert isinstance(items, list)
    return ", ".join(f"`{i['code']}`" + (f" ({i['rule']})" if i["rule"] else "") for i in items)


def rule_refusals_markdown() -> str:
    """The referee's refusals of an event, per game, as its 422 answer describes them."""
    rules = catalog()["rules"]
    assert isinstance(rules, dict)
    return "\n".join(f"- {game}: {_listed(items)}" for game, items in rules.items())


def setup_refusals_markdown() -> str:
    return _listed(catalog()["setup"])


if __name__ == "__main__":
    json.dump(read_catalog(), sys.stdout, indent=1, ensure_ascii=False)
    print()

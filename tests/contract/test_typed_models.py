"""Every object the API answers or accepts is typed in the document, so generated clients get
fields, not dictionaries: openapi-python-client makes no field-less model except the 4 maps the
document declares (with typed values), and openapi-typescript leaves no `unknown` in any schema."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

BIN = ROOT / "node_modules/.bin"

# Maps whose keys are data (a note's placeholders, an action's field names, the request's own field
# names in validation errors, the seats of Magellan's end hands typed in at once); each has typed
# values. Maps with a fixed list of keys (explorers, money values, turtle colours) are objects with
# those keys.
DECLARED_MAPS = {
    "MagellanFinalHandsEventHands",
    "MhingRoundWonActionFields",
    "NoteParams",
    "ValidationErrors",
}


def fieldless_models(models: Path) -> dict[str, bool]:
    """Generated model classes that have no fields of their own → whether their values are typed."""
    found = {}
    for module in sorted(models.glob("*.py")):
        source = module.read_text(encoding="utf-8")
        for node in ast.parse(source).body:
            if not isinstance(node, ast.ClassDef):
                continue
            if any(isinstance(base, ast.Name) and base.id.endswith("Enum") for base in node.bases):
                continue
            names = [
                n.target.id
                for n in node.body
                if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
            ]
            if names in ([], ["additional_properties"]):
                found[node.name] = "additional_properties: dict[str, Any]" not in source
    return found


@pytest.fixture(scope="module")
def python_client(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("typed") / "kibitz_client"
    generator = Path(sys.executable).parent / "openapi-python-client"
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    made = subprocess.run(
        [str(generator), "generate", "--path", str(ROOT / "openapi.yaml"), "--meta", "none",
         "--output-path", str(out)],
        check=True, capture_output=True, text=True, env=env, cwd=out.parent,
    )  # fmt: skip
    return out, made.stdout + made.stderr


def test_the_python_client_has_no_untyped_model(python_client: tuple[Path, str]) -> None:
    out, said = python_client
    assert "Unable to process schema" not in said and "Cannot parse" not in said, said
    fieldless = fieldless_models(out / "models")
    assert set(fieldless) == DECLARED_MAPS, sorted(set(fieldless) ^ DECLARED_MAPS)
    assert all(fieldless.values()), [name for name, typed in fieldless.items() if not typed]
    untyped_lists = [m.name for m in (out / "models").glob("*.py") if "list[Any]" in m.read_text()]
    assert not untyped_lists


def test_a_mhing_reading_is_typed(python_client: tuple[Path, str]) -> None:
    """A nullable nested object is that schema or None, never a bare object (MH-5 reading)."""
    out, _ = python_client
    score = (out / "models/score_result.py").read_text(encoding="utf-8")
    assert re.search(r"reading: (None \| Reading|Reading \| None)\n", score), score
    pair = (out / "models/reading.py").read_text(encoding="utf-8")
    assert re.search(r"pair: (None \| Pair|Pair \| None)\n", pair)


def test_the_typescript_schemas_have_no_unknown(tmp_path: Path) -> None:
    if not (BIN / "openapi-typescript").exists() or not shutil.which("node"):
        pytest.fail("node and the npm packages are installed by `make` (npm ci)")
    target = tmp_path / "kibitz.d.ts"
    made = subprocess.run(
        [str(BIN / "openapi-typescript"), str(ROOT / "openapi.yaml"), "-o", str(target)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    types = target.read_text(encoding="utf-8")
    start = types.index("    schemas: {")
    schemas = types[start : types.index("    responses:", start)]
    with_unknown = set()
    for block in re.split(r"\n        (?=\w+: )", schemas):
        if re.search(r"(?<![\w\"'-])unknown(?![\w\"'-])", block):  # the type, not a code named unknown-…
            with_unknown.add(block.split(":", 1)[0].strip())
    # A JSON Patch operation's `value` is any JSON value (RFC 6902): `unknown` is its exact type, and
    # only its `value`; a client applies the patch to its typed table and reads that.
    assert with_unknown <= {"PatchOperation"}, with_unknown
    operation = next(b for b in re.split(r"\n        (?=\w+: )", schemas) if b.startswith("PatchOperation:"))
    assert operation.count("unknown") == 1 and re.search(r"value\?: unknown;", operation), operation
    for name in ("MaheView", "MagellanView", "MhingView", "LoggedEvent", "AnyEvent", "MaheAction"):
        assert f"        {name}: " in schemas, name


def test_an_enum_or_null_is_one_python_enum(python_client: tuple[Path, str]) -> None:
    """A field that is one of some words or null (a Magellan card's `part`, the history's `game`
    filter) gets one enum class, not one per branch of a type list (issue 35: three identical ones)."""
    out, _ = python_client
    members: dict[str, list[tuple[str, ...]]] = {}
    for module in sorted((out / "models").glob("*.py")):
        for node in ast.parse(module.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and any(
                isinstance(base, ast.Name) and base.id.endswith("Enum") for base in node.bases
            ):
                values = tuple(
                    sorted(
                        ast.literal_eval(n.value)
                        for n in node.body
                        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant)
                    )
                )
                stem = re.sub(r"(Type\d+)+$", "", node.name)
                members.setdefault(stem, []).append(values)
    twins = {stem: found for stem, found in members.items() if len(found) > 1}
    assert not twins, twins
    assert ("left", "right") in members["MagellanCardPart"]

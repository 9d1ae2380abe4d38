"""What a phone downloads once and keeps (api/phone/static_build.py, served by WhiteNoise).

Every precached file is sent brotli- or gzip-compressed to a browser that accepts it, and the
compressed answer is the same file; hashed names are immutable and change whenever their content
does (so a changed file always reaches phones, and an unchanged ~10 MB referee is never downloaded
again); the phone's rules are the server's `api/rules` as they are now; the standard library the
phone gets holds every module the rules import.
"""

from __future__ import annotations

import ast
import base64
import gzip
import hashlib
import io
import json
import re
import shutil
import sys
import zipfile
from pathlib import Path

import brotli
import pytest
from flask.testing import FlaskClient

from api.phone import bundle, static_build
from api.phone.pwa import IMMUTABLE
from api.rules.registry import GAMES
from devtools import rules_pages

ROOT = Path(__file__).resolve().parents[2]


def precache(client: FlaskClient) -> list[list[str]]:
    answer = client.get("/sw.js")
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-cache"
    source = answer.get_data(as_text=True)
    assert "__PRECACHE__" not in source
    found = re.search(r"const PRECACHE = (\[.*?\]);\n", source)
    assert found, "the precache list is filled in"
    routes: list[list[str]] = json.loads(found.group(1))
    return routes


def import_map(client: FlaskClient) -> dict[str, str]:
    page = client.get("/").get_data(as_text=True)
    found = re.search(r'<script type="importmap">(.*?)</script>', page)
    assert found
    imports: dict[str, str] = json.loads(found.group(1))["imports"]
    return imports


def test_precache_lists_every_app_file_and_the_referee(client: FlaskClient) -> None:
    kept = {asked: hashed for asked, hashed in precache(client)}
    app_files = {"/" + name for name in static_build.shell_files()} - {"/index.html"}
    assert app_files <= set(kept) and "./" in kept
    assert {"/referee/rules.zip", "/referee/stdlib.zip", "/referee/messages/de.json"} <= set(kept)
    tables = {f"/referee/{name}.json" for name, game in GAMES.items() if hasattr(game, "phone_tables")}
    assert tables and tables <= set(kept)  # a game's rules as data for screens without a table
    assert {f"/{name}" for name in rules_pages.built()} <= set(kept)  # the rules pages, built
    assert "/vendor/pyodide/pyodide.asm.wasm" in kept
    for asked, hashed in kept.items():
        assert static_build.HASHED.search(hashed), hashed
        answer = client.get(hashed)
        assert answer.status_code == 200, asked
        assert answer.headers["Cache-Control"] == IMMUTABLE == "public, max-age=31536000, immutable"


def test_entry_points_are_revalidated_and_the_import_map_is_allowed_by_its_hash(client: FlaskClient) -> None:
    for path in ("/", "/sw.js", "/manifest.webmanifest", "/js/dom.js", "/rules/mahe.en.html"):
        assert client.get(path).headers["Cache-Control"] == "no-cache", path
    page = client.get("/")
    found = re.search(r'<script type="importmap">(.*?)</script>', page.get_data(as_text=True))
    assert found
    digest = base64.b64encode(hashlib.sha256(found.group(1).encode()).digest()).decode()
    assert (
        f"script-src 'self' 'sha256-{digest}' 'wasm-unsafe-eval'" in page.headers["Content-Security-Policy"]
    )
    imports = import_map(client)
    assert imports["/js/dom.js"] != "/js/dom.js" and client.get(imports["/js/dom.js"]).status_code == 200
    assert imports["/vendor/pyodide/"].startswith("/vendor/pyodide.")


@pytest.mark.parametrize("encoding", ["br", "gzip"])
def test_compressed_answers_decompress_to_the_same_bytes(client: FlaskClient, encoding: str) -> None:
    decompress = brotli.decompress if encoding == "br" else gzip.decompress
    compressed = set()
    for asked, hashed in precache(client):
        plain = client.get(hashed).data
        answer = client.get(hashed, headers={"Accept-Encoding": encoding})
        assert answer.status_code == 200
        if answer.headers.get("Content-Encoding") == encoding:
            assert "Accept-Encoding" in answer.headers["Vary"]
            assert decompress(answer.data) == plain, hashed
            assert len(answer.data) < len(plain)
            compressed.add(asked)
        else:
            assert answer.data == plain
    must = {"/vendor/pyodide/pyodide.asm.wasm", "/vendor/pyodide/pyodide.asm.js", "/referee/stdlib.zip"}
    must |= {"/referee/rules.zip", "./", "/app.js", "/js/dom.js", "/i18n/de.json", "/rules/mahe.en.html"}
    assert must <= compressed, must - compressed


def test_the_rules_zip_is_api_rules_as_it_is_now(client: FlaskClient) -> None:
    answer = client.get(import_map(client)["/referee/rules.zip"])
    assert answer.status_code == 200 and answer.mimetype == "application/zip"
    with zipfile.ZipFile(io.BytesIO(answer.data)) as archive:
        names = set(archive.namelist())
        on_disk = {"api/__init__.py"} | {
            p.relative_to(ROOT).as_posix() for p in (ROOT / "api/rules").rglob("*.py")
        }
        assert names == on_disk
        for name in names:
            assert archive.read(name) == (ROOT / name).read_bytes(), f"stale: {name}"
    assert bundle.build_rules_zip() == bundle.build_rules_zip(), "the same files give the same bytes"


def _names(build: static_build.Build) -> dict[str, str]:
    return {asset.logical: asset.hashed for asset in build.assets}


def test_a_changed_file_changes_its_name_and_only_what_names_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _names(static_build.plan())
    # A copy of the project's served files in which one module and one rules file change.
    fake = tmp_path / "project"
    (fake / "api").mkdir(parents=True)
    (fake / "api/__init__.py").write_bytes((ROOT / "api/__init__.py").read_bytes())
    shutil.copytree(ROOT / "api/rules", fake / "api/rules")
    shutil.copytree(ROOT / "pwa", fake / "pwa")
    monkeypatch.setattr(bundle, "ROOT", fake)
    monkeypatch.setattr(static_build, "PWA_DIR", fake / "pwa")
    bundle.rules_zip.cache_clear()
    try:
        assert _names(static_build.plan()) == before, "same contents, same names"
        (fake / "pwa/js/dom.js").write_text((fake / "pwa/js/dom.js").read_text() + "\n// changed\n")
        after = _names(static_build.plan())
        changed = {name for name in before if before[name] != after[name]}
        # The module, the page whose import map names it, and the service worker's list.
        assert changed == {"js/dom.js", "index.html"}, changed
        rule = fake / "api/rules/mahe/dice.py"
        rule.write_text(rule.read_text() + "\n# changed\n")
        bundle.rules_zip.cache_clear()
        later = _names(static_build.plan())
        assert {name for name in after if after[name] != later[name]} == {"referee/rules.zip", "index.html"}
        assert all(later[name] == before[name] for name in before if name.startswith("vendor/"))
    finally:
        bundle.rules_zip.cache_clear()


def test_a_written_build_serves_the_new_name_and_keeps_the_old(tmp_path: Path) -> None:
    """Phones still running the last release may ask for its files: old hashed names stay."""
    build = static_build.plan()
    shell = static_build.Build(
        tuple(a for a in build.assets if not a.logical.startswith("vendor/")),
        build.import_map,
        build.csp_hash,
    )
    static_build.write(shell, tmp_path)
    dom = next(a for a in shell.assets if a.logical == "js/dom.js")
    assert (tmp_path / dom.hashed).read_bytes() == dom.data == (tmp_path / "js/dom.js").read_bytes()
    assert brotli.decompress((tmp_path / f"{dom.hashed}.br").read_bytes()) == dom.data
    assert gzip.decompress((tmp_path / "js/dom.js.gz").read_bytes()) == dom.data
    assert static_build.write(shell, tmp_path) == [], "nothing changed, nothing written"
    changed = dom.data + b"\n// changed\n"
    new = static_build.Asset(dom.logical, static_build.hashed_name(dom.logical, changed), changed, plain=True)
    assert static_build.write(static_build.Build((new,), "", ""), tmp_path) == [new.hashed, new.logical]
    assert (tmp_path / dom.hashed).read_bytes() == dom.data and (
        tmp_path / "js/dom.js"
    ).read_bytes() == changed
    assert brotli.decompress((tmp_path / "js/dom.js.br").read_bytes()) == changed


def test_the_cut_stdlib_holds_every_module_the_rules_import(client: FlaskClient) -> None:
    answer = client.get(import_map(client)["/referee/stdlib.zip"])
    with zipfile.ZipFile(io.BytesIO(answer.data)) as archive:
        names = set(archive.namelist())
    full = zipfile.ZipFile(bundle.PYODIDE_DIR / "python_stdlib.zip")
    on_the_wire = client.get(
        import_map(client)["/referee/stdlib.zip"], headers={"Accept-Encoding": "br"}
    ).data
    assert len(on_the_wire) < (bundle.PYODIDE_DIR / "python_stdlib.zip").stat().st_size / 4
    assert len(names) < len(full.namelist()) / 3
    imported = set()
    for path in (ROOT / "api/rules").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module)
    stdlib = {name for name in imported if name.split(".")[0] in sys.stdlib_module_names}
    assert stdlib >= {"dataclasses", "typing", "json", "random"}
    for name in stdlib:
        stem = name.replace(".", "/")
        in_zip = {f"{stem}.py", f"{stem}/__init__.py"} & set(full.namelist())
        # As a source, or compiled ahead (api/phone/pyc.py: a `.pyc` in its place).
        served = in_zip | {f"{file}c" for file in in_zip}
        assert not in_zip or served & names, f"{name} is not in the phone's standard library"


def test_pyodide_is_served_from_our_origin_with_a_csp_for_webassembly(client: FlaskClient) -> None:
    imports = import_map(client)
    wasm = client.get(imports["/vendor/pyodide/"] + "pyodide.asm.wasm")
    assert wasm.status_code == 200 and wasm.mimetype == "application/wasm"
    assert client.get(imports["/vendor/pyodide/"] + "pyodide.mjs").mimetype == "text/javascript"
    assert client.get(imports["/vendor/pyodide/"] + "console.html").status_code == 404
    plain = client.get("/vendor/pyodide/pyodide.asm.wasm")  # for pages without the import map
    assert plain.status_code == 200 and plain.headers["Cache-Control"] == "no-cache"
    assert 4_000_000 < static_build.referee_bytes() < 15_000_000
    csp = client.get("/").headers["Content-Security-Policy"]
    assert "'wasm-unsafe-eval'" in csp
    assert "'unsafe-eval'" not in csp  # WebAssembly may compile; JavaScript may not eval
    package = json.loads((ROOT / "package.json").read_text())
    lock = json.loads((ROOT / "package-lock.json").read_text())
    assert package["dependencies"]["pyodide"] == lock["packages"]["node_modules/pyodide"]["version"]


@pytest.mark.skipif(shutil.which("node") is None, reason="node runs Pyodide for the trace")
def test_the_traced_module_list_is_current() -> None:
    """The list the cut is made from is what the rules import now (rerun the trace when it fails:
    `python -m devtools.stdlib_trace`)."""
    from api.phone.stdlib_cut import MODULE_LIST
    from devtools import stdlib_trace

    assert stdlib_trace.listing(stdlib_trace.trace()) == MODULE_LIST.read_text(encoding="utf-8")


def test_only_reads_reach_the_files(client: FlaskClient) -> None:
    """A write to an app file is the API's refusal (problem+json), not the file server's bare 405."""
    for path in ("/", "/js/dom.js"):
        answer = client.post(path, data=b"{}")
        assert 400 <= answer.status_code < 500 and answer.mimetype == "application/problem+json", path
        assert answer.headers["X-Content-Type-Options"] == "nosniff"


def test_pyodides_folder_name_follows_every_file_in_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pyodide loads its files beside each other, so the folder carries the hash of all of them."""
    for name in bundle.PYODIDE_FILES:
        (tmp_path / name).write_bytes(name.encode())
    monkeypatch.setattr(static_build, "PYODIDE_DIR", tmp_path)
    before = {asset.logical: asset.hashed for asset in static_build._pyodide_assets()}
    assert len({hashed.rsplit("/", 1)[0] for hashed in before.values()}) == 1
    (tmp_path / "pyodide-lock.json").write_bytes(b"{}")
    after = {asset.logical: asset.hashed for asset in static_build._pyodide_assets()}
    assert all(after[name] != before[name] for name in before), "every file moves with the folder"

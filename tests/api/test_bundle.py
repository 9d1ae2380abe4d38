"""What a phone downloads once and keeps: the service worker's precache list comes from the files'
content hashes, and the phone's referee is the server's own `api/rules`, zipped at serve time.

A changed file must change its cache group's version (so every phone fetches it), an unchanged
Pyodide must keep its version (so nobody downloads ~10 MB again), and the rules the phone runs can
never be older than the server's.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import zipfile
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from api.http import bundle

ROOT = Path(__file__).resolve().parents[2]


def manifest(client: FlaskClient) -> dict[str, dict[str, Any]]:
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.headers["Cache-Control"] == "no-cache"
    source = answer.get_data(as_text=True)
    assert "__PRECACHE__" not in source
    found = re.search(r"const PRECACHE = (\[.*?\]);\n", source)
    assert found, "the precache list is filled in"
    return {group["name"]: group for group in json.loads(found.group(1))}


def test_precache_lists_every_app_file_and_the_referee(client: FlaskClient) -> None:
    groups = manifest(client)
    assert set(groups) == {"shell", "pyodide", "rules", "messages", "vendor"}
    shell = set(groups["shell"]["urls"])
    app_files = {
        p.relative_to(bundle.PWA_DIR).as_posix()
        for p in bundle.PWA_DIR.rglob("*")
        if p.is_file() and p.name not in ("sw.js", "make_icons.py")
    }
    assert app_files <= shell and "./" in shell
    assert {"rules/mahe.de.html", "js/referee/worker.js", "js/sync/session.js"} <= shell
    assert groups["rules"]["urls"] == ["/referee/rules.zip"]
    # The server's catalogs, for refusals the phone's own referee makes offline.
    assert {"/referee/messages/de.json", "/referee/messages/fr.json"} <= set(groups["messages"]["urls"])
    assert "/vendor/pyodide/pyodide.asm.wasm" in groups["pyodide"]["urls"]
    assert "/vendor/uplot/uPlot.esm.js" in groups["vendor"]["urls"]  # the charts, offline too
    for group in groups.values():
        assert re.fullmatch(r"[0-9a-f]{16}", group["version"])
        for url in group["urls"]:
            path = url if url.startswith("/") else "/" + url.removeprefix("./")
            assert client.get(path).status_code == 200, url


def test_the_rules_zip_is_api_rules_as_it_is_now(client: FlaskClient) -> None:
    answer = client.get("/referee/rules.zip")
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


def test_a_changed_file_changes_only_its_groups_version(
    client: FlaskClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = manifest(client)
    # A copy of the project's served files in which one shell file and one rules file changed.
    fake = tmp_path / "project"
    (fake / "api").mkdir(parents=True)
    (fake / "api/__init__.py").write_bytes((ROOT / "api/__init__.py").read_bytes())
    shutil.copytree(ROOT / "api/rules", fake / "api/rules")
    shutil.copytree(ROOT / "pwa", fake / "pwa")
    monkeypatch.setattr(bundle, "ROOT", fake)
    monkeypatch.setattr(bundle, "PWA_DIR", fake / "pwa")
    for cached in (bundle.precache, bundle.rules_zip):
        cached.cache_clear()
    try:
        assert manifest(client) == before, "same contents, same versions"
        (fake / "pwa/js/dom.js").write_text((fake / "pwa/js/dom.js").read_text() + "\n// changed\n")
        bundle.precache.cache_clear()
        after = manifest(client)
        assert after["shell"]["version"] != before["shell"]["version"]
        assert after["pyodide"] == before["pyodide"] and after["rules"] == before["rules"]
        rule = fake / "api/rules/mahe/dice.py"
        rule.write_text(rule.read_text() + "\n# changed\n")
        bundle.precache.cache_clear()
        bundle.rules_zip.cache_clear()
        later = manifest(client)
        assert later["rules"]["version"] != after["rules"]["version"]
        assert later["pyodide"] == before["pyodide"]
        with zipfile.ZipFile(io.BytesIO(client.get("/referee/rules.zip").data)) as archive:
            assert archive.read("api/rules/mahe/dice.py").endswith(b"# changed\n")
    finally:
        for cached in (bundle.precache, bundle.rules_zip):
            cached.cache_clear()


def test_pyodide_is_served_from_our_origin_with_a_csp_for_webassembly(client: FlaskClient) -> None:
    wasm = client.get("/vendor/pyodide/pyodide.asm.wasm")
    assert wasm.status_code == 200 and wasm.mimetype == "application/wasm"
    assert client.get("/vendor/pyodide/pyodide.mjs").mimetype == "text/javascript"
    assert client.get("/vendor/pyodide/console.html").status_code == 404  # only what the referee loads
    csp = client.get("/").headers["Content-Security-Policy"]
    assert "script-src 'self' 'wasm-unsafe-eval'" in csp
    assert "'unsafe-eval'" not in csp  # WebAssembly may compile; JavaScript may not eval
    package = json.loads((ROOT / "package.json").read_text())
    lock = json.loads((ROOT / "package-lock.json").read_text())
    assert package["dependencies"]["pyodide"] == lock["packages"]["node_modules/pyodide"]["version"]
    assert bundle.referee_bytes() > 5_000_000

"""What a phone downloads once and keeps: the app shell, Pyodide and the rules, named by content hash.

The phone's referee is the server's own `api/rules` package, zipped here at serve time from the files
on disk, so it can never be older than the server's rules. The service worker is served with its
precache list filled in from the files' content hashes (the Workbox idea without its build step): any
changed file changes a cache version, and no version is ever bumped by hand.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, Response, abort, send_file

from api.i18n import available, messages_json

ROOT = Path(__file__).resolve().parent.parent.parent
PWA_DIR = ROOT / "pwa"
PYODIDE_DIR = ROOT / "node_modules" / "pyodide"
# What Pyodide loads to run pure-Python code (no packages from its index are needed).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
PYODIDE_URL = "/vendor/pyodide/"
# Browser libraries from npm (pinned in package-lock.json), served as they are: the charts' uPlot,
# the join links' QR codes (qrcode-generator).
VENDOR_URL = "/vendor/"
VENDOR_FILES = {
    "uplot/uPlot.esm.js": ROOT / "node_modules" / "uplot" / "dist" / "uPlot.esm.js",
    "uplot/uPlot.min.css": ROOT / "node_modules" / "uplot" / "dist" / "uPlot.min.css",
    "qrcode/qrcode.mjs": ROOT / "node_modules" / "qrcode-generator" / "dist" / "qrcode.mjs",
}
RULES_URL = "/referee/rules.zip"
MESSAGES_URL = "/referee/messages/"  # + <lang>.json: the server's catalogs for the phone's referee
# Shell files that are sources of the project rather than part of the app.
NOT_SHELL = {"sw.js", "icons/make_icons.py"}
# A fixed date for every zip entry, so the same files always give the same bytes and hash.
ZIP_DATE = (2020, 1, 1, 0, 0, 0)

blp = Blueprint("bundle", __name__)


@dataclass(frozen=True)
class CacheGroup:
    """Files cached together under one version: the hash of their names and contents."""

    name: str
    version: str
    urls: tuple[str, ...]


def _digest(chunks: list[bytes]) -> str:
    sha = hashlib.sha256()
    for chunk in chunks:
        sha.update(hashlib.sha256(chunk).digest())
    return sha.hexdigest()[:16]


def rules_sources() -> list[Path]:
    """The files the phone's referee imports: the `api` package marker and all of `api/rules`."""
    return [ROOT / "api" / "__init__.py", *sorted((ROOT / "api" / "rules").rglob("*.py"))]


def build_rules_zip() -> bytes:
    """`api/rules` as a zip for Pyodide's `unpackArchive`: sorted entries, fixed dates, same bytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in rules_sources():
            info = zipfile.ZipInfo(path.relative_to(ROOT).as_posix(), ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    return buffer.getvalue()


@lru_cache(maxsize=1)
def rules_zip() -> bytes:
    return build_rules_zip()


def shell_files() -> list[str]:
    return sorted(
        path.relative_to(PWA_DIR).as_posix()
        for path in PWA_DIR.rglob("*")
        if path.is_file() and path.relative_to(PWA_DIR).as_posix() not in NOT_SHELL
    )


@lru_cache(maxsize=1)
def precache() -> tuple[CacheGroup, ...]:
    """The service worker's cache groups. The referee's groups are only there when Pyodide is
    installed (`make` does it); without it the app runs with the server as its referee."""
    shell = shell_files()
    groups = [
        CacheGroup(
            "shell",
            _digest([name.encode() + b"\0" + (PWA_DIR / name).read_bytes() for name in shell]),
            ("./", *shell),
        )
    ]
    if all((PYODIDE_DIR / name).is_file() for name in PYODIDE_FILES):
        groups.append(
            CacheGroup(
                "pyodide",
                _digest([(PYODIDE_DIR / name).read_bytes() for name in PYODIDE_FILES]),
                tuple(PYODIDE_URL + name for name in PYODIDE_FILES),
            )
        )
        groups.append(CacheGroup("rules", _digest([rules_zip()]), (RULES_URL,)))
    if all(path.is_file() for path in VENDOR_FILES.values()):
        groups.append(
            CacheGroup(
                "vendor",
                _digest([path.read_bytes() for path in VENDOR_FILES.values()]),
                tuple(VENDOR_URL + name for name in VENDOR_FILES),
            )
        )
    languages = [language for language in available() if language != "en"]
    groups.append(
        CacheGroup(
            "messages",
            _digest([messages_json(language) for language in languages]),
            tuple(f"{MESSAGES_URL}{language}.json" for language in languages),
        )
    )
    return tuple(groups)


def referee_bytes() -> int:
    """What a phone downloads once for its referee: Pyodide's files and the rules zip."""
    return sum((PYODIDE_DIR / name).stat().st_size for name in PYODIDE_FILES) + len(rules_zip())


@blp.get("/sw.js")
def service_worker() -> Response:
    manifest = [{"name": g.name, "version": g.version, "urls": list(g.urls)} for g in precache()]
    source = (PWA_DIR / "sw.js").read_text(encoding="utf-8")
    body = source.replace("self.__PRECACHE__", json.dumps(manifest, separators=(",", ":")))
    response = Response(body, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    return response


@blp.get(RULES_URL)
def rules_archive() -> Response:
    response = send_file(io.BytesIO(rules_zip()), mimetype="application/zip", etag=False)
    response.headers["Cache-Control"] = "no-cache"
    response.set_etag(_digest([rules_zip()]))
    return response


@blp.get(MESSAGES_URL + "<language>.json")
def messages(language: str) -> Response:
    if language not in available() or language == "en":
        abort(404)
    response = Response(messages_json(language), mimetype="application/json")
    response.headers["Cache-Control"] = "no-cache"
    return response


@blp.get(PYODIDE_URL + "<name>")
def pyodide_file(name: str) -> Response:
    if name not in PYODIDE_FILES or not (PYODIDE_DIR / name).is_file():
        abort(404)
    response = send_file(PYODIDE_DIR / name)
    if name.endswith(".wasm"):
        response.mimetype = "application/wasm"  # compiled while it streams in
    elif name.endswith((".mjs", ".js")):
        response.mimetype = "text/javascript"
    return response


@blp.get(VENDOR_URL + "<path:name>")
def vendor_file(name: str) -> Response:
    path = VENDOR_FILES.get(name)
    if path is None or not path.is_file():
        abort(404)
    response = send_file(path)
    if name.endswith((".js", ".mjs")):
        response.mimetype = "text/javascript"
    return response

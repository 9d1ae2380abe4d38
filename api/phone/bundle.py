"""What a phone's referee is made of: Pyodide and the server's own `api/rules`, zipped from the files
on disk when the server starts, so the phone's rules can never be older than the server's.

api/phone/static_build.py puts them (with the app shell) under content-hashed names in var/static/.
"""

from __future__ import annotations

import io
import zipfile
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
PYODIDE_DIR = ROOT / "node_modules" / "pyodide"
# What Pyodide loads from its folder to run pure-Python code (no packages from its index are
# needed); its standard library comes cut to what the rules need (api/phone/stdlib_cut.py).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "pyodide-lock.json")
# A fixed date for every zip entry, so the same files always give the same bytes and hash.
ZIP_DATE = (2020, 1, 1, 0, 0, 0)


def rules_sources() -> list[Path]:
    """The files the phone's referee imports: the `api` package marker and all of `api/rules`."""
    return [ROOT / "api" / "__init__.py", *sorted((ROOT / "api" / "rules").rglob("*.py"))]


def build_rules_zip() -> bytes:
    """`api/rules` as a zip for Pyodide's `unpackArchive`: sorted entries, fixed dates, same bytes.
    Stored uncompressed: the server sends it brotli-compressed as a whole."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for path in rules_sources():
            archive.writestr(zipfile.ZipInfo(path.relative_to(ROOT).as_posix(), ZIP_DATE), path.read_bytes())
    return buffer.getvalue()


@lru_cache(maxsize=1)
def rules_zip() -> bytes:
    return build_rules_zip()

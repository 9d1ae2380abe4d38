"""The phone's Python compiled ahead of time (issue 36: the referee's cold start).

Under Pyodide every cold start of the referee compiled the cut standard library and the rules from
source again (its file system lives in memory, so nothing compiled is kept between pages). The
build compiles them once instead, with this server's CPython when it is the same minor version as
Pyodide's (bytecode is stable within one minor version): unchecked hash-based `.pyc` (PEP 552), so
the phone never compares them with a source's date. Another CPython leaves the zips as they are.

- The standard library (a zip Pyodide imports from, `zipimport`): each module as `.pyc` only,
  without line tables (a traceback inside the standard library names no line) and compiled as under
  `python -OO` (no docstrings, no asserts): with line tables the zip is 742 KB on the wire instead of
  268 KB as sources, without them 446 KB, lean 431 KB.
- Compiled in a fresh interpreter (`python -I`, hash seed 0): marshal marks an object it writes
  as shared by its reference count, so the bytes depend on everything the compiling process has
  loaded; every process of a server (and the test suite) must get the same bytes, since one
  process's index.html and sw.js name the zip by its hash for all of them.
- The rules stay sources: compiling them ahead saved no measurable time for 155 KB more
  (benchmarks/referee_start.py; `with_pycache` is what that measures).
"""

from __future__ import annotations

import importlib.util
import io
import json
import subprocess
import sys
import zipfile
from collections.abc import Callable
from importlib._bootstrap_external import _code_to_hash_pyc  # type: ignore[attr-defined]
from pathlib import Path, PurePosixPath
from types import CodeType


def pyodide_python(lock: Path) -> tuple[int, int] | None:
    """Pyodide's Python (major, minor), from its lock file."""
    try:
        version = json.loads(lock.read_text())["info"]["python"]
    except (OSError, KeyError, ValueError):
        return None
    major, minor = (int(part) for part in version.split(".")[:2])
    return major, minor


def same_python(lock: Path) -> bool:
    return pyodide_python(lock) == sys.version_info[:2]


def cache_tag() -> str:
    """The name part of a cached module (`cpython-311`): Pyodide's is CPython's of its version."""
    return str(sys.implementation.cache_tag)


def _without_lines(code: CodeType) -> CodeType:
    consts = tuple(_without_lines(c) if isinstance(c, CodeType) else c for c in code.co_consts)
    return code.replace(co_linetable=b"", co_consts=consts)


def pyc(source: bytes, filename: str, lines: bool = True) -> bytes:
    """Without `lines`, lean as well: no docstrings or asserts either (as `python -OO`, which the
    standard library supports), 15 KB less on the wire, which keeps a first visit under 3.5 MB."""
    code = compile(source, filename, "exec", dont_inherit=True, optimize=0 if lines else 2)
    if not lines:
        code = _without_lines(code)
    data: bytes = _code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False)
    return data


def _rewrite(archive: bytes, entries: Callable[[str, bytes], list[tuple[str, bytes]]]) -> bytes:
    buffer = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(archive)) as source,
        zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as out,
    ):
        for info in source.infolist():
            for name, data in entries(info.filename, source.read(info)):
                out.writestr(zipfile.ZipInfo(name, info.date_time), data)
    return buffer.getvalue()


def sourceless_stable(archive: bytes, mounted_at: str, lines: bool = False) -> bytes:
    """`sourceless`, the same bytes whichever process asks: compiled by a fresh interpreter."""
    # This file alone, by its path: the fresh interpreter imports nothing but the standard library.
    code = (
        "import importlib.util as u; "
        f"s = u.spec_from_file_location('kibitz_pyc', {str(Path(__file__).resolve())!r}); "
        "m = u.module_from_spec(s); s.loader.exec_module(m); m._main()"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-c", code, mounted_at, "lines" if lines else "no-lines"],
        input=archive, capture_output=True, check=True, env={"PYTHONHASHSEED": "0"},
    )  # fmt: skip
    return done.stdout


def _main() -> None:
    """stdin: a zip of sources → stdout: `sourceless` of it (argv: where it is mounted, lines)."""
    mounted_at, lines = sys.argv[1], sys.argv[2] == "lines"
    sys.stdout.buffer.write(sourceless(sys.stdin.buffer.read(), mounted_at, lines))


def sourceless(archive: bytes, mounted_at: str, lines: bool = False) -> bytes:
    """Every `.py` of a zip replaced by its `.pyc` (for `zipimport`, which prefers it)."""

    def entries(name: str, data: bytes) -> list[tuple[str, bytes]]:
        if not name.endswith(".py"):
            return [(name, data)]
        return [(name + "c", pyc(data, f"{mounted_at}/{name}", lines))]

    return _rewrite(archive, entries)


def with_pycache(archive: bytes, unpacked_at: str, tag: str) -> bytes:
    """Every `.py` of a zip kept, its `__pycache__/<stem>.<tag>.pyc` beside it."""

    def entries(name: str, data: bytes) -> list[tuple[str, bytes]]:
        if not name.endswith(".py"):
            return [(name, data)]
        path = PurePosixPath(name)
        cached = path.parent / "__pycache__" / f"{path.stem}.{tag}.pyc"
        return [(name, data), (str(cached), pyc(data, f"{unpacked_at}/{name}"))]

    return _rewrite(archive, entries)

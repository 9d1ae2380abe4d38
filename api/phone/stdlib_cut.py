"""The standard library the phone downloads: Pyodide's python_stdlib.zip cut to the modules its
referee imports (api/phone/referee_stdlib.txt, traced by `python -m devtools.stdlib_trace`).

The full zip is 2.3 MB of which the rules use a small part. The modules lose their docstrings (as
under `python -OO`, which the standard library is tested with; Pyodide's own packages keep theirs,
it reads some at run time): 470 KB less 200 KB on the wire. The cut zip stores its entries
uncompressed: the server sends it brotli- or gzip-compressed as a whole, which packs far better
than deflating each file on its own.
"""

from __future__ import annotations

import ast
import io
import zipfile
from pathlib import Path

MODULE_LIST = Path(__file__).resolve().parent / "referee_stdlib.txt"
ZIP_DATE = (2020, 1, 1, 0, 0, 0)
KEEP_DOCSTRINGS = ("pyodide/", "_pyodide/")
DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def without_docstrings(source: bytes) -> bytes:
    """The module's code without its docstrings (comments go too: it is written back from its tree)."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, DOCUMENTED) and node.body:
            first = node.body[0]
            value = first.value if isinstance(first, ast.Expr) else None
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                node.body = node.body[1:] or [ast.Pass()]
    return (ast.unparse(tree) + "\n").encode()


def traced_modules() -> list[str]:
    lines = MODULE_LIST.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def module_files(names: list[str], entries: set[str]) -> set[str]:
    """The zip entries that hold these modules and the packages they sit in."""
    files: set[str] = set()
    for name in names:
        parts = name.split(".")
        for depth in range(1, len(parts)):
            package = "/".join(parts[:depth]) + "/__init__.py"
            if package in entries:
                files.add(package)
        stem = "/".join(parts)
        files |= {candidate for candidate in (f"{stem}.py", f"{stem}/__init__.py") if candidate in entries}
    return files


def cut_stdlib(full_zip: bytes, names: list[str]) -> bytes:
    """A zip of only these modules' files: sorted entries, fixed dates, the same bytes every time."""
    with zipfile.ZipFile(io.BytesIO(full_zip)) as full:
        keep = sorted(module_files(names, set(full.namelist())))
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as cut:
            for name in keep:
                data = full.read(name)
                if name.endswith(".py") and not name.startswith(KEEP_DOCSTRINGS):
                    data = without_docstrings(data)
                cut.writestr(zipfile.ZipInfo(name, ZIP_DATE), data)
    return buffer.getvalue()

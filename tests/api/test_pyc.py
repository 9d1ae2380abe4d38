"""The phone's standard library compiled ahead (api/phone/pyc.py, issue 36): what zipimport loads
from it behaves like the source, errors still raise with their traceback, and every process of a
server builds the same bytes (the zip's hashed name must not depend on the process's hash seed:
index.html and sw.js of one process name it for the others)."""

from __future__ import annotations

import hashlib
import io
import os
import subprocess
import sys
import zipfile
import zipimport
from pathlib import Path

import pytest

from api.phone import pyc, static_build

ROOT = Path(__file__).resolve().parents[2]
SOURCE = b'''"""A module with a docstring."""
CHOICES = frozenset({"red", "yellow", "green"})


def pick(colour: str) -> str:
    if colour not in CHOICES:
        raise ValueError(f"no {colour}")
    return colour.upper()
'''


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_a_sourceless_zip_imports_and_raises_like_its_source(tmp_path: Path) -> None:
    compiled = pyc.sourceless(_zip({"colours/__init__.py": b"", "colours/pick.py": SOURCE}), "/lib/x.zip")
    with zipfile.ZipFile(io.BytesIO(compiled)) as archive:
        assert sorted(archive.namelist()) == ["colours/__init__.pyc", "colours/pick.pyc"]
    path = tmp_path / "lib.zip"
    path.write_bytes(compiled)
    importer = zipimport.zipimporter(str(path / "colours"))
    spec = importer.find_spec("colours.pick")
    assert spec is not None and spec.loader is not None
    module = type(sys)("colours.pick")
    spec.loader.exec_module(module)
    assert module.pick("red") == "RED"
    assert module.__doc__ is None  # lean, as `python -OO`: the docstrings stay on the server
    with pytest.raises(ValueError, match="no blue") as raised:
        module.pick("blue")
    assert raised.traceback  # no line table: the frames are there, without line numbers


@pytest.mark.skipif(not pyc.same_python(static_build.PYODIDE_LOCK), reason="not Pyodide's CPython")
def test_the_compiled_stdlib_is_the_same_in_every_process() -> None:
    """Compiled afresh (not from the build's kept copy) here, in a loaded test process, and in
    processes with other hash seeds: one result."""
    script = (
        "import hashlib; from api.phone import pyc, static_build; "
        "cut = static_build.referee_stdlib(compiled=False); "
        "print(hashlib.sha256(pyc.sourceless_stable(cut, static_build.STDLIB_AT)).hexdigest())"
    )
    digests = {
        subprocess.run(
            [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout.strip()
        for seed in ("1", "2")
    }  # fmt: skip
    cut = static_build.referee_stdlib(compiled=False)
    here = pyc.sourceless_stable(cut, static_build.STDLIB_AT)
    assert digests == {hashlib.sha256(here).hexdigest()}
    assert static_build.referee_stdlib() == here  # what the build serves
    with zipfile.ZipFile(io.BytesIO(here)) as archive:
        names = archive.namelist()
    assert names and all(not name.endswith(".py") for name in names)

"""examples/third_party_client.py — a whole Mahé game and a Mhing hand played through nothing but
the client openapi-python-client generates from openapi.yaml — runs against a real gunicorn."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.gunicorn


def test_the_example_plays_mahe_and_scores_mhing(tmp_path: Path, live_server: str) -> None:
    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    subprocess.run(
        [str(bin_dir / "openapi-python-client"), "generate", "--path", str(ROOT / "openapi.yaml"),
         "--meta", "none", "--output-path", str(tmp_path / "kibitz_client")],
        check=True, capture_output=True, cwd=tmp_path, env=env,
    )  # fmt: skip
    ran = subprocess.run(
        [sys.executable, str(ROOT / "examples/third_party_client.py"), live_server],
        capture_output=True, text=True, timeout=300, env={**env, "PYTHONPATH": str(tmp_path)},
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr[-3000:]
    summary = json.loads(ran.stdout)
    mahe, mhing = summary["mahe"], summary["mhing"]
    assert mahe["winners"] and mahe["ranking"][0][2] == 1  # MA-7: a finished game has a winner
    assert mahe["first_page"] == list(range(1, 51)) and mahe["next_after"] == 50
    assert mhing["wins"] is True and mhing["pair"] == "k2 k2"  # MH-5: four groups and a pair
    assert mhing["points"] > 0 and "flower" in mhing["premiums"]  # MH-6, MH-8

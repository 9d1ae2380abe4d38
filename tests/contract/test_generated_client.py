"""Third parties can integrate from the document alone: a client generated from openapi.yaml by
openapi-python-client creates a table and plays events against a real gunicorn."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.gunicorn


@pytest.fixture(scope="module")
def kibitz_client(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    out = tmp_path_factory.mktemp("generated")
    generator = Path(sys.executable).parent / "openapi-python-client"
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    subprocess.run(
        [
            str(generator),
            "generate",
            "--path",
            str(ROOT / "openapi.yaml"),
            "--meta",
            "none",
            "--output-path",
            str(out / "kibitz_client"),
        ],
        check=True,
        cwd=out,
        env=env,
        capture_output=True,
    )
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module("kibitz_client")
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m == "kibitz_client" or m.startswith("kibitz_client.")]:
            del sys.modules[name]


def test_generated_client_creates_a_table_and_plays(kibitz_client: ModuleType, live_server: str) -> None:
    models = importlib.import_module("kibitz_client.models")
    create = importlib.import_module("kibitz_client.api.tables.create_table")
    append = importlib.import_module("kibitz_client.api.tables.append_event")
    read = importlib.import_module("kibitz_client.api.tables.get_table")
    games = importlib.import_module("kibitz_client.api.games.list_games")

    client = kibitz_client.Client(base_url=live_server)
    assert "mahe" in [game.name for game in games.sync(client=client)]

    body = models.CreateMaheTable.from_dict(
        {
            "game": "mahe",
            "players": [
                {"name": "Eva", "colours": ["red"]},
                {"name": "Tom", "colours": ["green"]},
                {"name": "Ida", "colours": ["black"]},
                {"name": "Jo", "colours": ["purple"]},
            ],
            "options": {"chance": "physical"},
        }
    )
    created = create.sync(client=client, body=body)
    assert isinstance(created, models.CreatedTable)
    writer = kibitz_client.AuthenticatedClient(base_url=live_server, token=created.write_token)
    version = created.table.version
    for event in (
        {"type": "reveal_card", "value": 4},
        {"type": "die", "value": 2},
        {"type": "die", "value": 4},
        {"type": "stop"},
    ):
        answer = append.sync(
            created.id,
            client=writer,
            body=models.Append.from_dict({"expected_version": version, "event": event}),
            idempotency_key=f"gen-{version}",
        )
        assert isinstance(answer, models.Appended), answer
        version = answer.table.version
    table = read.sync(created.id, client=client)
    assert table.version == 4
    # Typed per game from the document alone: a Mahé table's state is a MaheView.
    assert isinstance(table, models.MaheTable) and isinstance(table.state, models.MaheView)
    assert table.state.track[11] == ["red"]  # 2 then 4: 12 fields (MA-3)

    refused = append.sync(
        created.id,
        client=writer,
        body=models.Append.from_dict({"expected_version": 0, "event": {"type": "stop"}}),
    )
    assert isinstance(refused, models.Problem) and refused.code == "stale-version"

"""Start one service of a deployment: `service.py --prefix P NAME` (systemd units and supervise.py
both start every service through this, so the commands live in one place: PREFIX/etc/services.json,
written by deploy/kibitz_deploy.py, with the settings of PREFIX/etc/kibitz.env)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path


def read_env(prefix: Path) -> dict[str, str]:
    env: dict[str, str] = {}
    for line in (prefix / "etc" / "kibitz.env").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            key, _, value = line.partition("=")
            env[key.strip()] = value.strip()
    return env


def command(prefix: Path, name: str) -> tuple[list[str], dict[str, str], Path]:
    """The argv, environment and working folder of service `name`."""
    spec = json.loads((prefix / "etc" / "services.json").read_text())[name]
    env = {**os.environ, **read_env(prefix), **spec.get("env", {})}
    return list(spec["argv"]), env, prefix / "app"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--prefix", type=Path, required=True)
    parser.add_argument("name")
    args = parser.parse_args(argv)
    cmd, env, cwd = command(args.prefix, args.name)
    os.chdir(cwd)
    os.execvpe(cmd[0], cmd, env)
    return 1  # not reached


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

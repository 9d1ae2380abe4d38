"""Restore a deployment from one backup folder: `restore.py --prefix P PREFIX/backups/<time>`.

Checks every file against the manifest first; puts the record key back (refusing to replace a
different key that is there, unless --replace-key: a server's key is what its records verify
under); recreates the database from the dump (every table, every record); brings the schema to the
migrations' head. Then restart the app servers (`supervise.py restart app-N`, or
`systemctl restart kibitz.target`): they read the key at start.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pgurl import libpq_url, split_database  # noqa: E402
from service import command, read_env  # noqa: E402


def restore(prefix: Path, source: Path, replace_key: bool = False) -> None:
    env = read_env(prefix)
    manifest = json.loads((source / "manifest.json").read_text())
    for name, digest in manifest["files"].items():
        if hashlib.sha256((source / name).read_bytes()).hexdigest() != digest:
            raise SystemExit(f"{source / name} does not match its manifest: not restoring from this backup")
    saved_key = source / "record-key.pem"
    key = Path(env["KIBITZ_RECORD_KEY"])
    if saved_key.exists():
        if key.exists() and key.read_bytes() != saved_key.read_bytes() and not replace_key:
            raise SystemExit(f"{key} is a different key than the backup's; pass --replace-key to replace it")
        key.parent.mkdir(parents=True, exist_ok=True)
        tmp = key.with_suffix(".restoring")
        shutil.copyfile(saved_key, tmp)
        os.chmod(tmp, 0o600)
        tmp.rename(key)
    pg = Path(env["KIBITZ_PG_BIN"])
    admin, name = split_database(env["DATABASE_URL"])
    quoted = '"' + name.replace('"', '""') + '"'
    psql = [str(pg / "psql"), "-v", "ON_ERROR_STOP=1", "-q", admin, "-c"]
    subprocess.run([*psql, f"DROP DATABASE IF EXISTS {quoted} WITH (FORCE)"], check=True)
    subprocess.run([*psql, f"CREATE DATABASE {quoted}"], check=True)
    url = libpq_url(env["DATABASE_URL"])
    subprocess.run([str(pg / "pg_restore"), "--no-owner", "--exit-on-error", "-d", url,
                    str(source / "kibitz.dump")], check=True)  # fmt: skip
    specs = json.loads((prefix / "etc" / "services.json").read_text())
    argv, app_env, cwd = command(prefix, next(n for n in specs if n.startswith("app-")))
    python = str(Path(argv[0]).with_name("python"))
    subprocess.run([python, "-m", "api.db.migrate"], env=app_env, cwd=cwd, check=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--prefix", type=Path, required=True)
    parser.add_argument("--replace-key", action="store_true")
    parser.add_argument("backup", type=Path)
    args = parser.parse_args(argv)
    restore(args.prefix.resolve(), args.backup.resolve(), args.replace_key)
    print(f"restored from {args.backup}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

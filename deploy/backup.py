"""Back up a deployment: the database (pg_dump's custom format) and the record-signing key.

`backup.py --prefix P` writes PREFIX/backups/<UTC time>/ with kibitz.dump, record-key.pem and
manifest.json (each file's SHA-256, the record key's id), built in a hidden folder and renamed into
place, so a backup folder is always whole; keeps the newest KIBITZ_KEEP_BACKUPS. Run on a schedule
by kibitz-backup.timer (systemd) or deploy/supervise.py. The key is the one secret that makes the
records verifiable: copy the backups folder off the machine (docs/deploy.md, "Backups").
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pgurl import libpq_url  # noqa: E402
from service import read_env  # noqa: E402


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def backup(prefix: Path) -> Path:
    env = read_env(prefix)
    folder = Path(env["KIBITZ_BACKUP_DIR"])
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    final = folder / stamp
    n = 1
    while final.exists():
        n += 1
        final = folder / f"{stamp}-{n}"
    work = folder / f".{final.name}.partial"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(mode=0o700, parents=True)
    pg_dump = str(Path(env["KIBITZ_PG_BIN"]) / "pg_dump")
    dump = work / "kibitz.dump"
    url = libpq_url(env["DATABASE_URL"])
    subprocess.run([pg_dump, "--format=custom", "--no-owner", "--file", str(dump), url],
                   check=True)  # fmt: skip
    key = Path(env["KIBITZ_RECORD_KEY"])
    manifest: dict[str, object] = {"created": stamp, "files": {"kibitz.dump": sha256(dump)}}
    if key.exists():
        copy = work / "record-key.pem"
        shutil.copyfile(key, copy)
        os.chmod(copy, 0o600)
        manifest["files"]["record-key.pem"] = sha256(copy)  # type: ignore[index]
    (work / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    work.rename(final)
    keep = int(env.get("KIBITZ_KEEP_BACKUPS", "48"))
    old = sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))
    for stale in old[:-keep] if keep > 0 else []:
        shutil.rmtree(stale)
    return final


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--prefix", type=Path, required=True)
    args = parser.parse_args(argv)
    print(backup(args.prefix.resolve()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

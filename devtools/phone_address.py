"""The address phones open, as a QR code in the terminal (`make serve`, `make serve-home`).

A phone cannot open the laptop's 127.0.0.1, and on the laptop's network address over plain HTTP the
browser refuses the service worker and "Add to home screen" (no secure context), so the offline
referee never arrives. The address that works at home is HTTPS on the laptop's network address with
the certificate `make serve-home` makes (deploy/, `tls internal`); this prints that address and its
QR code, or, when there is none yet, says how to get one. The QR code is drawn by the same pinned
npm package the app draws its own with (qrcode-generator), in Unicode half blocks.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOME_PREFIX = ROOT / "var" / "home"


def lan_address() -> str:
    """The address this machine reaches its network with (no packet is sent: a UDP socket's route)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        try:
            sock.connect(("192.0.2.1", 9))  # TEST-NET-1: only the route is looked up
            return str(sock.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def qr_matrix(text: str) -> list[list[bool]]:
    script = (
        "const q = require('qrcode-generator')(0, 'M'); q.addData(process.argv[1]); q.make();"
        "const n = q.getModuleCount(); const rows = [];"
        "for (let r = 0; r < n; r++) { const row = []; for (let c = 0; c < n; c++) row.push(q.isDark(r, c));"
        " rows.push(row); } console.log(JSON.stringify(rows));"
    )
    done = subprocess.run(["node", "-e", script, text], cwd=ROOT, capture_output=True, text=True, check=True)
    return [[bool(cell) for cell in row] for row in json.loads(done.stdout)]


def render(matrix: list[list[bool]]) -> str:
    """Two rows of modules per line of text, with the quiet zone the scanners need (dark on light)."""
    size = len(matrix)
    quiet = 2
    grid = [[False] * (size + 2 * quiet) for _ in range(quiet)]
    grid += [[False] * quiet + row + [False] * quiet for row in matrix]
    grid += [[False] * (size + 2 * quiet) for _ in range(quiet + 1)]
    lines = []
    for top, bottom in zip(grid[0::2], grid[1::2], strict=False):
        chars = {(False, False): "█", (True, False): "▄", (False, True): "▀", (True, True): " "}
        lines.append("".join(chars[(a, b)] for a, b in zip(top, bottom, strict=True)))
    return "\n".join(lines)


def home_url() -> str | None:
    env = HOME_PREFIX / "etc" / "kibitz.env"
    if not env.exists():
        return None
    for line in env.read_text().splitlines():
        if line.startswith("KIBITZ_PUBLIC_URL="):
            return line.split("=", 1)[1].strip()
    return None


def main() -> int:
    url = home_url()
    if url is None:
        print(
            "Phones cannot use this address (127.0.0.1 is the laptop itself). For phones at home run "
            "`make serve-home`: HTTPS on this laptop's network address with a certificate of its own; "
            "docs/deploy.md and the README's players' section say how a phone trusts it.",
            flush=True,
        )
        return 0
    try:
        picture = render(qr_matrix(url))
    except (OSError, subprocess.CalledProcessError, ValueError):
        picture = "(no QR code: Node's qrcode-generator is missing; run `make install`)"
    root = HOME_PREFIX / "caddy" / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
    print(f"\nPhones on this network open {url}\n\n{picture}\n", flush=True)
    print(f"A phone trusts this laptop's certificate once it has installed {root} (README).", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

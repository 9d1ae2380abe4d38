"""`make serve` and `make serve-home` print the address phones open as a QR code in the terminal:
the code a phone's camera reads must be that address (decoded here with jsQR, as the share-sheet
browser test decodes the app's own codes)."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from devtools.phone_address import ROOT, qr_matrix, render

DECODE = """
const jsQR = require('jsqr');
const rows = JSON.parse(process.argv[1]); const scale = 4; const n = rows.length * scale;
const pixels = new Uint8ClampedArray(n * n * 4);
for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) {
  const ch = rows[Math.floor(y / scale)][Math.floor(x / scale)];
  const v = ch ? 0 : 255; const i = (y * n + x) * 4;
  pixels[i] = pixels[i + 1] = pixels[i + 2] = v; pixels[i + 3] = 255;
}
const found = jsQR(pixels, n, n); console.log(found ? found.data : '');
"""


def test_the_terminal_qr_code_reads_as_the_address() -> None:
    if shutil.which("node") is None or not (ROOT / "node_modules" / "jsqr").exists():
        pytest.skip("node and the npm packages are needed (make install)")
    url = "https://192.168.1.20:8443/"
    picture = render(qr_matrix(url))
    # Back from the half blocks to modules (a terminal's light cell is the code's light module),
    # the way a camera sees the screen: dark modules where the terminal shows its background.
    halves = {"█": (False, False), "▄": (True, False), "▀": (False, True), " ": (True, True)}
    grid: list[list[bool]] = []
    for line in picture.splitlines():
        cells = [halves[ch] for ch in line]
        grid.append([top for top, _ in cells])
        grid.append([bottom for _, bottom in cells])
    decoded = subprocess.run(
        ["node", "-e", DECODE, json.dumps(grid)], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert decoded == url

"""`python -m devtools.stdlib_trace`: which standard library modules the phone's referee needs.

Runs Pyodide in node (devtools/stdlib_trace.mjs) with its full standard library, boots it as the
phone does, unpacks the rules zip and plays the differential test's whole games through
`Referee.handle` (every game, mode and chance kind; tests/browser/test_referee_differential.py),
then lists every module that came from the standard library zip: what Pyodide imports at boot
plus what the rules add. The list goes to api/phone/referee_stdlib.txt, from which the build cuts
the zip the phone downloads; tests/api/test_static_build.py checks it is current, and the browser
referee tests run on the cut zip.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from api.phone.bundle import PYODIDE_DIR, ROOT, build_rules_zip
from api.phone.stdlib_cut import MODULE_LIST

HEADER = """\
# The standard library modules the phone's referee imports under Pyodide: what Pyodide itself imports
# at boot, plus what running api/rules adds. Written by `python -m devtools.stdlib_trace`; the phone
# downloads only these (api/phone/stdlib_cut.py).
"""


def trace() -> list[str]:
    from tests.browser.test_referee_differential import GAMES

    with tempfile.TemporaryDirectory() as tmp:
        rules, requests = Path(tmp) / "rules.zip", Path(tmp) / "requests.json"
        rules.write_bytes(build_rules_zip())
        requests.write_text(json.dumps([game.request() for game in GAMES]), encoding="utf-8")
        script = ROOT / "devtools" / "stdlib_trace.mjs"
        run = subprocess.run(
            ["node", str(script), str(PYODIDE_DIR), str(rules), str(requests)],
            capture_output=True,
            text=True,
            check=True,
        )
    found = json.loads(run.stdout)
    if found["refused"]:
        raise SystemExit(f"{found['refused']} of the traced requests were refused: the trace is not whole")
    from_zip = {name for name, file in found["all"].items() if file and "/python311.zip/" in file}
    return sorted(from_zip)


def listing(modules: list[str]) -> str:
    return HEADER + "\n".join(modules) + "\n"


def main() -> None:
    modules = trace()
    MODULE_LIST.write_text(listing(modules), encoding="utf-8")
    print(f"{MODULE_LIST.relative_to(ROOT)}: {len(modules)} modules", file=sys.stderr)


if __name__ == "__main__":
    main()

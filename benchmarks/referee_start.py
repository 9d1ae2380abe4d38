"""`python -m benchmarks.referee_start`: where the phone's referee spends its cold start, and what
compiling its Python ahead (api/phone/pyc.py) saves — variants side by side in the same run.

An installed phone (Debian's Chromium, 360×740; the service worker holds Pyodide) opens the app;
once the app's own referee is up, new referee workers are started one after another from that page,
each a cold start of its own (a new Pyodide: module, WebAssembly instance, standard library, rules).
The variants differ only in the two zips the worker is handed (served beside the build under
/bench/), taken in turn so that whatever else runs on the machine weighs on
each alike:

- sources: the standard library and the rules as Python sources (compiled on the phone each time,
  as before);
- stdlib compiled: the standard library as `.pyc` without line tables, the rules as sources (what
  the build serves now);
- all compiled: the standard library as `.pyc` with line tables, the rules with their `.pyc`.

Reported: the median from `new Worker` to the referee's answer, its steps (the worker's own clock:
module imported, Pyodide booted with its standard library, rules unpacked, rules imported), each
variant's ratio to "sources", and the bytes each zip costs on the wire (brotli).
"""

from __future__ import annotations

import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import brotli

from api.db.migrate import upgrade
from api.phone import static_build
from devtools.gunicorn import GunicornProcess
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE

ROUNDS = 7
TIMEOUT_MS = 180_000
SETTLE_SECONDS = 5

BOOT = """async ([stdlib, rules]) => {
  const imports = JSON.parse(document.querySelector('script[type=importmap]').textContent).imports;
  const start = performance.now();
  const worker = new Worker(imports['/js/referee/worker.js'], { type: 'module' });
  const answer = await new Promise((resolve, reject) => {
    worker.onmessage = ({ data }) => data.failure ? reject(new Error(data.failure)) : resolve(data.answer);
    worker.onerror = (e) => reject(new Error(e.message));
    const at = (name) => `${location.origin}/bench/${name}.zip`;
    const pyodide = location.origin + imports['/vendor/pyodide/'];
    worker.postMessage({ id: 1, request: null, boot: { pyodide, stdlib: at(stdlib), rules: at(rules) } });
  });
  const total = performance.now() - start;
  worker.terminate();
  return { total, steps: JSON.parse(answer) };
}"""
READY = """async () => {
  await navigator.serviceWorker.ready;
  const client = await import('/js/referee/client.js');
  return client.startReferee();
}"""
VARIANTS = {
    "sources": ("stdlib-source", "rules-source"),
    "stdlib compiled": ("stdlib-compiled", "rules-source"),
    "all compiled": ("stdlib-lines", "rules-compiled"),
}


def zips() -> dict[str, bytes]:
    return {
        "stdlib-source": static_build.referee_stdlib(compiled=False),
        "stdlib-compiled": static_build.referee_stdlib(compiled=True),
        "stdlib-lines": static_build.referee_stdlib(compiled=True, lines=True),
        "rules-source": static_build.referee_rules(compiled=False),
        "rules-compiled": static_build.referee_rules(compiled=True),
    }


def measure() -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    static_build.ensure_built()
    made = zips()
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in VARIANTS}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        url = f"sqlite:///{folder / 'bench.sqlite3'}"
        upgrade(url)
        # The build as served, plus each variant's zips under /bench/ (served like the app's files).
        served = folder / "static"
        shutil.copytree(static_build.STATIC_DIR, served)
        (served / "bench").mkdir()
        for name, data in made.items():
            (served / "bench" / f"{name}.zip").write_bytes(data)
        env = {"KIBITZ_STATIC_DIR": str(served)}
        with (
            GunicornProcess(url, folder / "gunicorn.log", env=env) as server,
            sync_playwright() as playwright,
        ):
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            context = browser.new_context(**PHONE)
            context.set_default_timeout(TIMEOUT_MS)
            page = context.new_page()
            page.goto(server.base + "/")
            assert page.evaluate(READY) is True
            page.close()
            time.sleep(SETTLE_SECONDS)
            page = context.new_page()  # a page under the installed worker
            page.goto(server.base + "/")
            assert page.evaluate(READY) is True
            for pair in VARIANTS.values():  # warm-up: the first start compiles the wasm
                page.evaluate(BOOT, list(pair))
            for _ in range(ROUNDS):
                for name, pair in VARIANTS.items():
                    results[name].append(page.evaluate(BOOT, list(pair)))
            browser.close()
    wire = {name: len(brotli.compress(data, quality=11)) for name, data in made.items()}
    return {"results": results, "wire": wire}


def report(m: dict[str, Any]) -> None:
    results, wire = m["results"], m["wire"]
    base = statistics.median(r["total"] for r in results["sources"])
    print(f"Referee cold start, a new worker in an installed phone's page ({ROUNDS} rounds, median):")
    for name, runs in results.items():
        total = statistics.median(r["total"] for r in runs)
        steps = {k: statistics.median(r["steps"][k] for r in runs) for k in runs[0]["steps"]}
        parts = ", ".join(f"{k} {v / 1000:.2f}" for k, v in steps.items())
        stdlib, rules = VARIANTS[name]
        print(f"  {name:<15} {total / 1000:.2f} s (× {total / base:.2f} of sources)  steps at [{parts}] s; "
              f"wire: stdlib {wire[stdlib]:,} + rules {wire[rules]:,} bytes")  # fmt: skip


def main() -> None:
    report(measure())


if __name__ == "__main__":
    main()

// Runs the phone's referee under Pyodide in node and prints, as JSON, every module it imported:
// {name: file}. Used by devtools/stdlib_trace.py to cut the standard library the phone downloads.
// Usage: node devtools/stdlib_trace.mjs <pyodide dir> <rules.zip> <requests.json>
import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, rulesZip, requestsFile] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.resolve(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: path.resolve(pyodideDir) + "/", fullStdLib: false });
const modules = () =>
  JSON.parse(pyodide.runPython("import json, sys; json.dumps({n: getattr(m, '__file__', None) for n, m in list(sys.modules.items())})"));
const boot = modules();
pyodide.unpackArchive(new Uint8Array(await readFile(rulesZip)), "zip", { extractDir: "/home/pyodide/kibitz" });
pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/kibitz')");
const referee = pyodide.runPython("from api.rules.referee import Referee; Referee()");
let refused = 0;
for (const request of JSON.parse(await readFile(requestsFile, "utf-8"))) {
  const answer = JSON.parse(referee.handle(JSON.stringify(request)));
  if (!answer.ok) refused += 1;
}
// An exception that crosses into JavaScript is formatted by Python's traceback machinery.
try {
  pyodide.runPython("from api.rules.errors import IllegalMove\nraise ValueError('trace')");
} catch {
  // expected
}
process.stdout.write(JSON.stringify({ boot, all: modules(), refused }));

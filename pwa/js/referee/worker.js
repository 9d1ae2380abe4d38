// The phone's referee: the server's own api/rules package running under Pyodide, off the main
// thread. Requests and answers are JSON strings (api.rules.referee.Referee.handle); nothing here
// knows a rule.
import { loadPyodide } from "/vendor/pyodide/pyodide.mjs";

const ready = (async () => {
  const pyodide = await loadPyodide({ indexURL: "/vendor/pyodide/", fullStdLib: false });
  const archive = await fetch("/referee/rules.zip");
  if (!archive.ok) throw new Error(`rules: HTTP ${archive.status}`);
  pyodide.unpackArchive(await archive.arrayBuffer(), "zip", { extractDir: "/home/pyodide/kibitz" });
  pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/kibitz')");
  return pyodide.runPython("from api.rules.referee import Referee; Referee()");
})();

self.onmessage = async ({ data }) => {
  try {
    const referee = await ready;
    const answer = data.request === null ? null : referee.handle(data.request);
    self.postMessage({ id: data.id, answer });
  } catch (err) {
    self.postMessage({ id: data.id, failure: String(err && err.message ? err.message : err) });
  }
};

// The phone's referee: the server's own api/rules package running under Pyodide, off the main
// thread. Requests and answers are JSON strings (api.rules.referee.Referee.handle); nothing here
// knows a rule. The first message names where Pyodide, its standard library (cut to what the rules
// import) and the rules are: content-hashed URLs the page reads from its import map (a worker has
// none of its own).

let ready = null;

async function boot({ pyodide: indexURL, stdlib, rules }) {
  const { loadPyodide } = await import(`${indexURL}pyodide.mjs`);
  const pyodide = await loadPyodide({ indexURL, stdLibURL: stdlib, fullStdLib: false });
  const archive = await fetch(rules);
  if (!archive.ok) throw new Error(`rules: HTTP ${archive.status}`);
  pyodide.unpackArchive(await archive.arrayBuffer(), "zip", { extractDir: "/home/pyodide/kibitz" });
  pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/kibitz')");
  return pyodide.runPython("from api.rules.referee import Referee; Referee()");
}

self.onmessage = async ({ data }) => {
  try {
    if (!ready) ready = boot(data.boot);
    const referee = await ready;
    const answer = data.request === null ? null : referee.handle(data.request);
    self.postMessage({ id: data.id, answer });
  } catch (err) {
    self.postMessage({ id: data.id, failure: String(err && err.message ? err.message : err) });
  }
};

// The phone's referee: the server's own api/rules package running under Pyodide, off the main
// thread. Requests and answers are JSON strings (api.rules.referee.Referee.handle); nothing here
// knows a rule. The first message names where Pyodide, its standard library (cut to what the rules
// import) and the rules are: content-hashed URLs the page reads from its import map (a worker has
// none of its own).

let ready = null;

/** Milliseconds since the worker started, at each step of its boot (benchmarks/referee_start.py). */
const timings = {};
const mark = (step) => (timings[step] = Math.round(performance.now()));

async function boot({ pyodide: indexURL, stdlib, rules }) {
  // The rules download beside Pyodide's start, not after it.
  const archive = fetch(rules).then((answer) => {
    if (!answer.ok) throw new Error(`rules: HTTP ${answer.status}`);
    return answer.arrayBuffer();
  });
  const { loadPyodide } = await import(`${indexURL}pyodide.mjs`);
  mark("module");
  const pyodide = await loadPyodide({ indexURL, stdLibURL: stdlib, fullStdLib: false });
  mark("pyodide");
  pyodide.unpackArchive(await archive, "zip", { extractDir: "/home/pyodide/kibitz" });
  pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/kibitz')");
  mark("unpacked");
  const referee = pyodide.runPython("from api.rules.referee import Referee; Referee()");
  mark("imported");
  return referee;
}

self.onmessage = async ({ data }) => {
  try {
    if (!ready) ready = boot(data.boot);
    const referee = await ready;
    const answer = data.request === null ? JSON.stringify(timings) : referee.handle(data.request);
    self.postMessage({ id: data.id, answer });
  } catch (err) {
    self.postMessage({ id: data.id, failure: String(err && err.message ? err.message : err) });
  }
};

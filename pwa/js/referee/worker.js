// The phone's referee: the server's own api/rules package running under Pyodide, off the main
// thread. Requests and answers are JSON strings (api.rules.referee.Referee.handle); nothing here
// knows a rule. The first message names where Pyodide, its standard library (cut to what the rules
// import) and the rules are: content-hashed URLs the page reads from its import map (a worker has
// none of its own).

/** Where Pyodide, the standard library and the rules are (as client.js sends them). @typedef {{pyodide: string, stdlib: string, rules: string}} Boot */
/** The Python referee (a Pyodide proxy): handle(request JSON) → answer JSON. @typedef {{handle: (request: string) => string}} Referee */

/** @type {Promise<Referee> | null} */
let ready = null;

/**
 * Milliseconds since the worker started, at each step of its boot (benchmarks/referee_start.py).
 * @type {Record<string, number>}
 */
const timings = {};
/** @param {string} step @returns {number} */
const mark = (step) => (timings[step] = Math.round(performance.now()));

/**
 * Start Pyodide with the cut standard library, unpack the rules, make the referee.
 * @param {Boot} urls
 * @returns {Promise<Referee>}
 */
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

self.onmessage = async (/** @type {MessageEvent<{id: number, request: string | null, boot: Boot}>} */ { data }) => {
  try {
    if (!ready) ready = boot(data.boot);
    const referee = await ready;
    const answer = data.request === null ? JSON.stringify(timings) : referee.handle(data.request);
    self.postMessage({ id: data.id, answer });
  } catch (err) {
    const message = err instanceof Error ? err.message : "";
    self.postMessage({ id: data.id, failure: String(message || err) });
  }
};

// Talks to the referee worker (worker.js): started after the first paint, answers promises.
// Without WebAssembly or module workers the phone simply has no local referee and the server
// referees every move, as before.
import { present } from "../dom.js";

/** @typedef {{pyodide: string, stdlib: string, rules: string}} Boot where the worker finds Pyodide, the standard library and the rules */
/** @typedef {{id: number, answer: string | null, failure?: string}} Reply the worker's answer to one message */

/** @type {Worker | null} */
let worker = null;
/** @type {Promise<boolean> | null} */
let started = null;
let nextId = 1;
let isReady = false;
/** @type {Map<number, {resolve: (answer: any) => void, reject: (err: Error) => void}>} */
const waiting = new Map();

/**
 * A URL through the page's import map (hashed names, api/phone/static_build.py) where there is one.
 * @param {string} url
 * @returns {string}
 */
const assetUrl = (url) => (typeof import.meta.resolve === "function" ? import.meta.resolve(url) : new URL(url, import.meta.url).href);

/**
 * @param {object | null} request a referee request, or null with `boot` (the first message)
 * @param {Boot} [boot]
 * @returns {Promise<any>} the worker's answer (JSON)
 */
function send(request, boot) {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, { resolve, reject });
    present(worker, "the referee worker").postMessage({ id, request: request === null ? null : JSON.stringify(request), boot });
  });
}

/**
 * Start the referee (once); resolves true when it answers, false when this browser cannot run it.
 * @returns {Promise<boolean>}
 */
export function startReferee() {
  if (started) return started;
  if (typeof Worker !== "function" || typeof WebAssembly !== "object") return (started = Promise.resolve(false));
  started = new Promise((resolve) => {
    /** @type {Worker} */
    let made;
    try {
      made = worker = new Worker(assetUrl("./worker.js"), { type: "module" });
    } catch {
      resolve(false);
      return;
    }
    made.onmessage = (/** @type {MessageEvent<Reply>} */ { data }) => {
      const call = waiting.get(data.id);
      if (!call) return;
      waiting.delete(data.id);
      if (data.failure !== undefined) call.reject(new Error(data.failure));
      else call.resolve(data.answer === null ? null : JSON.parse(data.answer));
    };
    made.onerror = (event) => {
      console.warn("referee", event.message);
      for (const call of waiting.values()) call.reject(new Error("referee failed"));
      waiting.clear();
      resolve(false);
    };
    const boot = { pyodide: assetUrl("/vendor/pyodide/"), stdlib: assetUrl("/referee/stdlib.zip"), rules: assetUrl("/referee/rules.zip") };
    send(null, boot).then(
      () => {
        isReady = true;
        resolve(true);
      },
      (err) => {
        console.warn("referee", err);
        resolve(false);
      },
    );
  });
  return started;
}

/**
 * True once the referee has answered (without waiting for it).
 * @returns {boolean}
 */
export function refereeReady() {
  return isReady;
}

/**
 * One request to the referee ({op, …}); resolves its answer {ok, …}. Rejects when there is no
 * referee on this phone.
 * @param {object} request
 * @returns {Promise<any>} the referee's answer (JSON)
 */
export async function ask(request) {
  if (!(await startReferee())) throw new Error("no local referee");
  return send(request);
}

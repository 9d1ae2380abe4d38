// Each table's log as this phone knows it, in IndexedDB: what the server has confirmed and what
// was recorded here but not sent yet. It survives a reload and a closed browser, offline too.
// One record per table (its shape and every change to it: record.js): {id, game, players, options,
// seed, serverVersion, serverEvents, queue, conflict, created (a table started offline, until the server has it)}.

const DB_NAME = "kibitz";
const STORE = "tables";
/** @type {Promise<IDBDatabase> | null} */
let opening = null;

/** @returns {Promise<IDBDatabase>} */
function db() {
  if (!opening) {
    opening = new Promise((resolve, reject) => {
      const request = indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "id" });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }
  return opening;
}

/**
 * One request in its own transaction; resolves its result once the transaction is complete.
 * @param {IDBTransactionMode} mode
 * @param {(store: IDBObjectStore) => IDBRequest | undefined} work
 * @returns {Promise<any>}
 */
async function run(mode, work) {
  const database = await db();
  return new Promise((resolve, reject) => {
    const tx = database.transaction(STORE, mode);
    const request = work(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(request?.result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

/**
 * The stored record of a table, or null (record.js `upgraded` reads it: older apps stored others).
 * @param {string} id
 * @returns {Promise<unknown>}
 */
export async function getTable(id) {
  return (await run("readonly", (store) => store.get(id))) ?? null;
}

/**
 * Store the whole record (written in one transaction: a crash keeps the old or the new one).
 * @param {import("./record.js").SyncRecord} record
 * @returns {Promise<void>}
 */
export function putTable(record) {
  return run("readwrite", (store) => store.put(record));
}

/**
 * @param {string} id
 * @returns {Promise<void>}
 */
export function deleteTable(id) {
  return run("readwrite", (store) => store.delete(id));
}

/**
 * Every stored record (the home screen lists tables started offline).
 * @returns {Promise<import("./record.js").SyncRecord[]>}
 */
export function allTables() {
  return run("readonly", (store) => store.getAll());
}

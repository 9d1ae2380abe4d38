// Each table's log as this phone knows it, in IndexedDB: what the server has confirmed and what
// was recorded here but not sent yet. It survives a reload and a closed browser, offline too.
// One record per table: {id, game, players, options, seed, serverVersion, serverEvents, queue,
// conflict, created (the creation request of a table started offline, until the server has it)}.

const DB_NAME = "kibitz";
const STORE = "tables";
let opening = null;

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

/** The stored record of a table, or null. */
export async function getTable(id) {
  return (await run("readonly", (store) => store.get(id))) ?? null;
}

/** Store the whole record (written in one transaction: a crash keeps the old or the new one). */
export function putTable(record) {
  return run("readwrite", (store) => store.put(record));
}

export function deleteTable(id) {
  return run("readwrite", (store) => store.delete(id));
}

/** Every stored record (the home screen lists tables started offline). */
export function allTables() {
  return run("readonly", (store) => store.getAll());
}

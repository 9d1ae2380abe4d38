// Follows a table (with patches) or a group live, typed, and prints one JSON line per event:
//   node build/follow.js BASE table TABLE_ID COUNT   → {"type", "id", "version", "table"}
//   node build/follow.js BASE group GROUP_ID COUNT   → {"type", "id", "table_id"}
import createClient from "openapi-fetch";
import type { paths } from "./kibitz.js";
import { followGroup, followTable } from "./sse.js";

declare const process: { argv: string[]; exit(code: number): never; stdout: { write(s: string): void } };

const [base, kind, id, countArg] = process.argv.slice(2);
if (!base || !id || !countArg || (kind !== "table" && kind !== "group")) {
  throw new Error("usage: node follow.js <base url> table|group <id> <count>");
}
const kibitz = createClient<paths>({ baseUrl: base });
const stop = new AbortController();

async function main(): Promise<void> {
  let left = Number(countArg);
  if (kind === "table") {
    for await (const { event, table } of followTable(kibitz, id!, stop.signal)) {
      const version: number = event.data.type === "problem" ? -1 : event.data.version;
      process.stdout.write(JSON.stringify({ type: event.data.type, id: event.id, version, table }) + "\n");
      if (--left === 0) break;
    }
  } else {
    for await (const event of followGroup(kibitz, id!, stop.signal)) {
      const data = event.data; // GroupStreamMessage, by its type
      process.stdout.write(JSON.stringify({ type: data.type, id: event.id, table_id: data.entry?.table_id ?? null }) + "\n");
      if (--left === 0) break;
    }
  }
  stop.abort();
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

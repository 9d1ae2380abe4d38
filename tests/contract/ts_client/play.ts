// A web integrator's first program, typed by the client generated from openapi.yaml alone
// (openapi-typescript → kibitz.d.ts, fetch via openapi-fetch): start a Mahé table, record a few
// events with the write token, read the table back, and meet a 409 as a typed problem.
import createClient from "openapi-fetch";
import type { components, paths } from "./kibitz.js";

type Table = components["schemas"]["Table"];
type AnyEvent = components["schemas"]["AnyEvent"];
// Node's own globals, declared here so the program needs no @types package.
declare const process: { argv: string[]; exit(code: number): never };

const base = process.argv[2];
if (!base) throw new Error("usage: node play.js <base url>");
const kibitz = createClient<paths>({ baseUrl: base });

async function main(): Promise<void> {
  const created = await kibitz.POST("/api/tables", {
    body: {
      game: "mahe",
      players: [
        { name: "Eva", colours: ["red", "yellow"] },
        { name: "Tom", colours: ["green", "darkblue"] },
      ],
      options: { chance: "physical" },
    },
  });
  if (!created.data) throw new Error(`create failed: ${JSON.stringify(created.error)}`);
  const { id, write_token: token } = created.data;
  let table: Table = created.data.table;

  // Each event is checked against the game's vocabulary at compile time: a typo in an event type
  // or a field name, or a field of the wrong type, does not compile.
  const events: components["schemas"]["MaheEvent"][] = [
    { type: "reveal_card", value: 5 },
    { type: "choose_turtle", turtle: "red" },
    { type: "die", value: 4 },
    { type: "stop" },
  ];
  for (const event of events) {
    const appended = await kibitz.POST("/api/tables/{table_id}/events", {
      params: { path: { table_id: id } },
      headers: { Authorization: `Bearer ${token}`, "Idempotency-Key": crypto.randomUUID() },
      body: { expected_version: table.version, event },
    });
    if (!appended.data) throw new Error(`append failed: ${JSON.stringify(appended.error)}`);
    table = appended.data.table;
  }

  const stale = await kibitz.POST("/api/tables/{table_id}/events", {
    params: { path: { table_id: id } },
    headers: { Authorization: `Bearer ${token}` },
    body: { expected_version: 0, event: { type: "stop" } satisfies AnyEvent },
  });
  const read = await kibitz.GET("/api/tables/{table_id}", { params: { path: { table_id: id } } });
  if (!read.data) throw new Error("read failed");
  console.log(
    JSON.stringify({
      id,
      version: read.data.version,
      stale_status: stale.response.status,
      stale_code: stale.error?.code ?? null,
      last_move: (read.data.state as { last_move?: unknown }).last_move ?? null,
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

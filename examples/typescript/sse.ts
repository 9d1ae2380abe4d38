// Typed live streams for a client generated from openapi.yaml (openapi-typescript → kibitz.d.ts,
// openapi-fetch): a stream is `text/event-stream`, read line by line, never one JSON document.
// `sseEvents` asks openapi-fetch for the body as a stream (`parseAs: "stream"`) and yields each
// event as the document types it (`TableStreamEvent`, `GroupStreamEvent`), its `data` parsed: a
// `switch (event.data.type)` narrows it to `TableStreamMessage`, `TableStreamPatch`, … .
// `followTable` applies the patches (`?patches=true`) and yields the table at every version.
import createClient from "openapi-fetch";
import type { components, paths } from "./kibitz.js";
import { applyPatch } from "./patch.js";

export type TableStreamEvent = components["schemas"]["TableStreamEvent"];
export type GroupStreamEvent = components["schemas"]["GroupStreamEvent"];
export type Table = components["schemas"]["Table"];
export type Kibitz = ReturnType<typeof createClient<paths>>;

/** The events of a `text/event-stream` body, fields as an SSE client parses them, `data` as JSON. */
export async function* sseEvents<Event>(body: ReadableStream<Uint8Array>): AsyncGenerator<Event> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = "";
  let fields: Record<string, string | number> = {};
  let data: string[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, end).replace(/\r$/, "");
        buffer = buffer.slice(end + 1);
        if (line === "") {
          if (data.length) yield { ...fields, data: JSON.parse(data.join("\n")) } as Event;
          fields = {};
          data = [];
        } else if (!line.startsWith(":")) {
          const colon = line.indexOf(":");
          const name = colon < 0 ? line : line.slice(0, colon);
          const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
          if (name === "data") data.push(text);
          else if (name === "retry" && /^[0-9]+$/.test(text)) fields.retry = Number(text);
          else if (name === "event" || name === "id") fields[name] = text;
        }
      }
    }
  } finally {
    reader.releaseLock();
  }
}

/** A table's stream with patches: every event and the table after it. */
export async function* followTable(
  kibitz: Kibitz,
  tableId: string,
  signal?: AbortSignal,
): AsyncGenerator<{ event: TableStreamEvent; table: Table }> {
  const { response } = await kibitz.GET("/api/tables/{table_id}/stream", {
    params: { path: { table_id: tableId }, query: { patches: true } },
    parseAs: "stream",
    signal,
  });
  if (!response.ok || !response.body) throw new Error(`stream refused: ${response.status}`);
  let table: Table | null = null;
  for await (const event of sseEvents<TableStreamEvent>(response.body)) {
    const data = event.data;
    switch (data.type) {
      case "table":
        table = data.table;
        break;
      case "patch":
        if (!table || table.version !== data.base) throw new Error(`no table at version ${data.base}`);
        table = applyPatch(table, data.patch);
        break;
      case "problem":
        throw new Error(`${data.code}: ${data.detail}`);
      case "log":
        // Only a stream opened with ?view=log sends these (a client that replays the log with its
        // own referee, as the phone app does); this one asks for whole tables and patches.
        throw new Error("a log event on a stream that did not ask for ?view=log");
    }
    yield { event, table };
  }
}

/** A group's stream: each event, typed. */
export async function* followGroup(
  kibitz: Kibitz,
  groupId: string,
  signal?: AbortSignal,
): AsyncGenerator<GroupStreamEvent> {
  const { response } = await kibitz.GET("/api/groups/{group_id}/stream", {
    params: { path: { group_id: groupId } },
    parseAs: "stream",
    signal,
  });
  if (!response.ok || !response.body) throw new Error(`stream refused: ${response.status}`);
  yield* sseEvents<GroupStreamEvent>(response.body);
}

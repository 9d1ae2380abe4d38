// JSON Patch (RFC 6902) as Kibitz's streams send it: `add`, `remove` and `replace`, JSON Pointer
// paths (RFC 6901). Applied to a copy, all or nothing (an error throws; follow again for the whole
// table).
import type { components } from "./kibitz.js";

export type PatchOperation = components["schemas"]["PatchOperation"];
type Container = unknown[] | Record<string, unknown>;

function tokens(path: string): string[] {
  if (path === "") return [];
  if (!path.startsWith("/")) throw new Error(`not a JSON Pointer: ${path}`);
  return path.slice(1).split("/").map((t) => {
    if (/~[^01]|~$/.test(t)) throw new Error(`bad escape in ${path}`);
    return t.replace(/~1/g, "/").replace(/~0/g, "~");
  });
}

function index(token: string, max: number): number {
  if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) > max) throw new Error(`bad index ${token}`);
  return Number(token);
}

function isContainer(value: unknown): value is Container {
  return typeof value === "object" && value !== null;
}

function child(node: Container, token: string): unknown {
  if (Array.isArray(node)) return node[index(token, node.length - 1)];
  if (!Object.prototype.hasOwnProperty.call(node, token)) throw new Error(`no member ${token}`);
  return node[token];
}

export function applyPatch<T>(doc: T, patch: PatchOperation[]): T {
  let root: unknown = structuredClone(doc);
  for (const op of patch) {
    const path = tokens(op.path);
    const last = path.pop();
    if (last === undefined) {
      if (op.op === "remove") throw new Error("cannot remove the whole document");
      root = structuredClone(op.value);
      continue;
    }
    let parent: unknown = root;
    for (const token of path) {
      if (!isContainer(parent)) throw new Error(`no such path: ${op.path}`);
      parent = child(parent, token);
    }
    if (!isContainer(parent)) throw new Error(`not a container: ${op.path}`);
    if (Array.isArray(parent)) {
      if (op.op === "add") parent.splice(last === "-" ? parent.length : index(last, parent.length), 0, structuredClone(op.value));
      else if (op.op === "remove") parent.splice(index(last, parent.length - 1), 1);
      else parent[index(last, parent.length - 1)] = structuredClone(op.value);
    } else if (op.op === "add") {
      parent[last] = structuredClone(op.value);
    } else {
      child(parent, last); // must exist
      if (op.op === "remove") delete parent[last];
      else parent[last] = structuredClone(op.value);
    }
  }
  return root as T;
}

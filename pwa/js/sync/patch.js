// JSON Patch (RFC 6902) as the live stream sends it: after its first whole table, each change is a
// list of `add`, `remove` and `replace` operations against the table this phone has. Paths are JSON
// Pointers (RFC 6901). A patch is applied to a copy: all of it or, on any error, none of it (the
// caller then asks the server for the whole table again).

/** @typedef {import("kibitz-api").components["schemas"]["PatchOperation"]} PatchOperation */

export class PatchError extends Error {}

/**
 * The reference tokens of a JSON Pointer ("" is the whole document).
 * @param {string} path
 * @returns {string[]}
 */
export function parsePointer(path) {
  if (path === "") return [];
  if (!path.startsWith("/")) throw new PatchError(`not a JSON Pointer: ${path}`);
  return path
    .slice(1)
    .split("/")
    .map((token) => {
      if (/~[^01]|~$/.test(token)) throw new PatchError(`bad escape in ${path}`);
      return token.replace(/~1/g, "/").replace(/~0/g, "~");
    });
}

/**
 * An array index as RFC 6901 writes it (no sign, no leading zero), at most `max`.
 * @param {string} token
 * @param {number} max
 */
function arrayIndex(token, max) {
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new PatchError(`not an array index: ${token}`);
  const index = Number(token);
  if (index > max) throw new PatchError(`index ${index} out of range`);
  return index;
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The container that holds the target of `tokens`, and the target's last token.
 * @param {unknown} doc
 * @param {string[]} tokens
 * @returns {[unknown[] | Record<string, unknown>, string]}
 */
function parentOf(doc, tokens) {
  let node = doc;
  for (const token of tokens.slice(0, -1)) {
    if (Array.isArray(node)) node = node[arrayIndex(token, node.length - 1)];
    else if (isObject(node) && Object.prototype.hasOwnProperty.call(node, token)) node = node[token];
    else throw new PatchError(`no such path: /${tokens.join("/")}`);
  }
  if (!Array.isArray(node) && !isObject(node)) throw new PatchError(`not a container: /${tokens.join("/")}`);
  return [node, tokens[tokens.length - 1]];
}

/**
 * One operation, in place; returns the document (a new one when the root itself is replaced).
 * @param {unknown} doc
 * @param {PatchOperation} op
 * @returns {unknown}
 */
function applyOne(doc, op) {
  const tokens = parsePointer(op.path);
  if (op.op !== "add" && op.op !== "remove" && op.op !== "replace") throw new PatchError(`unknown op ${op.op}`);
  if (!tokens.length) {
    if (op.op === "remove") throw new PatchError("cannot remove the whole document");
    return op.value;
  }
  const [parent, last] = parentOf(doc, tokens);
  if (Array.isArray(parent)) {
    if (op.op === "add") {
      parent.splice(last === "-" ? parent.length : arrayIndex(last, parent.length), 0, op.value);
    } else {
      const index = arrayIndex(last, parent.length - 1);
      if (op.op === "remove") parent.splice(index, 1);
      else parent[index] = op.value;
    }
  } else if (op.op === "add") {
    parent[last] = op.value;
  } else {
    if (!Object.prototype.hasOwnProperty.call(parent, last)) throw new PatchError(`no such member: ${op.path}`);
    if (op.op === "remove") delete parent[last];
    else parent[last] = op.value;
  }
  return doc;
}

/**
 * The document after the patch; `doc` itself is left as it was.
 * @template T
 * @param {T} doc
 * @param {PatchOperation[]} patch
 * @returns {T}
 */
export function applyPatch(doc, patch) {
  let result = structuredClone(doc);
  for (const op of patch) result = /** @type {T} */ (applyOne(result, structuredClone(op)));
  return result;
}

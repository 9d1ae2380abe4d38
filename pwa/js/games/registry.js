// Game clients the app knows. Each lives in js/games/<name>/index.js and exports default
// {name, title, mountSetup(container, ctx), createScreen(container, controller), describe(before, after, event),
// replayState(table) (the table read-only at a step of the log's replay)}.
// To add Magellan or Mhing: create js/games/<name>/ and add a line here (and to sw.js's precache list).

// The shapes a game client deals in come from openapi.yaml (tests/contract/test_pwa_types.py): a
// field renamed on the server fails `tsc --checkJs` in the screen that reads it.
/** @typedef {import("kibitz-api").components["schemas"]} Schemas */
/** @typedef {Schemas["Table"]} Table */
/** @typedef {Schemas["AnyEvent"]} GameEvent */
/** @typedef {Schemas["LoggedEvent"]} LoggedEvent */
/**
 * A table's legal actions by their type (`Object.fromEntries(actions.map((a) => [a.type, a]))`).
 * @template {{type: string}} A
 * @typedef {{[K in A as K["type"]]?: K}} ByType
 */
/**
 * How a tap is recorded: confirm first (a sheet with the preview, or `text` instead when preview is false).
 * @typedef {{confirm?: boolean, preview?: boolean, text?: string, title?: string, confirmLabel?: string}} ProposeOptions
 */
/**
 * The seat's private view as this phone last asked for it.
 * @typedef {{seat: number, view: Schemas["PrivateView"]["view"], version: number | null, status: "loading" | "fresh" | "failed"}} Mine
 */
/**
 * What views/table.js hands a game's screen.
 * @typedef {object} Controller
 * @property {string} id
 * @property {boolean} readOnly
 * @property {GameClient} game
 * @property {Table} table
 * @property {(event: GameEvent, opts?: ProposeOptions) => void} propose
 * @property {(event: GameEvent) => Promise<void>} commitNow
 * @property {(event: GameEvent) => Promise<any>} check What the event would make (the phone's referee, else the server); rejects with the refusal
 * @property {number | null} seat
 * @property {() => {seat: number, name: string, url: string}[]} seatLinks
 * @property {Mine | null} mine
 */
/**
 * A game screen: update(table) on every new table view, updateMine() when the seat's own view changed.
 * @typedef {{update: (table: any) => void, updateMine?: () => void, destroy?: () => void}} Screen
 */
/**
 * What views/setup.js hands a game's setup form: the game's facts (GET /api/games; the client's own
 * defaults offline) and create(body), which posts POST /api/tables (or starts the table offline).
 * `initial.options`: the options the form starts from (a group's last table of the game).
 * @typedef {{meta: {name: string, title: string, min_players: number, max_players: number, options?: Schemas["GameInfo"]["options"], powers?: Schemas["Power"][]}, create: (body: Schemas["CreateTable"]) => Promise<boolean>, initial?: {options?: any}}} SetupContext
 */
/**
 * What a game's setup form gives back: setPlayers fills the seats (names; Mahé colours too) from a
 * group's players picked with one tap each (views/setup.js).
 * @typedef {{setPlayers: (players: {name: string, colours?: string[]}[]) => void}} SetupHandle
 */
/**
 * @typedef {object} GameClient
 * @property {string} name
 * @property {string} title
 * @property {(container: HTMLElement, ctx: SetupContext) => SetupHandle | void | Promise<SetupHandle | void>} mountSetup
 * @property {(container: HTMLElement, ctl: Controller) => Screen} createScreen
 * @property {(before: any, after: any, event: LoggedEvent) => string} describe
 * @property {(event: GameEvent, table: Table) => boolean} [confirmFirst]
 */

const LOADERS = {
  mahe: () => import("./mahe/index.js"),
  magellan: () => import("./magellan/index.js"),
  mhing: () => import("./mhing/index.js"),
};

/** @param {string} name */
export function hasClient(name) {
  return Object.hasOwn(LOADERS, name);
}

/**
 * @param {string} name
 * @returns {Promise<GameClient | null>}
 */
export async function loadGame(name) {
  const loader = LOADERS[/** @type {keyof typeof LOADERS} */ (name)];
  // Each client reads its own game's events only (its name picked it), hence the narrower describe().
  return loader ? /** @type {GameClient} */ (/** @type {unknown} */ ((await loader()).default)) : null;
}

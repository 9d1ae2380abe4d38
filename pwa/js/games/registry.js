// The games the app knows: the one list of games on the phone (GAMES below; the server's is
// api/rules/registry.py). Each lives in js/games/<name>/: manifest.js (what the rest of the app
// reads without loading the game: title, player counts, a group's figures, seat links) and index.js,
// its client, loaded on first use: {name, title, mountSetup(container, ctx),
// createScreen(container, controller), describe(before, after, event), replayState(table)}.
// Views, groups and sharing read a game through its manifest and never by its name.
import mahe from "./mahe/manifest.js";
import magellan from "./magellan/manifest.js";
import mhing from "./mhing/manifest.js";

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

/**
 * What the app knows of a game without loading its client (js/games/<name>/manifest.js).
 * @typedef {object} GameManifest
 * @property {string} name The API name (`game` of tables and groups), also the folder's
 * @property {string} title As the box prints it, in every language
 * @property {number} min Fewest players
 * @property {number} max Most players
 * @property {() => Promise<{default: unknown}>} load The game's client (its index.js)
 * @property {[string, string][]} statsColumns A group's statistics table: [figure of `by_game`, i18n key]
 * @property {((players: any[], tools: {t: typeof import("../i18n.js").t, chart: typeof import("../groups/charts.js").chart}) => HTMLElement[])} [statsCharts] The game's own charts of a group's figures
 * @property {string | null} progressAxis The i18n key of a step of a finished table's score chart; null: no such chart
 * @property {(table: any) => boolean} needsSeatLinks Whether the players need their own links at this table (cards only their phone may show)
 * @property {string[]} [colours] Colours a player brings (a group player's own colour is one of them)
 * @property {(group: any, seatIds: string[], last: any) => {name: string, colours?: string[]}[]} [seatPlayers] A new table's players from a group's (default: their names), given the group's last seating at the game
 * @property {{ready: () => boolean, refresh: () => Promise<unknown>}} [start] Data the game needs before the first screen (fetched then when not `ready`)
 */

/** @type {GameManifest[]} */
export const GAMES = [mahe, magellan, mhing];

/**
 * @param {string | null | undefined} name
 * @returns {GameManifest | null}
 */
export function manifestOf(name) {
  return GAMES.find((g) => g.name === name) || null;
}

/** The game's title (as the box prints it, in every language); the name itself for an unknown game. @param {string} name */
export function gameTitle(name) {
  return manifestOf(name)?.title || name;
}

/** @param {string} name */
export function hasClient(name) {
  return manifestOf(name) !== null;
}

/**
 * @param {string} name
 * @returns {Promise<GameClient | null>}
 */
export async function loadGame(name) {
  const manifest = manifestOf(name);
  // Each client reads its own game's events only (its name picked it), hence the narrower describe().
  return manifest ? /** @type {GameClient} */ (/** @type {unknown} */ ((await manifest.load()).default)) : null;
}

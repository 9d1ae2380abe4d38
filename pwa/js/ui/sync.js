// Seen at a glance: the connection badge (online / offline / N moves waiting / conflict) and the
// sheet in which the players settle what happens when this phone's entries met another phone's:
// both are shown in words, and they choose — keep mine after theirs, take theirs back, or drop
// mine. The sheet can be closed to look at the table and always reopened from the badge.
import { h } from "../dom.js";
import { refusalText, t } from "../i18n.js";
import { isOnline } from "../api.js";
import { openSheet } from "./sheet.js";

/** @typedef {import("kibitz-api").components["schemas"]["LoggedEvent"]} LoggedEvent */
/** @typedef {import("../games/registry.js").GameClient} GameClient */
/** @typedef {import("../api.js").Problem} Problem */
/**
 * Where this phone's entries met another phone's (or the server refused them): at log position
 * `base`, with the refusal when there is one.
 * @typedef {{base: number, refused?: boolean, error?: Partial<Problem> | null}} Conflict
 */
/** One entry of either side, with the tables around it. @typedef {{before: any, after: any, event: LoggedEvent, undone?: LoggedEvent | null}} Step */
/** @typedef {"after" | "back" | "drop"} Choice keep mine after theirs, take theirs back, drop mine */
/** Whether a choice can be made, else why not. @typedef {{ok: boolean, reason?: string, error?: Problem}} ChoiceState */
/**
 * What the badge and the conflict sheet read of the table's sync session (sync/session.js).
 * @typedef {object} ConflictSession
 * @property {Conflict | null} conflict
 * @property {number} waiting this phone's entries not on the server yet
 * @property {string} mode "local" when the phone's referee holds the table
 * @property {number} serverVersion
 * @property {() => Promise<{theirs: Step[], mine: Step[]}>} describeConflict
 * @property {() => Promise<Partial<Record<Choice, ChoiceState>>>} conflictChoices
 * @property {(choice: Choice) => Promise<{ok: boolean}>} resolveConflict
 */
/** @typedef {Pick<ConflictSession, "conflict" | "waiting" | "mode">} BadgeSession */
/** The conflict sheet on screen. @typedef {{key: string, version: number, sheet: ReturnType<typeof openSheet>, busy: boolean}} OpenSheet */

/**
 * The connection badge; show(session) redraws it.
 * @param {{onConflict?: () => void}} [options] onConflict: the badge's button (a conflict waits)
 * @returns {{element: HTMLElement, show: (session: BadgeSession) => void}}
 */
export function syncBadge({ onConflict = () => {} } = {}) {
  const element = h("span", { class: "badge badge-sync", testid: "sync-badge", role: "status", "aria-live": "polite" });
  // One button for as long as the conflict lasts: the badge is shown again at every change of the
  // session, and a button replaced between a finger's touchstart and touchend gets no click.
  const button = h("button", { type: "button", class: "badge-button", testid: "conflict-open", onclick: () => onConflict() });
  return {
    element,
    /** @param {BadgeSession} session */
    show(session) {
      const online = navigator.onLine !== false && isOnline();
      let state = online ? "online" : "offline";
      let text = t(`sync.${state}`);
      if (session.conflict) {
        state = "conflict";
        text = t("sync.conflict_badge");
      } else if (session.waiting) {
        state = "waiting";
        text = t("sync.waiting", { count: session.waiting });
      }
      element.dataset.state = state;
      element.dataset.referee = session.mode;
      element.title = session.mode === "local" ? t("sync.referee_here") : t("sync.referee_server");
      if (state === "conflict") {
        // A conflict waits for the players: the badge opens its sheet again (closed to look at the table).
        if (button.textContent !== text) button.textContent = text;
        if (element.firstChild !== button || element.childNodes.length !== 1) element.replaceChildren(button);
      } else {
        element.replaceChildren(text);
      }
    },
  };
}

/** @type {OpenSheet | null} */
let open = null; // {key, sheet} of the conflict sheet on screen
/** @type {string | null} */
let dismissed = null; // the conflict the players closed the sheet on (reopened from the badge)

/** @param {Conflict} conflict @returns {string} */
function keyOf(conflict) {
  return `${conflict.base}:${conflict.refused ? "refused" : "met"}`;
}

/**
 * What one entry did, as the game words it (an undo: what it took back).
 * @param {GameClient} game
 * @param {Step} step
 * @returns {string}
 */
function said(game, { before, after, event, undone }) {
  if (event.type === "undo" && undone) {
    const what = game.describe(after, before, undone);
    return what ? t("table.undone", { what }) : t("table.undone_plain");
  }
  return game.describe(before, after, event) || "";
}

/**
 * Ask the players what stands; opened by itself once per conflict, and again whenever `force` (the
 * badge, a tap refused because of the conflict). Never closes into a dead end: a choice that cannot
 * be made is shown with its reason and the other choices stay.
 * @param {ConflictSession} session
 * @param {GameClient} game
 * @param {{force?: boolean}} [options]
 * @returns {Promise<void>}
 */
export async function showConflict(session, game, { force = false } = {}) {
  const conflict = session.conflict;
  if (!conflict) {
    if (open) open.sheet.close();
    open = null;
    return;
  }
  const key = keyOf(conflict);
  if (open && !open.sheet.closed) {
    // Drawn already, for the log as it is: nothing to do (it is redrawn when another entry arrives).
    if (open.key === key && open.version === session.serverVersion && !force) return;
    if (open.busy) return;
    open.sheet.close();
  }
  if (!force && dismissed === key) return;
  const sheet = openSheet({
    title: conflict.refused ? t("sync.refused_title") : t("sync.conflict_title"),
    testid: "conflict-sheet",
    confirm: false,
    cancelLabel: t("sync.decide_later"),
    onCancel: () => {
      dismissed = key;
      if (open?.sheet === sheet) open = null;
    },
  });
  /** @type {OpenSheet} */
  const mine = { key, version: session.serverVersion, sheet, busy: false };
  open = mine;
  sheet.setBody(h("p", { class: "muted" }, t("common.loading")));
  const [{ theirs, mine: ours }, choices] = await Promise.all([
    session.describeConflict().catch(() => ({ theirs: [], mine: [] })),
    session.conflictChoices().catch(() => /** @type {Partial<Record<Choice, ChoiceState>>} */ ({ drop: { ok: true } })),
  ]);
  if (open !== mine || sheet.closed) return;
  const words = (/** @type {Step[]} */ steps) => steps.map((step) => said(game, step)).filter(Boolean).join(" · ");
  const theirsText = words(theirs) || t("sync.conflict_other_moves");
  const mineText = words(ours) || t("sync.conflict_other_moves");

  /** @type {(choice: Choice, label: string, testid: string) => HTMLElement[]} */
  const option = (choice, label, testid) => choiceButton(choices[choice] || { ok: false }, label, testid, () => choose(session, game, mine, choice));
  if (conflict.refused) {
    const reason = conflict.error?.detail || conflict.error?.title || "";
    sheet.setBody([
      h("p", { testid: "conflict-mine" }, t("sync.refused", { reason })),
      h("p", { testid: "conflict-mine-list" }, t("sync.met_mine", { what: mineText })),
      ...option("drop", t("sync.drop_mine", { count: session.waiting }), "conflict-drop"),
    ]);
    return;
  }
  sheet.setBody([
    h("p", { testid: "conflict-theirs" }, t("sync.met_theirs", { what: theirsText })),
    h("p", { testid: "conflict-mine" }, t("sync.met_mine", { what: mineText })),
    h("p", { class: "muted" }, t("sync.met_question")),
    ...option("after", t("sync.keep_after"), "conflict-after"),
    ...option("back", t("sync.keep_mine"), "conflict-back"),
    ...option("drop", t("sync.keep_theirs"), "conflict-drop"),
  ]);
}

/**
 * A choice's button, off with its reason where it cannot be made.
 * @param {ChoiceState} state
 * @param {string} label
 * @param {string} testid
 * @param {() => void} onChoose
 * @returns {HTMLElement[]}
 */
function choiceButton(state, label, testid, onChoose) {
  const button = h("button", { type: "button", class: "btn btn-secondary btn-big", testid, onclick: onChoose }, label);
  button.disabled = !state.ok;
  const why = state.ok ? null : whyNot(state);
  const whyText = why ? h("p", { class: "muted", testid: `${testid}-why` }, why) : null;
  return whyText ? [button, whyText] : [button];
}

/**
 * The players chose: settled, the sheet goes (and comes again if the entries met again); refused,
 * the same sheet again with why.
 * @param {ConflictSession} session
 * @param {GameClient} game
 * @param {OpenSheet} mine the sheet they chose on
 * @param {Choice} choice
 * @returns {Promise<void>}
 */
async function choose(session, game, mine, choice) {
  const sheet = mine.sheet;
  mine.busy = true;
  sheet.setBusy(true, { lock: true });
  const outcome = await session.resolveConflict(choice).catch((err) => ({ ok: false, error: { detail: String(err) } }));
  mine.busy = false;
  if (outcome.ok) {
    sheet.close();
    if (open === mine) open = null;
    dismissed = null;
    if (session.conflict) showConflict(session, game, { force: true }); // it met again: decide again
    return;
  }
  sheet.setBusy(false);
  showConflict(session, game, { force: true }); // the same sheet, with why that choice cannot be made
}

/** @param {ChoiceState} state @returns {string} */
function whyNot(state) {
  if (state.reason === "cannot-take-back") return t("sync.back_impossible");
  if (state.reason === "does-not-fit") return t("sync.after_impossible", { reason: state.error ? refusalText(state.error) : "" });
  return "";
}

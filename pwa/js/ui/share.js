// Share a table link: the system share sheet when there is one, else a sheet with the link + copy.
import { h } from "../dom.js";
import { manifestOf } from "../games/registry.js";
import { t } from "../i18n.js";
import { openSheet } from "./sheet.js";
import { toast } from "../toast.js";
import { qrFigure } from "./qr.js";

/**
 * The table's link: with its write token, one that records; without, one that watches.
 * @param {string} tableId
 * @param {string | null} [token]
 * @returns {string}
 */
export function tableLink(tableId, token) {
  const base = `${location.origin}/#/t/${encodeURIComponent(tableId)}`;
  return token ? `${base}?k=${encodeURIComponent(token)}` : base;
}

/**
 * Copy to the clipboard (else select the field and copy from it); true when it worked.
 * @param {string} text
 * @param {HTMLInputElement} input
 * @returns {Promise<boolean>}
 */
async function copy(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    input.select();
    try {
      return document.execCommand("copy");
    } catch {
      return false;
    }
  }
}

/**
 * A player's own link: opens the table as that seat (their own cards), without the write token.
 * @param {string} tableId
 * @param {number} seat
 * @param {string} seatToken
 * @returns {string}
 */
export function seatLink(tableId, seat, seatToken) {
  return `${location.origin}/#/t/${encodeURIComponent(tableId)}?s=${seat}&sk=${encodeURIComponent(seatToken)}`;
}

/**
 * Do the players need their own links at this table: cards only their own phone may show (the
 * game's manifest says when: Magellan's secret hands, Mahé's face-down egg cards …)?
 * @param {import("kibitz-api").components["schemas"]["Table"] | null | undefined} table
 * @returns {boolean}
 */
export function needsSeatLinks(table) {
  const manifest = manifestOf(table?.game);
  return Boolean(table && manifest?.needsSeatLinks(table));
}

/**
 * The system share sheet; false when there is none or it failed (AbortError counts as done).
 * @param {ShareData} data
 * @returns {Promise<boolean>}
 */
async function systemShare(data) {
  if (!navigator.share) return false;
  try {
    await navigator.share(data);
    return true;
  } catch (err) {
    return !!(err && /** @type {Error} */ (err).name === "AbortError");
  }
}

/**
 * A link in a read-only field with Copy (and Share, where the phone has a share sheet).
 * @param {string} url
 * @param {{inputTestid: string, copyTestid: string, shareTestid: string, label: string, shareData: ShareData | null}} options
 * @returns {HTMLElement}
 */
function linkRow(url, { inputTestid, copyTestid, shareTestid, label, shareData }) {
  const input = h("input", { class: "input", type: "text", readonly: true, value: url, testid: inputTestid, "aria-label": label });
  const copyBtn = h("button", { type: "button", class: "btn btn-secondary", testid: copyTestid }, t("share.copy"));
  copyBtn.addEventListener("click", async () => {
    const ok = await copy(url, input);
    toast(ok ? t("share.copied") : t("share.copy_failed"), { kind: ok ? "info" : "error" });
  });
  const shareBtn =
    shareData && typeof navigator.share === "function"
      ? h("button", { type: "button", class: "btn btn-secondary", testid: shareTestid, onclick: () => systemShare({ ...shareData, url }) }, t("share.share"))
      : null;
  return h("div", { class: "join-row" }, input, copyBtn, shareBtn);
}

/**
 * One player's own link: the system share sheet, else a sheet with the link to copy.
 * @param {{name: string, url: string, gameTitle: string}} link
 * @returns {Promise<void>}
 */
export async function shareSeatLink({ name, url, gameTitle }) {
  const text = t("share.text_seat", { game: gameTitle, name });
  if (await systemShare({ title: "Kibitz", text, url })) return;
  openSheet({
    title: t("share.seat_link", { name }),
    confirm: false,
    testid: "share-sheet",
    body: [
      h("p", { class: "small muted" }, t("share.seats_hint")),
      linkRow(url, { inputTestid: "seat-link-input", copyTestid: "seat-copy", shareTestid: "seat-share", label: t("share.seat_link", { name }), shareData: null }),
    ],
  });
}

/**
 * One QR code on screen at a time (issue 33: with two, a camera may take the watch-only one): the
 * code that records, and a switch to the watch-only code (without a key: the recording code alone).
 * The table's share sheet and the group's share page both use it (their own words and test ids).
 * @param {string} url the link the code opens first (with the key when there is one)
 * @param {string | null} watchUrl the watch-only link, or null when `url` is already that
 * @param {{join?: string, view?: string, label?: string, testPrefix?: string}} [words]
 * @returns {HTMLElement}
 */
export function qrSwitch(url, watchUrl, { join: joinWords = t("share.qr_join"), view: viewWords = t("share.qr_view"), label = t("share.title"), testPrefix = "qr" } = {}) {
  const join = qrFigure(url, watchUrl ? joinWords : viewWords, `${testPrefix}-join`);
  if (!watchUrl) return h("div", { class: "qr-one" }, join, h("p", { class: "qr-caption small" }, viewWords));
  const watch = qrFigure(watchUrl, viewWords, `${testPrefix}-view`);
  const caption = h("p", { class: "qr-caption small", testid: `${testPrefix}-caption` });
  const buttons = [
    h("button", { type: "button", class: "segment", testid: `${testPrefix}-show-join`, onclick: () => show(false) }, h("span", { class: "segment-label" }, joinWords)),
    h("button", { type: "button", class: "segment", testid: `${testPrefix}-show-view`, onclick: () => show(true) }, h("span", { class: "segment-label" }, viewWords)),
  ];
  /** @param {boolean} watching @returns {void} */
  function show(watching) {
    join.hidden = watching;
    watch.hidden = !watching;
    buttons[0].setAttribute("aria-pressed", String(!watching));
    buttons[1].setAttribute("aria-pressed", String(watching));
    caption.textContent = watching ? viewWords : joinWords;
  }
  show(false);
  return h("div", { class: "qr-one" }, h("div", { class: "segmented qr-switch", role: "group", "aria-label": label }, ...buttons), join, watch, caption);
}

/**
 * Share the table link: the system share sheet when there is one, else a sheet with the link +
 * copy. seats: [{seat, name, url}] — the players' own links (secret hands); when given, the app's
 * own sheet lists them under the table link, each to copy or share.
 * @param {string} tableId
 * @param {string | null} token
 * @param {string} gameTitle
 * @param {{seats?: {seat: number, name: string, url: string}[] | null}} [options]
 * @returns {Promise<void>}
 */
export async function shareTable(tableId, token, gameTitle, { seats = null } = {}) {
  const url = tableLink(tableId, token);
  const text = token ? t("share.text_join", { game: gameTitle }) : t("share.text_view", { game: gameTitle });
  const withSeats = Array.isArray(seats) && seats.length > 0 ? seats : null;
  // The app's own sheet always: its QR codes let a phone across the table join by its camera.
  /** @type {HTMLElement[]} */
  const body = [
    h("p", {}, token ? t("share.hint_join") : t("share.hint_view")),
    qrSwitch(url, token ? tableLink(tableId) : null),
    linkRow(url, { inputTestid: "share-link", copyTestid: "copy-link", shareTestid: "share-system", label: t("share.link"), shareData: { title: "Kibitz", text } }),
  ];
  if (withSeats) {
    body.push(
      h(
        "section",
        { class: "share-seats", testid: "seat-links" },
        h("h3", { class: "section-title share-seats-title" }, t("share.seats_title")),
        h("p", { class: "small muted" }, t("share.seats_hint")),
        h(
          "ul",
          { class: "seat-links" },
          ...withSeats.map(({ seat, name, url: link }) =>
            h(
              "li",
              { class: "seat-link", testid: `seat-link-${seat}`, "data-seat": seat, "data-link": link },
              h("span", { class: "seat-link-name" }, name),
              linkRow(link, {
                inputTestid: `seat-link-input-${seat}`,
                copyTestid: `seat-copy-${seat}`,
                shareTestid: `seat-share-${seat}`,
                label: t("share.seat_link", { name }),
                shareData: { title: "Kibitz", text: t("share.text_seat", { game: gameTitle, name }) },
              }),
            ),
          ),
        ),
      ),
    );
  }
  openSheet({ title: t("share.title"), confirm: false, testid: "share-sheet", body });
}

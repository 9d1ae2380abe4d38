// The result to send (issue 26 item 8): at the end of a game, a picture drawn on a canvas (game,
// table name, date, winner, every player's score) and the same as text, in the phone's language.
// The system share sheet takes both where it can share files; otherwise the picture is downloaded
// and a sheet offers the text to copy (or to share on its own).
import { h, present } from "../dom.js";
import { t, lang, locale } from "../i18n.js";
import { openSheet } from "./sheet.js";
import { toast } from "../toast.js";

/**
 * What the result panel keeps for the card (ui/result-panel.js): the winner line and the ranking.
 * @typedef {{headline: string, rows: {place: number, name: string, score: import("../dom.js").Child, winner: boolean}[]}} CardResult
 */
/** @typedef {CardResult & {game: string, tableName: string, date: Date}} Card */
/** The result panel's <section>, carrying its card's data. */
/** @typedef {HTMLElement & {shareCard?: CardResult}} ResultSection */

const WIDTH = 1080;
const PAD = 72;
const ROW = 104;
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const COLOURS = { bg: "#f6f3ea", card: "#ffffff", ink: "#1d2b2f", muted: "#5b6b70", sea: "#1f6f78", accent: "#e07a2f", winner: "#fff1d6" };

/**
 * card: {game, tableName, date (Date), headline ("Eva wins!"), rows: [{place, name, score, winner}]}
 * → the text (one line each: game and table, date, winner, the ranking, Kibitz).
 * @param {Card} card
 * @returns {string}
 */
export function resultText(card) {
  const lines = [t("result.card.title", { game: card.game })];
  const name = tableLine(card);
  if (name) lines.push(name);
  lines.push(t("result.card.date", { date: dateText(card.date) }), "", `★ ${card.headline}`);
  for (const r of card.rows) lines.push(`${r.place}. ${r.name}: ${r.score}`);
  lines.push("", t("result.card.footer"));
  return lines.join("\n");
}

/**
 * The table's name under the game's, without the game again ("Magellan · Eva, Tom · Wed 20:15").
 * @param {Card} card
 * @returns {string}
 */
function tableLine(card) {
  const name = String(card.tableName || "").trim();
  const prefix = `${card.game} · `;
  return name.startsWith(prefix) ? name.slice(prefix.length) : name === card.game ? "" : name;
}

/** @param {Date} date @returns {string} */
function dateText(date) {
  return new Intl.DateTimeFormat(locale(), { dateStyle: "long" }).format(date);
}

/**
 * Shorten `text` with "…" until it fits `width` in the context's current font.
 * @param {CanvasRenderingContext2D} ctx
 * @param {string} text
 * @param {number} width
 * @returns {string}
 */
function fit(ctx, text, width) {
  if (ctx.measureText(text).width <= width) return text;
  let cut = text;
  while (cut.length > 1 && ctx.measureText(`${cut}…`).width > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/**
 * The picture: a 1080-wide card, taller with more players. Returns the canvas.
 * @param {Card} card
 * @returns {HTMLCanvasElement}
 */
export function drawCard(card) {
  const height = PAD * 2 + 330 + card.rows.length * ROW + 90;
  const canvas = document.createElement("canvas");
  canvas.width = WIDTH;
  canvas.height = height;
  const ctx = present(canvas.getContext("2d"), "a canvas's 2D context"); // a new canvas has one
  const inner = WIDTH - PAD * 2;
  ctx.fillStyle = COLOURS.bg;
  ctx.fillRect(0, 0, WIDTH, height);
  // Head band: the game and the table.
  ctx.fillStyle = COLOURS.sea;
  ctx.fillRect(0, 0, WIDTH, 210);
  ctx.textBaseline = "alphabetic";
  ctx.fillStyle = "#ffffff";
  ctx.font = `800 76px ${FONT}`;
  ctx.fillText(fit(ctx, card.game, inner), PAD, 110);
  ctx.font = `500 36px ${FONT}`;
  ctx.fillText(fit(ctx, tableLine(card), inner), PAD, 168);
  // The date and the winner.
  let y = 210 + 70;
  ctx.fillStyle = COLOURS.muted;
  ctx.font = `500 34px ${FONT}`;
  ctx.fillText(fit(ctx, t("result.card.date", { date: dateText(card.date) }), inner), PAD, y);
  y += 86;
  ctx.fillStyle = COLOURS.accent;
  star(ctx, PAD + 26, y - 21, 28); // drawn, not an emoji: every phone has the shape, not every font
  ctx.font = `800 58px ${FONT}`;
  ctx.fillText(fit(ctx, card.headline, inner - 76), PAD + 76, y);
  y += 50;
  // The ranking: place, name, score; the winners on a warm band.
  for (const r of card.rows) {
    const top = y;
    ctx.fillStyle = r.winner ? COLOURS.winner : COLOURS.card;
    roundRect(ctx, PAD, top, inner, ROW - 16, 22);
    ctx.fill();
    const base = top + (ROW - 16) / 2 + 14;
    ctx.fillStyle = COLOURS.sea;
    ctx.font = `800 42px ${FONT}`;
    ctx.fillText(`${r.place}.`, PAD + 28, base);
    ctx.font = `600 30px ${FONT}`;
    const score = fit(ctx, String(r.score), inner * 0.45);
    const scoreWidth = ctx.measureText(score).width;
    ctx.fillStyle = COLOURS.ink;
    ctx.fillText(score, PAD + inner - 28 - scoreWidth, base);
    ctx.font = `${r.winner ? 800 : 600} 40px ${FONT}`;
    ctx.fillText(fit(ctx, r.name, inner - 150 - scoreWidth - 40), PAD + 110, base);
    y += ROW;
  }
  ctx.fillStyle = COLOURS.muted;
  ctx.font = `500 30px ${FONT}`;
  ctx.fillText(t("result.card.footer"), PAD, height - PAD + 10);
  return canvas;
}

/**
 * A filled five-pointed star around (cx, cy).
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} cx
 * @param {number} cy
 * @param {number} r
 * @returns {void}
 */
function star(ctx, cx, cy, r) {
  ctx.beginPath();
  for (let i = 0; i < 10; i++) {
    const radius = i % 2 ? r * 0.45 : r;
    const angle = -Math.PI / 2 + (i * Math.PI) / 5;
    ctx.lineTo(cx + radius * Math.cos(angle), cy + radius * Math.sin(angle));
  }
  ctx.closePath();
  ctx.fill();
}

/**
 * A rounded rectangle's path.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} x
 * @param {number} y
 * @param {number} w
 * @param {number} h2
 * @param {number} r
 * @returns {void}
 */
function roundRect(ctx, x, y, w, h2, r) {
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h2, r);
  ctx.arcTo(x + w, y + h2, x, y + h2, r);
  ctx.arcTo(x, y + h2, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

/** @param {HTMLCanvasElement} canvas @returns {Promise<Blob>} */
function pngOf(canvas) {
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("no PNG"))), "image/png"));
}

/** @param {Card} card @returns {string} */
function fileName(card) {
  const slug = (/** @type {string} */ s) => String(s).normalize("NFKD").replace(/[^\w-]+/g, "-").replace(/^-+|-+$/g, "").toLowerCase();
  const day = card.date.toISOString().slice(0, 10);
  return `kibitz-${slug(card.game) || "game"}-${day}.png`;
}

/** @param {Blob} blob @param {string} name @returns {string} the blob's URL */
function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = h("a", { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return url;
}

/** @param {string} text @param {HTMLTextAreaElement} area @returns {Promise<boolean>} copied */
async function copyText(text, area) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    area.select();
    try {
      return document.execCommand("copy");
    } catch {
      return false;
    }
  }
}

/**
 * No file sharing here: the picture is downloaded, and a sheet shows it with the text to copy/share.
 * @param {Card} card
 * @param {Blob} blob
 * @param {string} text
 * @param {HTMLCanvasElement} canvas
 * @returns {void}
 */
function fallback(card, blob, text, canvas) {
  const name = fileName(card);
  download(blob, name);
  const url = canvas.toDataURL("image/png"); // the page's CSP shows data: pictures, not blob: ones
  const area = h("textarea", { class: "input share-card-text", testid: "share-card-text", readonly: true, rows: Math.min(12, text.split("\n").length), "aria-label": t("result.card.text_label") }, text);
  const copyButton = h("button", { type: "button", class: "btn btn-secondary", testid: "share-card-copy" }, t("result.card.copy"));
  copyButton.addEventListener("click", async () => {
    const ok = await copyText(text, area);
    toast(ok ? t("result.card.copied") : t("share.copy_failed"), { kind: ok ? "info" : "error" });
  });
  const shareButton = typeof navigator.share === "function"
    ? h("button", { type: "button", class: "btn btn-secondary", testid: "share-card-share-text", onclick: () => navigator.share({ title: t("result.card.title", { game: card.game }), text }).catch(() => undefined) }, t("result.card.share_text"))
    : null;
  openSheet({
    title: t("result.share"),
    confirm: false,
    testid: "share-card-sheet",
    body: [
      h("img", { class: "share-card-image", src: url, alt: text, testid: "share-card-image" }),
      h("p", { class: "small muted" }, t("result.card.saved")),
      area,
      h(
        "div",
        { class: "row share-card-actions" },
        copyButton,
        shareButton,
        h("a", { class: "btn btn-secondary", href: url, download: name, testid: "share-card-download" }, t("result.card.download")),
      ),
    ],
  });
}

/** A card drawn: its text, canvas and PNG. @typedef {{text: string, canvas: HTMLCanvasElement, blob: Blob, file: File}} Drawn */
/** @typedef {{key: string | null, promise: Promise<Drawn> | null, ready: Drawn | null}} Prepared */

// The last card drawn, by its words: the end screen is redrawn on every update, the picture not.
/** @type {Prepared} */
let cache = { key: null, promise: null, ready: null };

/**
 * The text, the canvas and the PNG of a card (drawn once per content and language).
 * @param {Card} card
 * @returns {Prepared}
 */
function prepare(card) {
  const key = JSON.stringify([lang(), card.game, card.tableName, card.date.toISOString(), card.headline, card.rows]);
  if (cache.key !== key) {
    /** @type {Prepared} */
    const entry = { key, promise: null, ready: null };
    entry.promise = (async () => {
      const text = resultText(card);
      const canvas = drawCard(card);
      const blob = await pngOf(canvas);
      entry.ready = { text, canvas, blob, file: new File([blob], fileName(card), { type: "image/png" }) };
      return entry.ready;
    })();
    cache = entry;
  }
  return cache;
}

/**
 * Hand the card to the system share sheet (with the picture when it takes files), else download
 * the picture and show the text. Called in the tap itself: a prepared picture is shared at once,
 * while the tap still counts as the player's (Safari's share sheet asks for that).
 * @param {Card} card
 * @returns {Promise<"shared" | "aborted" | "downloaded">}
 */
export async function shareResultCard(card) {
  const entry = prepare(card);
  // prepare() starts drawing every card it has not drawn yet.
  const { text, canvas, blob, file } = entry.ready || (await present(entry.promise, "the card's drawing"));
  const data = { files: [file], title: t("result.card.title", { game: card.game }), text };
  if (typeof navigator.share === "function" && typeof navigator.canShare === "function" && navigator.canShare({ files: [file] })) {
    try {
      await navigator.share(data);
      return "shared";
    } catch (err) {
      if (err && /** @type {Error} */ (err).name === "AbortError") return "aborted"; // the player closed the share sheet
    }
  }
  fallback(card, blob, text, canvas);
  return "downloaded";
}

/**
 * The end screen's button; card() gives the card's data (drawn ahead, shared on the tap).
 * @param {() => Card} card
 * @returns {HTMLButtonElement}
 */
export function shareResultButton(card) {
  let busy = false;
  const button = h(
    "button",
    {
      type: "button",
      class: "btn btn-secondary btn-big share-result",
      testid: "share-result",
      onclick: async () => {
        if (busy) return;
        busy = true;
        try {
          await shareResultCard(card());
        } finally {
          busy = false;
        }
      },
    },
    t("result.share"),
  );
  setTimeout(() => {
    if (button.isConnected) prepare(card()).promise?.catch(() => undefined);
  }, 0);
  return button;
}

// Share a table link: the system share sheet when there is one, else a sheet with the link + copy.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { openSheet } from "./sheet.js";
import { toast } from "../toast.js";

export function tableLink(tableId, token) {
  const base = `${location.origin}/#/t/${encodeURIComponent(tableId)}`;
  return token ? `${base}?k=${encodeURIComponent(token)}` : base;
}

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

export async function shareTable(tableId, token, gameTitle) {
  const url = tableLink(tableId, token);
  const text = token ? t("share.text_join", { game: gameTitle }) : t("share.text_view", { game: gameTitle });
  if (navigator.share) {
    try {
      await navigator.share({ title: "Kibitz", text, url });
      return;
    } catch (err) {
      if (err && err.name === "AbortError") return;
      /* fall through to the sheet */
    }
  }
  const input = h("input", { class: "input", type: "text", readonly: true, value: url, testid: "share-link", "aria-label": t("share.link") });
  const copyBtn = h("button", { type: "button", class: "btn btn-secondary", testid: "copy-link" }, t("share.copy"));
  copyBtn.addEventListener("click", async () => {
    const ok = await copy(url, input);
    toast(ok ? t("share.copied") : t("share.copy_failed"), { kind: ok ? "info" : "error" });
  });
  openSheet({
    title: t("share.title"),
    confirm: false,
    testid: "share-sheet",
    body: [h("p", {}, token ? t("share.hint_join") : t("share.hint_view")), h("div", { class: "join-row" }, input, copyBtn)],
  });
}

// Export buttons for a finished table: JSON record, CSV, BG Stats.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import * as api from "../api.js";
import { toastError } from "../toast.js";

/** @param {string} tableId @returns {HTMLDivElement} */
export function exportButtons(tableId) {
  const bgstats = h("button", { type: "button", class: "btn btn-secondary", testid: "export-bgstats" }, t("export.bgstats"));
  bgstats.addEventListener("click", async () => {
    try {
      const { url } = await api.bgStatsLink(tableId);
      if (url) window.location.href = url;
    } catch (err) {
      toastError(err, t("error.generic"));
    }
  });
  return h(
    "div",
    { class: "exports", testid: "exports" },
    h("a", { class: "btn btn-secondary", href: api.exportUrl(tableId, "json"), download: `kibitz-${tableId}.json`, testid: "export-json" }, t("export.json")),
    h("a", { class: "btn btn-secondary", href: api.exportUrl(tableId, "csv"), download: `kibitz-${tableId}.csv`, testid: "export-csv" }, t("export.csv")),
    bgstats,
  );
}

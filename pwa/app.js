// Kibitz phone app: start-up, routes, service worker.
import { initI18n, onLanguageChange, t } from "./js/i18n.js";
import { toast } from "./js/toast.js";
import { addRoute, startRouter, render } from "./js/router.js";
import { initHeader } from "./js/ui/header.js";
import { mountHome } from "./js/views/home.js";
import { mountSetup } from "./js/views/setup.js";
import { mountTable } from "./js/views/table.js";
import { startReferee } from "./js/referee/client.js";

async function main() {
  await initI18n();
  initHeader();
  addRoute(/^\/$/, mountHome);
  addRoute(/^\/new\/(?<game>[\w-]+)$/, mountSetup);
  addRoute(/^\/t\/(?<id>[^/]+)$/, mountTable);
  onLanguageChange(() => render());
  await startRouter(document.getElementById("view"));
  // The phone's referee (Pyodide, ~10 MB, cached by the service worker) boots after the first paint.
  setTimeout(startReferee, 0);
  if ("serviceWorker" in navigator) {
    // A new release's worker takes over at once (skipWaiting); offer a reload to run its code.
    const hadController = !!navigator.serviceWorker.controller;
    navigator.serviceWorker.addEventListener("controllerchange", () => {
      if (hadController) toast(t("app.updated"), { timeout: 15000, onClick: () => location.reload() });
    });
    navigator.serviceWorker.register("sw.js").catch((err) => console.warn("service worker", err));
  }
}

main();

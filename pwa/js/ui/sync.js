// Seen at a glance: the connection badge (online / offline / N moves waiting) and the sheet in
// which the players settle a conflict between what this phone recorded offline and what another
// phone recorded meanwhile.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { isOnline } from "../api.js";
import { openSheet } from "./sheet.js";
import { toast } from "../toast.js";

export function syncBadge() {
  const element = h("span", { class: "badge badge-sync", testid: "sync-badge", role: "status", "aria-live": "polite" });
  return {
    element,
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
      element.textContent = text;
      element.dataset.state = state;
      element.dataset.referee = session.mode;
      element.title = session.mode === "local" ? t("sync.referee_here") : t("sync.referee_server");
    },
  };
}

let open = null;

/** Ask the players what to keep; opened once per conflict. */
export async function showConflict(session, game) {
  const conflict = session.conflict;
  if (!conflict || open?.conflict === conflict.at + JSON.stringify(conflict.mine)) return;
  const key = conflict.at + JSON.stringify(conflict.mine);
  open = { conflict: key };
  if (conflict.refused) {
    showRefusal(session, conflict);
    return;
  }
  const theirs = await session.describeTheirs().catch(() => []);
  const what = theirs.map(({ before, after, event }) => game.describe(before, after, event)).filter(Boolean);
  const reason = conflict.error?.detail || "";
  const sheet = openSheet({
    title: t("sync.conflict_title"),
    testid: "conflict-sheet",
    confirmLabel: t("sync.keep_mine"),
    cancelLabel: t("sync.keep_theirs"),
    onConfirm: async () => {
      sheet.setBusy(true, { lock: true });
      const ok = await session.resolveConflict("mine");
      sheet.close();
      open = null;
      if (!ok) toast(t("sync.mine_impossible"), { kind: "error", timeout: 8000 });
    },
    onCancel: async () => {
      open = null;
      await session.resolveConflict("theirs");
    },
  });
  sheet.setBody([
    h("p", { testid: "conflict-theirs" }, t("sync.conflict_theirs", { what: what.length ? what.join(" · ") : t("sync.conflict_other_moves") })),
    h("p", { testid: "conflict-mine" }, t("sync.conflict_mine", { count: session.waiting - conflict.at, reason })),
  ]);
}

/** The server refused a queued event for good: say why; the players drop it (and what follows). */
function showRefusal(session, conflict) {
  const reason = conflict.error?.detail || conflict.error?.title || "";
  toast(reason, { kind: "error", timeout: 8000 });
  openSheet({
    title: t("sync.refused_title"),
    testid: "conflict-sheet",
    confirm: false,
    cancelLabel: t("sync.drop_mine", { count: session.waiting }),
    body: h("p", { testid: "conflict-mine" }, t("sync.refused", { reason })),
    onCancel: async () => {
      open = null;
      await session.resolveConflict("theirs");
    },
  });
}

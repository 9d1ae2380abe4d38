// The parts every game's setup form ("#/new/<game>") shares: the players list (a numbered name
// field per seat, remove buttons while there are more than the minimum, "Add player" up to the
// maximum), a seat picker that follows the names (who starts, deals or auctions), segmented
// choices, and the form itself with its sticky "Create table" button.
import { h } from "../dom.js";
import { t } from "../i18n.js";

/**
 * playersList({players, min, max, ...}) → {host, addButton, render(), displayName(i), names()}
 *   players   the form's array, changed in place (add pushes blank(), remove splices)
 *   nameOf(p) / setName(i, value)   read and write a player's name (default: the entries are names)
 *   onChange()  after a player was added or removed: re-render what depends on the count (and call render())
 *   onName()    after a name was typed (e.g. refresh the seat picker)
 *   rowClass, seatClass(i), removeClass   the game's own classes on a row, its number and its × button
 *   card(head, p, i)   wraps the name row into a larger card (Mahé adds the turtle colours); the card
 *                      then carries data-testid="player-<i>"
 */
/**
 * @param {object} options
 * @param {any[]} options.players  names, or the game's own player entries (nameOf reads their names)
 * @param {number} options.min
 * @param {number} options.max
 * @param {(p: any) => string} [options.nameOf]
 * @param {(i: number, value: string) => void} [options.setName]
 * @param {() => unknown} [options.blank]
 * @param {() => void} options.onChange
 * @param {() => void} [options.onName]
 * @param {string} [options.rowClass]
 * @param {(i: number) => string} [options.seatClass]
 * @param {string} [options.removeClass]
 * @param {(head: HTMLElement, p: any, i: number) => HTMLElement} [options.card]
 * @returns {{host: HTMLElement, addButton: HTMLButtonElement, render: () => void, displayName: (i: number) => string, names: () => string[]}}
 */
export function playersList({
  players,
  min,
  max,
  nameOf = (p) => p,
  setName = (i, value) => {
    players[i] = value;
  },
  blank = () => "",
  onChange,
  onName,
  rowClass,
  seatClass,
  removeClass,
  card,
}) {
  const host = h("div", { class: "players", testid: "players" });
  const addButton = h("button", { type: "button", class: "btn btn-secondary", testid: "add-player" }, t("setup.add_player"));

  /** @param {number} i @returns {string} the name typed, else "Player <i + 1>" */
  function displayName(i) {
    return nameOf(players[i]).trim() || t("setup.player_n", { n: i + 1 });
  }

  /** @param {any} p @param {number} i @returns {HTMLInputElement} */
  function nameInput(p, i) {
    const input = h("input", {
      type: "text",
      class: "input",
      id: `player-name-${i}`,
      testid: `player-name-${i}`,
      value: nameOf(p),
      maxlength: 40,
      autocomplete: "off",
      placeholder: t("setup.player_n", { n: i + 1 }),
      "aria-label": t("setup.player_name", { n: i + 1 }),
    });
    input.addEventListener("input", () => {
      setName(i, input.value);
      if (onName) onName();
    });
    return input;
  }

  /** @param {any} p @param {number} i @returns {HTMLElement} */
  function row(p, i) {
    const head = h(
      "div",
      { class: ["player-head", !card && rowClass], testid: card ? undefined : `player-${i}` },
      h("span", { class: ["seat-no", seatClass && seatClass(i)] }, String(i + 1)),
      nameInput(p, i),
      players.length > min ? removeButton(i, removeClass, () => {
        players.splice(i, 1);
        onChange();
      }) : null,
    );
    return card ? card(head, p, i) : head;
  }

  /** @returns {void} */
  function render() {
    host.replaceChildren(...players.map(row));
    addButton.hidden = players.length >= max;
  }

  addButton.addEventListener("click", () => {
    if (players.length >= max) return;
    players.push(blank());
    onChange();
    document.getElementById(`player-name-${players.length - 1}`)?.focus();
  });

  return { host, addButton, render, displayName, names: () => players.map((_p, i) => displayName(i)) };
}

/**
 * The × that takes seat i's player off the list.
 * @param {number} i
 * @param {string | undefined} removeClass the game's own class on it
 * @param {() => void} remove
 * @returns {HTMLButtonElement}
 */
function removeButton(i, removeClass, remove) {
  return h(
    "button",
    { type: "button", class: ["icon-button", removeClass], testid: `remove-player-${i}`, "aria-label": t("setup.remove_player", { n: i + 1 }), onclick: remove },
    "×",
  );
}

/**
 * A <select> of the seats by name; with random: true a "Random" option too.
 * → {el, render() (after the names or the count changed), seat() (the choice as a number; Random drawn now)}
 * @param {{id: string, testid: string, names: () => string[], random?: boolean}} options
 * @returns {{el: HTMLSelectElement, render: () => void, seat: () => number}}
 */
export function seatSelect({ id, testid, names, random = false }) {
  const el = h("select", { id, class: "input", testid });
  let value = "0";
  el.addEventListener("change", () => {
    value = el.value;
  });
  return {
    el,
    render() {
      const all = names();
      const options = all.map((name, i) => h("option", { value: String(i) }, name));
      if (random) options.push(h("option", { value: "random" }, t("setup.random")));
      el.replaceChildren(...options);
      value = (random && value === "random") || Number(value) < all.length ? value : "0";
      el.value = value;
    },
    seat() {
      return value === "random" ? Math.floor(Math.random() * names().length) : Number(value);
    },
  };
}

/**
 * Side-by-side choice buttons (aria-pressed): segmented({values, value, onPick, testPrefix,
 * labels(v), hints(v), label}). The pressed button follows a tap before onPick(v) runs.
 * @template V
 * @param {object} options
 * @param {readonly V[]} options.values
 * @param {V} options.value
 * @param {(v: V) => unknown} options.onPick
 * @param {string} options.testPrefix
 * @param {(v: V) => import("../dom.js").Child} options.labels
 * @param {(v: V) => import("../dom.js").Child} [options.hints]
 * @param {string} [options.label]
 * @param {string} [options.extraClass]
 * @returns {HTMLElement}
 */
export function segmented({ values, value, onPick, testPrefix, labels, hints, label, extraClass }) {
  const group = h("div", { class: ["segmented", extraClass], role: "group", "aria-label": label });
  for (const v of values) {
    const button = h(
      "button",
      { type: "button", class: "segment", testid: `${testPrefix}-${v}`, "aria-pressed": String(v === value) },
      h("span", { class: "segment-label" }, labels(v)),
      hints ? h("span", { class: "segment-sub" }, hints(v)) : null,
    );
    button.addEventListener("click", () => {
      group.querySelectorAll(".segment").forEach((el) => el.setAttribute("aria-pressed", String(el === button)));
      onPick(v);
    });
    group.append(button);
  }
  return group;
}

/**
 * The setup <form>: page title, the game's sections, the sticky "Create table" button.
 * submit() runs once at a time (the button is off meanwhile); it posts through the view's create().
 * @param {{game: string, extraClass?: string, sections: import("../dom.js").Child[], submit: () => Promise<unknown>}} options
 * @returns {HTMLFormElement}
 */
export function setupForm({ game, extraClass, sections, submit }) {
  const createButton = h("button", { type: "submit", class: "btn btn-primary btn-big", testid: "create-table" }, t("setup.create"));
  const form = h(
    "form",
    { class: ["setup-form", extraClass], novalidate: true },
    h("h1", { class: "page-title" }, t("setup.title", { game })),
    ...sections,
    h("div", { class: "sticky-submit" }, createButton),
  );
  let submitting = false;
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (submitting) return;
    submitting = true;
    createButton.disabled = true;
    try {
      await submit();
    } finally {
      submitting = false;
      createButton.disabled = false;
    }
  });
  return form;
}

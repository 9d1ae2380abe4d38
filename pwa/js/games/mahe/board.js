// The Mahé board as inline SVG: 21 fields in a ring around the island (field 21 = beach, MA-1),
// stacked turtles (bottom → top drawn upwards), the raft, the face-up egg card, pile and dice.
import { s, clear } from "../../dom.js";
import { t } from "../../i18n.js";
import { HEX, colourName } from "./colours.js";

const SIZE = 360;
const C = SIZE / 2;
const RING = 140; // radius of the field centres
const FIELD_R = 19;
const FIELDS = 21;

/**
 * @param {number} n
 */
export function fieldPosition(n) {
  // Field 21 (beach) at the top; turtles move counter-clockwise, as on the real board.
  const angle = ((-90 - (n * 360) / FIELDS) * Math.PI) / 180;
  return { x: C + RING * Math.cos(angle), y: C + RING * Math.sin(angle), angle };
}

/**
 * One turtle: shell, head, legs. (x, y) = shell centre.
 * @param {string} colour
 * @param {number} x
 * @param {number} y
 */
function turtle(colour, x, y, { scale = 1, mover = false, level = 0, field = 0 } = {}) {
  const fill = HEX[colour] || "#888";
  const g = s("g", {
    class: ["turtle", mover && "is-mover"],
    testid: `turtle-${colour}`,
    "data-colour": colour,
    "data-field": field,
    "data-level": level,
    transform: `translate(${x.toFixed(1)} ${y.toFixed(1)}) scale(${scale})`,
  });
  g.append(s("title", {}, colourName(colour)));
  if (mover) g.append(s("ellipse", { class: "mover-ring", cx: 0, cy: 0, rx: 15, ry: 10 }));
  for (const [lx, ly] of [[-6, -5.5], [6, -5.5], [-6, 5.5], [6, 5.5]]) {
    g.append(s("ellipse", { cx: lx, cy: ly, rx: 3, ry: 2.2, fill: "#8cc962", stroke: "#1b2a2f", "stroke-width": 0.8 }));
  }
  g.append(s("circle", { cx: 11.5, cy: 0, r: 3.4, fill: "#8cc962", stroke: "#1b2a2f", "stroke-width": 0.8 }));
  g.append(s("ellipse", { cx: 0, cy: 0, rx: 10.5, ry: 6.5, fill, stroke: "#1b2a2f", "stroke-width": 1.2 }));
  g.append(s("ellipse", { cx: -1, cy: -1.6, rx: 5.5, ry: 2.4, fill: "#ffffff", "fill-opacity": 0.28 }));
  return g;
}

/**
 * @param {string[]} colours bottom → top
 * @param {number} x
 * @param {number} y
 * @param {{ mover: string | null | undefined, field: number }} where
 */
function stack(colours, x, y, { mover, field }) {
  const g = s("g", { class: "stack" });
  const n = colours.length;
  const step = n > 1 ? Math.min(8, 34 / (n - 1)) : 0;
  const bottomY = y + ((n - 1) * step) / 2;
  colours.forEach((colour, level) => {
    g.append(turtle(colour, x, bottomY - level * step, { mover: colour === mover, level, field }));
  });
  return g;
}

/**
 * @param {number} x
 * @param {number} y
 * @param {number | null | undefined} value
 */
function card(x, y, value, { beach = false } = {}) {
  const g = s("g", { class: "egg-card", testid: "face-up", "data-value": value ?? "" });
  g.append(s("rect", { x, y, width: 46, height: 62, rx: 6, class: beach ? "card-beach" : "card-face" }));
  if (value === null || value === undefined) {
    g.append(s("text", { x: x + 23, y: y + 38, class: "card-empty", "text-anchor": "middle" }, "–"));
  } else {
    g.append(s("ellipse", { cx: x + 23, cy: y + 24, rx: 11, ry: 14, class: "card-egg" }));
    g.append(s("text", { x: x + 23, y: y + 30, class: "card-value", "text-anchor": "middle" }, String(value)));
    g.append(s("text", { x: x + 23, y: y + 54, class: "card-caption", "text-anchor": "middle" }, beach ? t("mahe.beach") : t("mahe.eggs_short")));
  }
  return g;
}

/**
 * @param {number} x
 * @param {number} y
 * @param {import("kibitz-api").components["schemas"]["MaheDie"]} d
 */
function die(x, y, d) {
  const g = s("g", { class: ["die", d.source === "card" && "die-card"], "data-value": d.value });
  g.append(s("rect", { x, y, width: 24, height: 24, rx: 5 }));
  g.append(s("text", { x: x + 12, y: y + 17, "text-anchor": "middle" }, String(d.value)));
  return g;
}

/**
 * @param {number} n
 * @param {string[]} colours
 */
function fieldTitle(n, colours) {
  const name = n === FIELDS ? `${t("mahe.field_n", { n })} (${t("mahe.beach")})` : t("mahe.field_n", { n });
  return colours.length ? `${name}: ${colours.map(colourName).join(" → ")}` : name;
}

export function createBoard() {
  const svg = s("svg", {
    class: "board",
    viewBox: `0 0 ${SIZE} ${SIZE}`,
    role: "img",
    testid: "board",
    "aria-label": t("mahe.board_label"),
  });
  return {
    el: svg,
    /** @param {import("kibitz-api").components["schemas"]["MaheTable"]} table */
    update(table) {
      draw(svg, table);
    },
  };
}

/**
 * @param {SVGSVGElement} svg
 * @param {import("kibitz-api").components["schemas"]["MaheTable"]} table
 */
function draw(svg, table) {
  const state = table.state;
  const legal = table.legal_actions || /** @type {import("kibitz-api").components["schemas"]["MaheLegalActions"]} */ ({});
  const mover = state.phase === "finished" ? null : legal.turtle || state.turn?.turtle || null;
  const lastTo = state.last_move && !state.last_move.bust ? state.last_move.to : null;
  clear(svg);
  svg.setAttribute("aria-label", t("mahe.board_label"));

  // Sea and island.
  svg.append(s("circle", { cx: C, cy: C, r: C - 2, class: "sea" }));
  svg.append(s("circle", { cx: C, cy: C, r: 104, class: "island" }));
  svg.append(s("text", { x: C, y: 84, class: "beach-label", "text-anchor": "middle" }, `▲ ${t("mahe.beach")}`));

  // The track.
  for (let n = 1; n <= FIELDS; n++) {
    const { x, y, angle } = fieldPosition(n);
    const g = s("g", { class: ["field", n === FIELDS && "field-beach", n === lastTo && "field-last"], testid: `track-field-${n}`, "data-field": n });
    const colours = state.track?.[n - 1] || [];
    g.append(s("title", {}, fieldTitle(n, colours)));
    g.append(s("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r: FIELD_R }));
    const lx = C + (RING + 30) * Math.cos(angle);
    const ly = C + (RING + 30) * Math.sin(angle);
    g.append(s("text", { x: lx.toFixed(1), y: (ly + 4).toFixed(1), class: "field-number", "text-anchor": "middle" }, String(n)));
    if (colours.length) g.append(stack(colours, x, y, { mover, field: n }));
    svg.append(g);
  }

  // Egg pile and face-up card (left), dice of the current move (right).
  const beachCard = state.face_up === null && state.beach_exposed && state.beach_taken_by === null;
  // The face-up card lies on the pile (pile_count counts it): the pile shows what is still face down.
  const facedown = Math.max(0, (state.pile_count ?? 0) - (state.face_up === null || state.face_up === undefined ? 0 : 1));
  svg.append(card(C - 62, 100, beachCard ? 7 : state.face_up, { beach: beachCard }));
  svg.append(
    s("text", { x: C - 39, y: 178, class: "pile-count", testid: "pile-count", "data-count": facedown, "text-anchor": "middle" },
      t("mahe.pile", { count: facedown })),
  );
  const dice = state.turn?.dice || [];
  const diceG = s("g", { class: "dice", testid: "dice" });
  dice.forEach((d, i) => diceG.append(die(C + 4 + i * 28, 108, d)));
  if (dice.length) {
    const sum = dice.reduce((a, d) => a + d.value, 0);
    diceG.append(s("text", { x: C + 44, y: 152, class: "dice-sum", "text-anchor": "middle" }, t("mahe.dice_fields", { sum, n: dice.length, distance: sum * dice.length })));
  }
  svg.append(diceG);

  // The raft: turtles never stack there (MA-6).
  const raft = state.raft || [];
  const raftG = s("g", { class: "raft", testid: "raft" });
  const width = Math.max(90, raft.length * 24 + 16);
  raftG.append(s("rect", { x: C - width / 2, y: 206, width, height: 30, rx: 4, class: "raft-planks" }));
  for (let i = 1; i < 4; i++) raftG.append(s("line", { x1: C - width / 2, x2: C + width / 2, y1: 206 + i * 7.5, y2: 206 + i * 7.5, class: "raft-line" }));
  raftG.append(s("text", { x: C, y: 252, class: "raft-label", "text-anchor": "middle" }, t("mahe.raft")));
  raft.forEach((colour, i) => {
    const x = C - ((raft.length - 1) * 24) / 2 + i * 24;
    raftG.append(turtle(colour, x - 1.5, 221, { scale: 0.9, mover: colour === mover, field: 0 }));
  });
  svg.append(raftG);
}

// Game clients the app knows. Each lives in js/games/<name>/index.js and exports default
// {name, title, mountSetup(container, ctx), createScreen(container, controller), describe(before, after, event),
// replayState(table) (the table read-only at a step of the log's replay)}.
// To add Magellan or Mhing: create js/games/<name>/ and add a line here (and to sw.js's precache list).

const LOADERS = {
  mahe: () => import("./mahe/index.js"),
  magellan: () => import("./magellan/index.js"),
  mhing: () => import("./mhing/index.js"),
};

export function hasClient(name) {
  return Object.hasOwn(LOADERS, name);
}

export async function loadGame(name) {
  const loader = LOADERS[name];
  return loader ? (await loader()).default : null;
}

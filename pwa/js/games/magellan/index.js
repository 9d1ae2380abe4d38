// Magellan (Tom Lehmann): the game client the table view and setup view load by name.
import { mountSetup } from "./setup.js";
import { createScreen } from "./screen.js";
import { describe } from "./describe.js";
import { replayState } from "./replay.js";
import { TITLE, confirmFirst } from "./common.js";

export default {
  name: "magellan",
  title: TITLE,
  mountSetup,
  createScreen,
  describe,
  replayState,
  confirmFirst,
};

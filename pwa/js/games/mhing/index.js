// Mhing (Suntex): Mah-Jongg with cards. The game client the table view and setup view load by name.
import { mountSetup } from "./setup.js";
import { createScreen } from "./screen.js";
import { describe } from "./describe.js";
import { replayState } from "./replay.js";

export default {
  name: "mhing",
  title: "Mhing",
  mountSetup,
  createScreen,
  describe,
  replayState,
  /** Every Mhing entry ends a round or the game and settles scores: confirmed first. */
  confirmFirst: () => true,
};

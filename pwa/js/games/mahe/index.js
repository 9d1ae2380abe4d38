// Mahé (Alex Randolph): the game client the table view and setup view load by name.
import { mountSetup } from "./setup.js";
import { createScreen } from "./screen.js";
import { describe } from "./describe.js";
import { replayState } from "./replay.js";

export default {
  name: "mahe",
  title: "Mahé",
  mountSetup,
  createScreen,
  describe,
  replayState,
};

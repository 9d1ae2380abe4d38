// Magellan (Tom Lehmann): the game client the table view and setup view load by name.
import { mountSetup } from "./setup.js";
import { createScreen } from "./screen.js";
import { describe } from "./describe.js";
import { confirmFirst } from "./common.js";

export default {
  name: "magellan",
  title: "Magellan",
  mountSetup,
  createScreen,
  describe,
  confirmFirst,
};

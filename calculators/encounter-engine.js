// @ts-check
// The encounter tracker's one way into Python (rules_pkg.encounter.api, handed over by
// bridge.py), shared by the Encounter page (encounter.js) and "Apply to …" on every
// calculator (encounter-apply.js), so neither imports the other.

import { python } from "./boot.mjs";
import { FRAMED } from "./guards.mjs";

/** A message for the player (the rules refused, or the engine is missing): never a bug. */
export class EncounterError extends Error {}

/** Python's encounter entry point, once the rules engine is ready (boot.mjs).
 * @returns {Promise<(request: string) => string>} */
async function engine() {
  try {
    if (FRAMED) throw new Error("framed: no engine (guards.mjs)");
    await python();
  } catch {
    throw new EncounterError("The rules engine could not be loaded.");
  }
  return /** @type {any} */ (window).tablesideEncounter;
}

/** @param {Record<string, any>} req @returns {Promise<Record<string, any>>} */
export async function py(req) {
  const fn = await engine();
  const reply = JSON.parse(fn(JSON.stringify(req)));
  if (!reply.ok) {
    if (reply.kind !== "rules") console.warn("Tableside encounter:", reply.detail);
    throw new EncounterError(reply.kind === "rules" ? reply.message
      : "Encounter error: this could not be worked out.");
  }
  return reply;
}

// @ts-check
// The encounter tracker's one way into Python (rules_pkg.encounter.api, handed over by
// python/bridge.py), shared by the Encounter page (encounter/page.js) and "Apply to …" on every
// calculator (encounter/apply.js), so neither imports the other.

import { encounter, python } from "../python/boot.mjs";
import { fileText, saveEncounter } from "./store.js";
import { FRAMED } from "../guards.mjs";

/** A message for the player (the rules refused, or the engine is missing): never a bug. */
export class EncounterError extends Error {
  /** @param {string} message
   * @param {{eid: string, reason: string}} [refused] the event of the log the rules
   * refused (its id) and the bare reason (rules_pkg.errors.EventError) */
  constructor(message, refused) {
    super(message);
    this.refused = refused;
  }
}
/** The engine itself could not start (not the encounter's fault). */
export class EngineMissing extends EncounterError {}

/** Python's encounter entry point, once the rules engine is ready (python/boot.mjs).
 * @returns {Promise<(request: string) => Promise<string>>} */
async function engine() {
  try {
    if (FRAMED) throw new Error("framed: no engine (guards.mjs)");
    await python();
  } catch {
    throw new EngineMissing("The rules engine could not be loaded.");
  }
  return encounter;
}

/** @param {Record<string, any>} req @returns {Promise<Record<string, any>>} */
export async function py(req) {
  const fn = await engine();
  const reply = JSON.parse(await fn(JSON.stringify(req)));
  if (!reply.ok) {
    if (reply.kind !== "rules") { // a bug: said briefly, its detail for the console
      console.warn("Tableside encounter:", reply.detail);
      throw new EncounterError("Encounter error: this could not be worked out.");
    }
    throw new EncounterError(reply.message, reply.eid
      ? { eid: String(reply.eid), reason: String(reply.reason) } : undefined);
  }
  return reply;
}

/**
 * A stored encounter read through Python (checked, and migrated to this build's schema,
 * which is then stored). Throws an EncounterError when it cannot be read. With `hold`,
 * Python keeps its log under that name (rules_pkg/encounter/held.py). Events added to
 * `doc` meanwhile (another tab's) are kept after the ones read. Resolves to the events
 * as Python read them.
 * @param {import("./store.js").EncDoc} doc @param {string} [hold]
 * @returns {Promise<import("./store.js").EncEvent[]>}
 */
export async function migrated(doc, hold = "") {
  const sent = doc.events;
  const reply = await py({ op: "import", text: fileText(doc), known: true, ...(hold ? { hold } : {}) });
  const events = reply.same ? sent : reply.events;
  if (events !== sent || reply.schema !== doc.schema || reply.name !== doc.name) {
    const read = new Set(sent);
    if (events !== sent && JSON.stringify(events) !== JSON.stringify(sent)) {
      doc.events = [...events, ...doc.events.filter((e) => !read.has(e))];
    }
    doc.name = reply.name; // cleaned (rules_pkg/untrusted.py)
    doc.schema = reply.schema;
    delete doc.redo; // schema 1's redo stack: Redo is an event now
    saveEncounter(doc);
  }
  return events; // what Python holds: the page's own objects, or equal to them
}

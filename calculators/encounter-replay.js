// @ts-check
// A long fight replayed without blocking the page (issue 24: a bounded replay). Python
// folds for at most SLICE_MS per request (rules_pkg/encounter/replay.py keeps what it has
// folded as checkpoints), the page draws the fight as far as it goes, yields to the
// browser, and asks again until it is up to date. A fold of one new event is one slice.

import { py } from "./encounter-engine.js";

/** The longest a request to Python may fold for: one slice of main-thread work. */
export const SLICE_MS = 40;

/**
 * The fold of `events`, in slices; `partial(reply)` is called with each reply that is not
 * up to date yet (to show the fight so far). `stale()` true: a newer replay has started,
 * this one stops (resolves to null).
 * @param {string} game @param {import("./encounter-store.js").EncEvent[]} events
 * @param {(reply: Record<string, any>) => void} partial @param {() => boolean} stale
 * @returns {Promise<Record<string, any> | null>}
 */
export async function replayed(game, events, partial, stale) {
  for (;;) {
    const reply = await py({ op: "fold", game, events, budget_ms: SLICE_MS });
    if (stale()) return null;
    if (reply.done) return reply;
    partial(reply);
    await new Promise((r) => { setTimeout(r, 0); }); // the page draws, and takes input
    if (stale()) return null;
  }
}

/** The limits of a fight, in words (rules_pkg/encounter/limits.py), once the engine is up. */
export async function limitsText() {
  return /** @type {{text: string, file_chars: number}} */ ((await py({ op: "limits" })).limits);
}

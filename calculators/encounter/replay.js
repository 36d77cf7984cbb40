// @ts-check
// A long fight replayed without blocking the page (issue 24: a bounded replay). Python
// runs in a worker (python/worker.mjs) and keeps the log it was sent, by game
// (rules_pkg/encounter/held.py): a request sends only the events the worker does not hold
// yet, so a slice or a tap costs what is new, not the whole log (up to 5,000 events)
// cloned, parsed and checked again. Python folds for at most SLICE_MS per request
// (rules_pkg/encounter/replay.py keeps checkpoints); between slices the page draws how far
// it got and takes input. A fold of one new event is one slice.

import { migrated, py } from "./engine.js";

/** The longest a request to Python may fold for. Off the main thread since the worker
 * (issue 26), so no longer a bound on a main-thread task: a bound on how long a tap waits
 * behind a long replay, and how often its progress is drawn. */
export const SLICE_MS = 250;

/** @typedef {import("./store.js").EncEvent} EncEvent */

/** The log the worker holds under each name (a game), as last sent to it (the events
 * themselves: a log is only appended to, a changed one is a new array). @type {Map<string, EncEvent[]>} */
const held = new Map();

/** @param {EncEvent} a @param {EncEvent} b */
const same = (a, b) => a === b || (a.eid === b.eid && JSON.stringify(a) === JSON.stringify(b));

/**
 * A request's log: the events after those the worker holds under `hold` that this log
 * starts with (held.py checks `keep` and `last`, and asks for the whole log when its copy
 * is not that one). The worker reads requests in the order they are sent.
 * @param {string} hold @param {EncEvent[]} events
 */
function logOf(hold, events) {
  const had = held.get(hold) || [];
  const n = Math.min(had.length, events.length);
  let keep = 0;
  while (keep < n && same(had[keep], events[keep])) keep += 1;
  held.set(hold, events);
  return keep ? { hold, keep, last: events[keep - 1].eid, events: events.slice(keep) }
    : { hold, events };
}

/**
 * A request about `game`'s log `events` (op inputs, odds …) sent with only the events the
 * worker does not hold yet; the reply as py() gives it.
 * @param {Record<string, any> & {game: string}} req @param {EncEvent[]} events
 * @returns {Promise<Record<string, any>>}
 */
export async function pyHeld(req, events) {
  try {
    const reply = await py({ ...req, ...logOf(req.game, events) });
    if (!reply.resend) return reply;
    held.set(req.game, events); // a new worker, or its copy is another log
    return await py({ ...req, hold: req.game, events });
  } catch (err) {
    held.delete(req.game); // what the worker holds is not known here: send it whole next
    throw err;
  }
}

/**
 * The fold of `events`, in slices; `partial(reply)` is called with each reply that is not
 * up to date yet: the first with the state so far (unless `quiet`), the others with how
 * far it got only. `stale()`
 * true: a newer replay has started, this one stops (resolves to null).
 * @param {string} game @param {EncEvent[]} events
 * @param {(reply: Record<string, any>) => void} partial @param {() => boolean} stale
 * @param {boolean} [quiet]
 * @returns {Promise<Record<string, any> | null>}
 */
export async function replayed(game, events, partial, stale, quiet = false) {
  // the state so far with the first slice only (the fight shown), then how far it got: a
  // state each slice cost the worker its view and the page a redraw of 60-80 ms on the
  // phone profile, ~6 times in a 5,000-event replay (issue 24)
  const ask = (/** @type {boolean} */ first) => pyHeld({ op: "fold", game, budget_ms: SLICE_MS,
    partial_state: !quiet && first }, events);
  let asked = ask(true);
  for (;;) { // after the first slice, nothing new is sent: the worker folds on
    const reply = await asked;
    if (stale()) return null;
    if (reply.done) return reply;
    // the next slice is asked for before this one is drawn: the worker folds on while
    // the page draws (it waited ~100 ms a slice on the phone profile, issue 24)
    asked = ask(false);
    asked.catch(() => {}); // awaited above, unless a newer replay takes over
    partial(reply);
    await new Promise((r) => { setTimeout(r, 0); }); // the page draws, and takes input
    if (stale()) return null;
  }
}

/**
 * A stored encounter read (and migrated) through Python, which then holds its log for the
 * folds that follow: only what is new is sent after this.
 * @param {import("./store.js").EncDoc} doc
 */
export async function checkedDoc(doc) {
  held.set(doc.game, await migrated(doc, doc.game));
}

/**
 * A file's text read through Python (checked event by event), its log held as `game`'s.
 * @param {string} game @param {string} text
 */
export async function importedText(game, text) {
  const reply = await py({ op: "import", text, hold: game });
  if (reply.game === game) held.set(game, reply.events);
  else held.delete(game);
  return reply;
}

/** @type {Promise<{text: string, file_chars: number}> | null} */
let limits = null;

/** The limits of a fight, in words (rules_pkg/encounter/limits.py), once the engine is up:
 * asked once a visit (they are the build's), not again before every import. */
export function limitsText() {
  if (!limits) {
    limits = py({ op: "limits" }).then((r) => r.limits);
    limits.catch(() => { limits = null; }); // the engine failed: asked again next time
  }
  return limits;
}

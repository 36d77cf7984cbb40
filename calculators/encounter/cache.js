// @ts-check
// The fight as last folded, kept beside its log (issue 26 item 2): on a reload the
// Encounter page draws it at once, before Python has started, and Python's fold of the
// log then checks it (encounter/page.js fold(): the fold wins and is drawn). One per game,
// under `tableside:encounter-folded:<game>`, with the encounter's id and a key of the log
// it was folded from (its length and a digest of its event ids): a log that changed since
// (another tab, an import) is not drawn from it.
//
// Storage is untrusted: the value is read with the store's guards (its size, its depth
// counted before JSON.parse, then its shape field by field, as encounter/store.js reads a
// log); the view only ever puts its strings as text (encounter/view.js, dom.mjs). A bad
// one is dropped, and the page says so; it is never the fight itself, only a picture of
// it, so nothing is lost: the events are stored apart.

import { FOLDED as PREFIX, MAX_DEPTH, jsonDepth } from "./store.js";

/** Far above any fight's state (40 combatants: ~0.2 MB): a larger value is not read. */
const MAX_CHARS = 1_000_000;
/** Written this long after the last fold: a run of taps writes once (a tap stays quick). */
const WRITE_MS = 400;

/** @typedef {{state: import("./view.js").State, undo: string | null,
 *   redo: string | null}} Folded */

/** The key of a log: its length and an FNV-1a digest of its event ids, in order.
 * @param {import("./store.js").EncEvent[]} events */
export function logKey(events) {
  let h = 0x811c9dc5;
  for (const e of events) {
    const id = `${e.eid}\n`;
    for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193) >>> 0;
  }
  return `${events.length}:${h.toString(16)}`;
}

/** @param {unknown} v */
const isMap = (v) => Boolean(v) && typeof v === "object" && !Array.isArray(v);
/** @param {unknown} v */
const str = (v) => typeof v === "string";
/** @param {unknown} v */
const whole = (v) => Number.isSafeInteger(v) && /** @type {number} */ (v) >= 0;
/** @param {unknown} v */
const num = (v) => typeof v === "number" && Number.isFinite(v);
/** @param {unknown} v @param {(x: any) => boolean} each */
const list = (v, each) => Array.isArray(v) && v.every(each);
/** @param {unknown} v */
const texts = (v) => list(v, str);

/** @param {any} v */
const isValue = (v) => isMap(v) && str(v.key) && str(v.label) && num(v.value) && num(v.lo)
  && (num(v.hi) || str(v.hi)) && typeof v.full === "boolean" && typeof v.tracked === "boolean";
/** @param {any} c */
const isCond = (c) => isMap(c) && str(c.name) && (c.rounds === null || whole(c.rounds)) && str(c.level);
/** @param {any} c */
const isFighter = (c) => isMap(c) && str(c.id) && str(c.name) && str(c.kind)
  && (c.initiative === null || num(c.initiative)) && list(c.values, isValue) && str(c.main)
  && ["ok", "hurt", "bad", "out"].includes(c.wound) && list(c.conditions, isCond)
  && texts(c.injuries) && texts(c.status) && str(c.out);
/** @param {any} a */
const isAsk = (a) => isMap(a) && str(a.id) && str(a.name) && whole(a.sides) && whole(a.count)
  && str(a.says);
/** @param {any} e */
const isEntry = (e) => isMap(e) && whole(e.event) && whole(e.round) && str(e.summary)
  && texts(e.steps) && texts(e.notes) && (e.eid === undefined || str(e.eid));

/**
 * Why `s` is not a folded state of `game` the view can draw, or "" when it is: every
 * field the view reads, of its type, and the turn order naming its own combatants.
 * @param {any} s @param {string} game
 */
export function stateProblem(s, game) {
  if (!isMap(s) || s.game !== game) return "not a state of this game";
  if (!whole(s.round) || !whole(s.turn) || !(s.current === null || str(s.current))) {
    return "no round or turn";
  }
  if (!list(s.combatants, isFighter)) return "a combatant is not one";
  const ids = new Set(s.combatants.map((/** @type {any} */ c) => c.id));
  if (ids.size !== s.combatants.length) return "two combatants share an id";
  if (!list(s.order, (id) => ids.has(id)) || new Set(s.order).size !== s.order.length
      || (s.current !== null && !ids.has(s.current))) {
    return "the turn order names someone who is not in the fight";
  }
  if (!list(s.asks, isAsk) || !list(s.history, isEntry)
      || !(s.history_total === undefined || whole(s.history_total))) {
    return "its asks or history are not what the page keeps";
  }
  return "";
}

/** @param {string} key @returns {string | null} */
function getItem(key) {
  try {
    return localStorage.getItem(key);
  } catch { // storage blocked: nothing kept, nothing drawn early
    return null;
  }
}

/**
 * The folded state kept for `doc`: `{folded}` when it is this log's, `{bad}` (why) when
 * what is stored cannot be read (it is removed), `{}` when there is none for this log.
 * @param {import("./store.js").EncDoc} doc
 * @returns {{folded?: Folded, bad?: string}}
 */
export function storedFold(doc) {
  const raw = getItem(PREFIX + doc.game);
  if (raw === null) return {};
  const bad = (/** @type {string} */ why) => {
    try { localStorage.removeItem(PREFIX + doc.game); } catch { /* nothing to remove */ }
    return { bad: why };
  };
  if (raw.length > MAX_CHARS) return bad("too large");
  if (jsonDepth(raw, MAX_DEPTH) > MAX_DEPTH) return bad("nested too deeply");
  let v;
  try {
    v = JSON.parse(raw);
  } catch {
    return bad("not JSON");
  }
  if (!isMap(v) || !str(v.id) || !str(v.key) || !(v.undo === null || str(v.undo))
      || !(v.redo === null || str(v.redo))) {
    return bad("not what this page stores there");
  }
  if (v.id !== doc.id || v.key !== logKey(doc.events)) return {}; // another log's: not drawn
  const why = stateProblem(v.state, doc.game);
  return why ? bad(why) : { folded: { state: v.state, undo: v.undo, redo: v.redo } };
}

/** @type {Map<string, ReturnType<typeof setTimeout>>} */
const writes = new Map();
/** @type {Map<string, () => void>} */
const pending = new Map();

/**
 * Keep `folded`, the fold of `events` (the log of `doc` as it was sent), shortly after
 * (the newest of a run of folds only); a page being left writes at once.
 * @param {import("./store.js").EncDoc} doc
 * @param {import("./store.js").EncEvent[]} events @param {Folded} folded
 */
export function keepFold(doc, events, folded) {
  const { game, id } = doc;
  clearTimeout(writes.get(game));
  const write = () => {
    writes.delete(game);
    pending.delete(game);
    const text = JSON.stringify({ id, key: logKey(events), state: folded.state,
      undo: folded.undo, redo: folded.redo });
    try {
      if (text.length <= MAX_CHARS) localStorage.setItem(PREFIX + game, text);
    } catch { /* full or blocked: the page folds again next time, as before */ }
  };
  pending.set(game, write);
  writes.set(game, setTimeout(write, WRITE_MS));
}

addEventListener("pagehide", () => { for (const write of [...pending.values()]) write(); });

// @ts-check
// The encounter tracker's storage: encounters (as their file form: format, schema, game,
// name, events), the active encounter per game, and presets, kept in
// localStorage so they survive a reload, going offline and a new build. Python reads and
// migrates a stored encounter (rules_pkg.encounter.codec) before it is used.
//
// Storage is untrusted and can fail (issue 24): blocked (private modes, a site setting),
// full, or holding something unreadable. Nothing here throws for that: what cannot be
// stored is kept in this tab (`unsaved`) and `storageProblem()` says why, for the page to
// show; what cannot be read is set aside under its own key (`setAside()`), never deleted.
// Two tabs write one encounter as a merge of their events by id (under a Web Lock), and
// tell each other (BroadcastChannel): no event is lost to the last writer.

const KEY = "tableside:encounters";
const ACTIVE = "tableside:encounter-active";
const PRESETS = "tableside:encounter-presets";
/** Where unreadable stored values are set aside: `<key>:unreadable:<time>[:<n>]`. */
const ASIDE = ":unreadable:";
/** The channel tabs tell each other on that an encounter changed (encounter/sync.js). */
export const CHANNEL = "tableside:encounters";
/** How deeply a stored value may nest (rules_pkg/encounter/limits.py Limits.depth; a test
 * keeps the two equal): deeper is set aside unparsed, never handed to JSON.stringify,
 * whose recursion would overflow ("Maximum call stack size exceeded"). */
export const MAX_DEPTH = 20;
/** The file schema this page writes (rules_pkg/encounter/codec.py SCHEMA). */
export const SCHEMA = 2;

/**
 * @typedef {{type: string, eid?: string, [field: string]: any}} EncEvent
 * @typedef {{format: string, schema: number, game: string, name: string,
 *   events: EncEvent[], redo?: EncEvent[], id: string, updated: number}} EncDoc
 *   (`redo`: schema 1's stack, gone once Python has migrated the doc to schema 2)
 * @typedef {{name: string, kind: string, values: [string, number][]}} Preset
 * @typedef {{key: string, text: string, why: string}} AsideItem
 */

/** What could not be written, by key: read back from here first (this tab only). */
const unsaved = new Map();
/** Set aside in this tab only (storage refused even that). @type {AsideItem[]} */
const asideHere = [];
/** Why the fight is not being saved ("" while it is). */
let problem = "";
/** @type {Set<() => void>} */
const listeners = new Set();

/** Called whenever storageProblem() or setAside() may have changed. @param {() => void} fn */
export function onStorageStatus(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

const changed = () => { for (const fn of listeners) fn(); };

/** Why this tab's encounters are not being saved on the device, or "" when they are. */
export function storageProblem() {
  return problem;
}

/** What a storage failure means for the reader, in words (never the browser's raw text).
 * @param {unknown} err */
function plainly(err) {
  const name = err instanceof DOMException || err instanceof Error ? err.name : "";
  if (name === "QuotaExceededError" || name === "NS_ERROR_DOM_QUOTA_REACHED") {
    return "this site's storage on the device is full";
  }
  if (name === "SecurityError") return "this browser does not let the page use its storage (a private window or a blocked site)";
  return "this browser refused to store it";
}

/** @param {unknown} err */
function fail(err) {
  const why = plainly(err);
  if (why !== problem) { problem = why; changed(); }
}

/** The page's localStorage, or null when even asking for it throws (storage blocked). */
function storage() {
  try {
    return window.localStorage;
  } catch (err) {
    fail(err);
    return null;
  }
}

/** @param {string} key @returns {string | null} */
function getRaw(key) {
  if (unsaved.has(key)) return unsaved.get(key);
  try {
    return storage()?.getItem(key) ?? null;
  } catch (err) {
    fail(err);
    return null;
  }
}

/** Where the folded states are kept beside the logs (encounter/cache.js): a picture of a
 * fight, given up for the fight itself when storage is full. */
export const FOLDED = "tableside:encounter-folded:";

/** @param {Storage} s @param {string} key @param {string} text */
function setItem(s, key, text) {
  try {
    s.setItem(key, text);
  } catch (err) {
    const folded = [...Array(s.length).keys()].map((i) => s.key(i) || "").filter((k) => k.startsWith(FOLDED));
    if (!folded.length || key.startsWith(FOLDED)) throw err;
    for (const k of folded) s.removeItem(k);
    s.setItem(key, text);
  }
}

/** Store `text` under `key`; when storage refuses, keep it in this tab. @returns {boolean} stored
 * @param {string} key @param {string} text */
function setRaw(key, text) {
  try {
    const s = storage();
    if (!s) throw new DOMException("no storage", "SecurityError");
    setItem(s, key, text);
    unsaved.delete(key);
    if (problem && !unsaved.size) { problem = ""; changed(); }
    return true;
  } catch (err) {
    unsaved.set(key, text);
    fail(err);
    return false;
  }
}

/** Keep an unreadable value under a key of its own (kept, not lost) and say so.
 * @param {string} key @param {string} text @param {string} why */
function setAsideRaw(key, text, why) {
  const at = `${key}${ASIDE}${Date.now()}:${Math.random().toString(36).slice(2, 6)}`;
  try {
    const s = storage();
    if (!s) throw new DOMException("no storage", "SecurityError");
    s.setItem(at, text);
  } catch {
    asideHere.push({ key: at, text, why });
  }
  changed();
}

/** Everything set aside as unreadable (on the device, or in this tab when it could not be
 * stored), oldest first. @returns {AsideItem[]} */
export function setAside() {
  /** @type {AsideItem[]} */
  const out = [];
  try {
    const s = storage();
    for (let i = 0; s && i < s.length; i++) {
      const k = s.key(i);
      if (k && k.startsWith("tableside:") && k.includes(ASIDE)) {
        out.push({ key: k, text: s.getItem(k) || "", why: "" });
      }
    }
  } catch { /* storage blocked: only this tab's */ }
  return [...out.sort((a, b) => (a.key < b.key ? -1 : 1)), ...asideHere];
}

/** Forget a set-aside value (the reader exported it, or does not want it). @param {string} key */
export function discardAside(key) {
  const i = asideHere.findIndex((x) => x.key === key);
  if (i >= 0) asideHere.splice(i, 1);
  else if (key.includes(ASIDE)) {
    try { storage()?.removeItem(key); } catch { /* nothing to forget */ }
  }
  changed();
}

/** How deeply JSON text nests, counted without parsing (strings skipped), stopping past
 * `limit` (as rules_pkg/untrusted.py json_depth counts). @param {string} text @param {number} limit */
export function jsonDepth(text, limit) {
  // a loop over the characters, no match objects: a 5,000-event store (~0.6 MB) is read
  // on every save, and matchAll took ~30 ms of it on the phone profile (issue 24)
  let depth = 0;
  let deepest = 0;
  for (let i = 0, n = text.length; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) { // '"': the string is skipped, its escapes with it
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 92) i++; // '\\'
        else if (d === 34) break;
      }
    } else if (c === 91 || c === 123) { // '[' '{'
      depth += 1;
      if (depth > deepest && (deepest = depth) > limit) return deepest;
    } else if (c === 93 || c === 125) depth -= 1; // ']' '}'
  }
  return deepest;
}

/**
 * A stored JSON value checked by `valid`; anything else (not JSON, the wrong shape, a
 * `null`) is set aside and `fallback` is used (and stored in its place).
 * @template T @param {string} key @param {T} fallback @param {(v: any) => boolean} valid
 * @returns {T}
 */
function read(key, fallback, valid) {
  const raw = getRaw(key);
  if (raw === null) return fallback;
  let value;
  const deep = jsonDepth(raw, MAX_DEPTH) > MAX_DEPTH;
  try {
    value = deep ? undefined : JSON.parse(raw);
  } catch {
    value = undefined;
  }
  if (value !== undefined && valid(value)) return value;
  setAsideRaw(key, raw, deep ? "nested too deeply" : "not what this page stores there");
  setRaw(key, JSON.stringify(fallback));
  return fallback;
}

/** @param {unknown} v @returns {v is Record<string, any>} */
const isMap = (v) => Boolean(v) && typeof v === "object" && !Array.isArray(v);

/** The shape an encounter must have to be offered at all (Python checks its events).
 * @param {any} d @param {string} id */
function isDoc(d, id) {
  return isMap(d) && d.id === id && typeof d.game === "string" && typeof d.name === "string"
    && Array.isArray(d.events) && Number.isInteger(d.schema);
}

/** @returns {Record<string, EncDoc>} */
export function allEncounters() {
  const all = read(KEY, {}, isMap);
  const bad = Object.keys(all).filter((id) => !isDoc(all[id], id));
  if (bad.length) { // one unreadable encounter is set aside, not the others with it
    for (const id of bad) setAsideRaw(KEY, JSON.stringify(all[id]) ?? "", "not an encounter");
    for (const id of bad) delete all[id];
    setRaw(KEY, JSON.stringify(all));
  }
  return all;
}

/** @param {string} game @returns {EncDoc[]} newest first */
export function encountersOf(game) {
  return Object.values(allEncounters()).filter((d) => d.game === game)
    .sort((a, b) => (b.updated || 0) - (a.updated || 0));
}

/** One tab at a time reads, merges and writes the encounters (Web Locks, where the
 * browser has them). @template T @param {() => T} fn @returns {Promise<T>} */
function locked(fn) {
  const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
  return locks ? /** @type {Promise<T>} */ (locks.request(KEY, async () => fn()))
    : Promise.resolve().then(fn);
}

/** @type {BroadcastChannel | null} */
let channel = null;

/** Tell this device's other tabs that an encounter changed. @param {EncDoc} doc */
function announce(doc) {
  try {
    channel ||= new BroadcastChannel(CHANNEL);
    channel.postMessage({ game: doc.game, id: doc.id });
  } catch { /* no BroadcastChannel: the storage event still tells them */ }
}

/**
 * The union of two logs of the same encounter, by event id: the stored order kept, this
 * tab's events that are not stored yet appended in their order (rules_pkg/encounter/log.py:
 * a log is only appended to, so a merge is a union).
 * @param {EncEvent[]} stored @param {EncEvent[]} ours @returns {EncEvent[]}
 */
export function mergeEvents(stored, ours) {
  const have = new Set(stored.map((e) => e.eid));
  const missing = ours.filter((e) => !have.has(e.eid));
  // ours holds every stored event (a merge of two copies, rules_pkg merge.py, orders them
  // the same on both devices): its order stands
  if (ours.length - missing.length === stored.length) return ours;
  return [...stored, ...missing];
}

/**
 * Store the encounter, merged with what another tab stored meanwhile: `doc.events` becomes
 * the merged log. Resolves to true when stored on the device (false: kept in this tab
 * only, storageProblem() says why). Never rejects.
 * @param {EncDoc} doc @returns {Promise<boolean>}
 */
export function saveEncounter(doc) {
  return locked(() => {
    const all = allEncounters();
    const there = all[doc.id];
    // a stored copy of an older schema is this one before Python migrated it: ours wins
    if (there && there.schema === doc.schema && doc.schema >= 2) {
      doc.events = mergeEvents(there.events, doc.events);
    }
    all[doc.id] = { ...doc, updated: Date.now() };
    const ok = setRaw(KEY, JSON.stringify(all));
    if (ok) announce(doc);
    return ok;
  }).catch(() => false);
}

/** The stored copy of one encounter (another tab may have added to it), or null.
 * @param {string} id @returns {EncDoc | null} */
export function storedEncounter(id) {
  return allEncounters()[id] || null;
}

/** @param {string} id */
export function deleteEncounter(id) {
  return locked(() => {
    const all = allEncounters();
    delete all[id];
    setRaw(KEY, JSON.stringify(all));
  }).catch(() => undefined);
}

/** Move an encounter Python could not read out of the list, under a key of its own.
 * @param {EncDoc} doc @param {string} why */
export function setAsideEncounter(doc, why) {
  const all = allEncounters();
  setAsideRaw(KEY, JSON.stringify(all[doc.id] || doc), why);
  delete all[doc.id];
  setRaw(KEY, JSON.stringify(all));
}

/** @param {string} game @param {string} name @param {EncEvent[]} [events] @returns {EncDoc} */
export function newEncounter(game, name, events = []) {
  const all = allEncounters();
  // a name the game's list has already gets a number ("Encounter 1 (2)"): a fight imported
  // back, or a second file of the same name, can be told apart in the list
  const taken = new Set(Object.values(all).filter((d) => d.game === game).map((d) => d.name));
  let k = 1;
  while (taken.has(k === 1 ? name : `${name} (${k})`)) k += 1;
  const doc = { format: "tableside-encounter", schema: SCHEMA, game, events,
    name: k === 1 ? name : `${name} (${k})`,
    id: `e${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`, updated: Date.now() };
  all[doc.id] = doc;
  setRaw(KEY, JSON.stringify(all));
  setActive(game, doc.id);
  return doc;
}

/** @param {string} game @returns {EncDoc | null} */
export function activeEncounter(game) {
  const id = read(ACTIVE, {}, isMap)[game];
  const all = allEncounters();
  return (typeof id === "string" && all[id]) || encountersOf(game)[0] || null;
}

/** @param {string} game @param {string} id */
export function setActive(game, id) {
  setRaw(ACTIVE, JSON.stringify({ ...read(ACTIVE, {}, isMap), [game]: id }));
}

/** @param {any} p */
const isPreset = (p) => isMap(p) && typeof p.name === "string" && typeof p.kind === "string"
  && Array.isArray(p.values);

/** @param {string} game @returns {Preset[]} */
export function presetsOf(game) {
  const all = read(PRESETS, {}, isMap);
  return Array.isArray(all[game]) ? all[game].filter(isPreset) : [];
}

/** @param {string} game @param {Preset} preset */
export function savePreset(game, preset) {
  const all = read(PRESETS, {}, isMap);
  const list = presetsOf(game).filter((p) => p.name !== preset.name);
  all[game] = [...list, preset];
  setRaw(PRESETS, JSON.stringify(all));
}

/**
 * A new event id, unique across devices (rules_pkg/encounter/log.py): two copies of a
 * log merge by their ids, so an id is never reused.
 */
export function newEid() {
  const r = crypto.getRandomValues(new Uint32Array(2));
  return `e${Date.now().toString(36)}.${r[0].toString(36)}${r[1].toString(36)}`;
}

/** A fresh seed for an event that rolls (kept in the event: replay is exact). */
export function seed() {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}

/** The file form of an encounter (what export writes and Python reads). @param {EncDoc} d */
export function fileText(d) {
  return JSON.stringify({ format: d.format, schema: d.schema, game: d.game, name: d.name,
    events: d.events });
}

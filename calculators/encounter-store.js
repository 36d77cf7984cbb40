// @ts-check
// The encounter tracker's storage: encounters (as their file form: format, schema, game,
// name, events), the active encounter per game, and presets, kept in
// localStorage so they survive a reload, going offline and a new build. Python reads and
// migrates a stored encounter (rules_pkg.encounter.codec) before it is used; anything
// unreadable is set aside under its own key, never deleted.

const KEY = "tableside:encounters";
const ACTIVE = "tableside:encounter-active";
const PRESETS = "tableside:encounter-presets";
/** The file schema this page writes (rules_pkg/encounter/codec.py SCHEMA). */
export const SCHEMA = 2;

/**
 * @typedef {{type: string, eid?: string, [field: string]: any}} EncEvent
 * @typedef {{format: string, schema: number, game: string, name: string,
 *   events: EncEvent[], redo?: EncEvent[], id: string, updated: number}} EncDoc
 *   (`redo`: schema 1's stack, gone once Python has migrated the doc to schema 2)
 * @typedef {{name: string, kind: string, values: [string, number][]}} Preset
 */

/** @param {string} key @param {any} fallback */
function read(key, fallback) {
  const raw = localStorage.getItem(key);
  if (raw === null) return fallback;
  try {
    return JSON.parse(raw);
  } catch {
    localStorage.setItem(`${key}:unreadable:${Date.now()}`, raw); // kept, not lost
    return fallback;
  }
}

/** @param {string} key @param {any} value */
function write(key, value) {
  localStorage.setItem(key, JSON.stringify(value));
}

/** @returns {Record<string, EncDoc>} */
export function allEncounters() {
  const all = read(KEY, {});
  return all && typeof all === "object" && !Array.isArray(all) ? all : {};
}

/** @param {string} game @returns {EncDoc[]} newest first */
export function encountersOf(game) {
  return Object.values(allEncounters()).filter((d) => d && d.game === game)
    .sort((a, b) => (b.updated || 0) - (a.updated || 0));
}

/** @param {EncDoc} doc */
export function saveEncounter(doc) {
  const all = allEncounters();
  all[doc.id] = { ...doc, updated: Date.now() };
  write(KEY, all);
}

/** @param {string} id */
export function deleteEncounter(id) {
  const all = allEncounters();
  delete all[id];
  write(KEY, all);
}

/** @param {string} game @param {string} name @param {EncEvent[]} [events] @returns {EncDoc} */
export function newEncounter(game, name, events = []) {
  const doc = { format: "tableside-encounter", schema: SCHEMA, game, name, events,
    id: `e${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`, updated: 0 };
  saveEncounter(doc);
  setActive(game, doc.id);
  return doc;
}

/** @param {string} game @returns {EncDoc | null} */
export function activeEncounter(game) {
  const id = read(ACTIVE, {})[game];
  const all = allEncounters();
  return (id && all[id]) || encountersOf(game)[0] || null;
}

/** @param {string} game @param {string} id */
export function setActive(game, id) {
  write(ACTIVE, { ...read(ACTIVE, {}), [game]: id });
}

/** @param {string} game @returns {Preset[]} */
export function presetsOf(game) {
  const all = read(PRESETS, {});
  return Array.isArray(all[game]) ? all[game] : [];
}

/** @param {string} game @param {Preset} preset */
export function savePreset(game, preset) {
  const all = read(PRESETS, {});
  const list = (Array.isArray(all[game]) ? all[game] : []).filter((p) => p.name !== preset.name);
  all[game] = [...list, preset];
  write(PRESETS, all);
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

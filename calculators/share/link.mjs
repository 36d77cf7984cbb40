// @ts-check
// A fight carried in a link's #fragment (issue 27): JSON, deflated by the browser's own
// CompressionStream("deflate-raw"), in base64url. No server ever sees a fragment.
// Two kinds: `#view=` the players' read-only view (what the GM chose to show, drawn with
// no Python), `#fight=` the whole event log for the GM's other device (merged by Python,
// rules_pkg/encounter/merge.py). A link is untrusted input: its size is bounded before and
// after inflating, its shape is checked here, and its words are only ever text.
// Pure: no DOM, no storage (node --test runs it: tests/js/share-link.test.mjs).

export const VIEW = "tableside-view";
export const VIEW_VERSION = 1;
/** The encounter file's form (rules_pkg/encounter/codec.py FORMAT, SCHEMA). */
export const FIGHT = "tableside-encounter";
export const FIGHT_SCHEMA = 2;
/** Characters of a code (the fragment after `view=` / `fight=`). */
export const MAX_CODE = 60_000;
/** Bytes of JSON a code may inflate to (a deflate bomb stops here). */
export const MAX_JSON = 400_000;
/** A QR code holds at most 2,953 bytes (version 40, error correction L); the page uses M
 * (2,331 bytes) where it fits, it is easier for a camera. */
export const MAX_QR = 2_953;
const MAX_EVENTS = 5000; // rules_pkg/encounter/fold.py MAX_EVENTS
const EID = /^[A-Za-z0-9_.:-]{1,64}$/; // rules_pkg/encounter/log.py EID
const MAX_NAME = 80;
const MAX_FIGHTERS = 100;

/** A link the page cannot use; its message says what is wrong. */
export class LinkError extends Error {}

/** @param {Uint8Array} bytes */
export function toBase64url(bytes) {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** @param {string} text */
export function fromBase64url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) {
    throw new LinkError("The link is damaged (it has characters a code never has).");
  }
  if (text.length % 4 === 1) throw new LinkError("The link is cut short or damaged: ask for the code again.");
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** @param {Uint8Array<ArrayBuffer>} bytes @param {"deflate" | "inflate"} way @param {number} limit */
async function through(bytes, way, limit) {
  const stream = new Blob([bytes]).stream().pipeThrough(
    way === "deflate" ? new CompressionStream("deflate-raw") : new DecompressionStream("deflate-raw"));
  const reader = stream.getReader();
  /** @type {Uint8Array[]} */
  const parts = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel();
      throw new LinkError(`The link holds more than ${Math.round(limit / 1000)} kB: it is not a Tableside fight.`);
    }
    parts.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/** An object as a code for a fragment. @param {unknown} value @returns {Promise<string>} */
export async function encode(value) {
  const json = new TextEncoder().encode(JSON.stringify(value));
  if (json.length > MAX_JSON) throw new LinkError("This fight is too large for a link: send it as a file.");
  return toBase64url(await through(json, "deflate", Infinity));
}

/** A code back to its object; throws LinkError. @param {string} code @returns {Promise<unknown>} */
export async function decode(code) {
  if (code.length > MAX_CODE) {
    throw new LinkError(`The link is too long (${code.length} characters; at most ${MAX_CODE}).`);
  }
  if (!code) throw new LinkError("The link carries no fight.");
  let bytes;
  try {
    bytes = await through(fromBase64url(code), "inflate", MAX_JSON);
  } catch (err) {
    if (err instanceof LinkError) throw err;
    throw new LinkError("The link is cut short or damaged: ask for the code again.");
  }
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new LinkError("The link is cut short or damaged: ask for the code again.");
  }
}

/** `#view=…` or `#fight=…` of a location's hash. @param {string} hash */
export function readFragment(hash) {
  const m = /^#(view|fight)=(.*)$/s.exec(hash);
  return m ? { kind: /** @type {"view" | "fight"} */ (m[1]), code: m[2] } : null;
}

// --- checking what a link says ---------------------------------------------------------

/** @param {unknown} v @param {string} what @param {number} [max] */
function text(v, what, max = MAX_NAME) {
  if (typeof v !== "string" || v.length > max) {
    throw new LinkError(`The link's ${what} is not text of at most ${max} characters.`);
  }
  return v;
}

/** @param {unknown} v @param {string} what */
function int(v, what) {
  if (!Number.isSafeInteger(v)) throw new LinkError(`The link's ${what} is not a whole number.`);
  return /** @type {number} */ (v);
}

/** @param {unknown} v @param {string} what @param {number} max @returns {unknown[]} */
function list(v, what, max) {
  if (!Array.isArray(v) || v.length > max) {
    throw new LinkError(`The link's ${what} is not a list of at most ${max}.`);
  }
  return v;
}

/** @param {unknown} v @param {string} what @returns {Record<string, unknown>} */
function obj(v, what) {
  if (!v || typeof v !== "object" || Array.isArray(v)) throw new LinkError(`The link's ${what} is not an object.`);
  return /** @type {Record<string, unknown>} */ (v);
}

/** @param {Record<string, unknown>} doc @param {string} format @param {number} newest @param {string} field */
function version(doc, format, newest, field) {
  if (doc.format !== format) throw new LinkError("This is not a Tableside fight.");
  const v = int(doc[field], "version");
  if (v > newest) {
    throw new LinkError(`The link was made by a newer Tableside (version ${v}; this one reads up to ${newest}): reload the site to update it.`);
  }
  if (v < 1) throw new LinkError("The link has no valid version.");
}

/** @param {Record<string, unknown>} doc @param {string} game */
function sameGame(doc, game) {
  const g = text(doc.game, "game", 40);
  if (g !== game) throw new LinkError(`This fight is for another game (${g}): open it on that game's page.`);
}

/**
 * @typedef {{name: string, rounds: number | null, level: string | null}} ViewCond
 * @typedef {{label: string, value: number, hi: number | null}} ViewValue
 * @typedef {{id: string, name: string, initiative: number | null, words: string[],
 *   conditions: ViewCond[], values: ViewValue[] | null}} ViewFighter
 * @typedef {{format: string, version: number, game: string, name: string, at: number,
 *   round: number, current: string | null, order: string[], combatants: ViewFighter[]}} View
 */

/** A player view as the link says it, checked field by field (unknown fields dropped).
 * @param {unknown} raw @param {string} game @returns {View} */
export function checkView(raw, game) {
  const doc = obj(raw, "content");
  version(doc, VIEW, VIEW_VERSION, "version");
  sameGame(doc, game);
  const combatants = list(doc.combatants, "combatants", MAX_FIGHTERS).map((x, i) => {
    const c = obj(x, `combatant ${i + 1}`);
    const ini = c.initiative === null ? null : int(c.initiative, "initiative");
    return {
      id: text(c.id, "combatant id", 40), name: text(c.name, "combatant name"), initiative: ini,
      words: list(c.words, "wound words", 10).map((w) => text(w, "wound words")),
      conditions: list(c.conditions, "conditions", 30).map((y) => {
        const k = obj(y, "condition");
        return { name: text(k.name, "condition"),
          rounds: k.rounds === null ? null : int(k.rounds, "rounds left"),
          level: k.level === null || k.level === undefined ? null : text(k.level, "condition level") };
      }),
      values: c.values === null || c.values === undefined ? null
        : list(c.values, "numbers", 20).map((y) => {
          const v = obj(y, "number");
          return { label: text(v.label, "number's label"), value: int(v.value, "number"),
            hi: v.hi === null || v.hi === undefined ? null : int(v.hi, "number's most") };
        }),
    };
  });
  const ids = new Set(combatants.map((c) => c.id));
  const order = list(doc.order, "turn order", MAX_FIGHTERS).map((x) => text(x, "turn order", 40));
  if (order.some((x) => !ids.has(x))) throw new LinkError("The link's turn order names someone who is not in the fight.");
  const current = doc.current === null ? null : text(doc.current, "current turn", 40);
  if (current !== null && !ids.has(current)) throw new LinkError("The link's current turn names someone who is not in the fight.");
  return { format: VIEW, version: VIEW_VERSION, game, name: text(doc.name, "fight name"),
    at: int(doc.at, "time"), round: int(doc.round, "round"), current, order, combatants };
}

/**
 * @typedef {{type: string, eid: string, [field: string]: any}} FightEvent
 * @typedef {{format: string, schema: number, game: string, name: string, events: FightEvent[]}} Fight
 */

/** A whole fight (the encounter file's form) as a link says it: its outline checked here,
 * each event by Python when it is merged (rules_pkg/encounter/log.py parse).
 * @param {unknown} raw @param {string} game @returns {Fight} */
export function checkFight(raw, game) {
  const doc = obj(raw, "content");
  version(doc, FIGHT, FIGHT_SCHEMA, "schema");
  sameGame(doc, game);
  const events = list(doc.events, "events", MAX_EVENTS).map((x, i) => {
    const e = obj(x, `event ${i + 1}`);
    if (typeof e.eid !== "string" || !EID.test(e.eid) || typeof e.type !== "string") {
      throw new LinkError(`The link's event ${i + 1} has no valid id or type.`);
    }
    return /** @type {FightEvent} */ (e);
  });
  return { format: FIGHT, schema: int(doc.schema, "schema"), game, name: text(doc.name, "fight name"), events };
}

// --- what the players see ----------------------------------------------------------------

/**
 * @typedef {{key: string, label: string, value: number, lo: number, hi: number | string, tracked: boolean}} StateValue
 * @typedef {{id: string, name: string, kind: string, initiative: number | null, values: StateValue[],
 *   conditions: {name: string, rounds: number | null, level: string | null}[], status: string[]}} StateFighter
 * @typedef {{game: string, round: number, current: string | null, order: string[],
 *   combatants: StateFighter[]}} State
 */

/** A combatant's wound state in words: the game's own (rules_pkg status) or, with none,
 * how far its first tracked number is from full. @param {StateFighter} c */
export function woundWords(c) {
  if (c.status.length) return [...c.status];
  const v = c.values.find((x) => x.tracked);
  if (!v) return [];
  const hi = typeof v.hi === "number" ? v.hi : null;
  if (v.value <= v.lo) return ["Down"];
  return [hi !== null && v.value < hi ? "Wounded" : "Unhurt"];
}

/** A number's full value when the sheet keeps one (HP out of "HP (full)": `hp_max`), not
 * a mere limit such as 999 bullets. @param {StateFighter} c @param {StateValue} v */
function full(c, v) {
  return c.values.some((x) => x.key === `${v.key}_max`) && typeof v.hi === "number" ? v.hi : null;
}

/**
 * What the players' link carries: the round, the order, whose turn, conditions and wound
 * words for everyone; numbers only for the combatants in `shown`. Nothing else of the GM's
 * (history, notes, the log) leaves the device.
 * @param {State} state @param {string} name @param {Set<string>} shown @param {number} at
 * @returns {View}
 */
export function playerView(state, name, shown, at) {
  return {
    format: VIEW, version: VIEW_VERSION, game: state.game, name: name.slice(0, MAX_NAME), at,
    round: state.round, current: state.current, order: [...state.order],
    combatants: state.combatants.map((c) => ({
      id: c.id, name: c.name, initiative: c.initiative, words: woundWords(c),
      conditions: c.conditions.map((x) => ({ name: x.name, rounds: x.rounds, level: x.level ?? null })),
      values: shown.has(c.id) ? c.values.filter((v) => v.tracked).map((v) => ({
        label: v.label, value: v.value, hi: full(c, v) })) : null,
    })),
  };
}

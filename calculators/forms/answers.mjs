// @ts-check
// The answers a page carries, worked out at build time (scripts/site/page_answers.py,
// issue 13): reading them and finding the one for a form's inputs. Pure: no page, no DOM
// (forms/ahead.mjs shows them; tests/js/answers.test.mjs runs these under node --test).

/** One entry of the page's answers (page_answers.py's JSON): the form's starting inputs as
 * readInputs() reads them, and Result.to_dict() for them.
 * @typedef {{ calc: string, inputs: Record<string, string | boolean>, result: Registry.Result }} Answer */

/** The same inputs: the same names, each with the same value as a form holds it.
 * @param {Record<string, unknown>} a @param {Record<string, unknown>} b */
export function sameInputs(a, b) {
  const names = Object.keys(a);
  return names.length === Object.keys(b).length
    && names.every((k) => Object.hasOwn(b, k) && String(a[k]) === String(b[k]));
}

/** The answer for calculator `id` with these inputs, or null.
 * @param {Answer[]} answers @param {string} id @param {Record<string, unknown>} inputs */
export function findAnswer(answers, id, inputs) {
  const found = answers.find((a) => a.calc === id && sameInputs(a.inputs, inputs));
  return found && found.result ? found : null; // a result that cannot be made whole: none
}

/** A result as the page carries it, made whole: an exact number page_answers.py's
 * compact() wrote as {frac: "p/q"} is {text: "p/q", value: p/q} again, the live engine's
 * double (p and q are exact in a double; the one division rounds as Python's does); an
 * odds table marked at_least: "sum" gets each row's at_least back (sums()).
 * @param {unknown} value @returns {any} */
export function expand(value) {
  if (Array.isArray(value)) return value.map(expand);
  if (!value || typeof value !== "object") return value;
  const keys = Object.keys(value);
  const obj = /** @type {Record<string, unknown>} */ (value);
  const frac = obj.frac;
  if (keys.length === 1 && typeof frac === "string" && FRACTION.test(frac)) {
    const [p, q] = frac.split("/").map(Number);
    return { text: frac, value: p / q };
  }
  if (obj.at_least === "sum" && Array.isArray(obj.rows)) {
    const rows = sums(obj.rows);
    return Object.fromEntries(keys.filter((k) => k !== "at_least")
      .map((k) => [k, expand(k === "rows" ? rows : obj[k])]));
  }
  return Object.fromEntries(keys.map((k) => [k, expand(obj[k])]));
}

const FRACTION = /^-?\d+\/\d+$/;

/** @param {bigint} a @param {bigint} b @returns {bigint} */
const gcd = (a, b) => (b === 0n ? (a < 0n ? -a : a) : gcd(b, a % b));

/** Odds rows with at_least put back: the sum of exactly from each row down, exact (as
 * page_answers.py's _sums, whose rows result.py's Odds made so), as {frac: "p/q"}.
 * @param {any[]} rows @returns {any[]} */
function sums(rows) {
  let p = 0n;
  let q = 1n;
  const out = [];
  for (const row of [...rows].reverse()) {
    const frac = row && row.exactly && row.exactly.frac;
    if (typeof frac !== "string" || !FRACTION.test(frac)) throw new Error("answers: a row with no fraction");
    const [a, b] = frac.split("/").map(BigInt);
    [p, q] = [p * b + a * q, q * b];
    const g = gcd(p, q) || 1n;
    [p, q] = [p / g, q / g];
    out.push({ ...row, at_least: { frac: `${p}/${q}` } });
  }
  return out.reverse();
}

/** A JSON value as tokens (scripts/site/answer_patch.py): depth first, an object as its
 * opening mark [0], each key and its value's tokens, then [1]; an array as [2] … [3]; a
 * scalar as itself.
 * @param {unknown} value @param {unknown[]} [out] */
function tokens(value, out = []) {
  if (Array.isArray(value)) {
    out.push([2]);
    for (const v of value) tokens(v, out);
    out.push([3]);
  } else if (value && typeof value === "object") {
    out.push([0]);
    for (const [k, v] of Object.entries(value)) { out.push(k); tokens(v, out); }
    out.push([1]);
  } else out.push(value);
  return out;
}

/** @param {unknown} t @param {number} k */
const isMark = (t, k) => Array.isArray(t) && t[0] === k;

/** The value these tokens make (throws on anything answer_patch.py cannot have written).
 * @param {unknown[]} list */
function fromTokens(list) {
  let at = 0;
  const next = () => {
    if (at >= list.length) throw new Error("answers: tokens end inside a value");
    return list[at++];
  };
  /** @returns {unknown} */
  const one = () => {
    const t = next();
    if (isMark(t, 0)) {
      /** @type {[string, unknown][]} */
      const pairs = [];
      while (!isMark(list[at], 1)) {
        const key = next();
        if (typeof key !== "string") throw new Error("answers: a key that is not text");
        pairs.push([key, one()]);
      }
      at++;
      return Object.fromEntries(pairs); // own properties, "__proto__" too
    }
    if (isMark(t, 2)) {
      const items = [];
      while (!isMark(list[at], 3)) items.push(one());
      at++;
      return items;
    }
    if (Array.isArray(t)) throw new Error("answers: a closing mark where a value starts");
    return t;
  };
  const value = one();
  if (at !== list.length) throw new Error("answers: tokens left after the value");
  return value;
}

/** A result carried as a patch over its base's (answer_patch.py's ops: n keeps n tokens,
 * [t…] puts these in place of as many, {d: n} drops n, {i: [t…]} inserts), made whole.
 * @param {unknown} base @param {unknown} patch @returns {unknown} */
export function rebuild(base, patch) {
  if (!Array.isArray(patch)) throw new Error("answers: a patch that is not a list");
  const src = tokens(base);
  const out = [];
  let at = 0;
  for (const op of patch) {
    if (Number.isInteger(op) && op >= 0) { out.push(...src.slice(at, at + op)); at += op; }
    else if (Array.isArray(op)) { out.push(...op); at += op.length; }
    else if (op && Number.isInteger(op.d) && op.d >= 0) at += op.d;
    else if (op && Array.isArray(op.i)) out.push(...op.i);
    else throw new Error("answers: an unknown patch op");
  }
  if (at > src.length) throw new Error("answers: a patch past its base's end");
  return fromTokens(out.concat(src.slice(at)));
}

/** The entries of a page's answers element, or [] (missing, or not the JSON it should be).
 * A change page_answers.py wrote as the inputs it sets ("set"), the entry it changes ("of",
 * that entry's place) and a patch over that entry's result gets that entry's inputs with
 * its own set. Each result is made whole (rebuild, expand) only when first read: a page
 * carries hundreds, a reader's form needs one at a time (all at once were a long task on
 * a phone). A result that cannot be made whole reads as null (findAnswer then has none).
 * @param {string | undefined} text @returns {Answer[]} */
export function parseAnswers(text) {
  let list;
  try {
    list = JSON.parse(text || "[]");
  } catch {
    return [];
  }
  if (!Array.isArray(list)) return [];
  /** @type {({ calc: string, inputs: Record<string, string | boolean>, raw: () => any } | null)[]} */
  const carried = []; // each entry with its result as carried (a patch's base), on demand
  for (const a of list) {
    const base = a && Number.isInteger(a.of) && a.of >= 0 && a.of < carried.length
      ? carried[a.of] : null;
    if (base && a.set && typeof a.set === "object" && Array.isArray(a.patch)) {
      const patch = a.patch;
      carried.push({ calc: base.calc, inputs: { ...base.inputs, ...a.set },
        raw: once(() => rebuild(base.raw(), patch)) });
    } else if (a && typeof a.calc === "string" && a.inputs && typeof a.inputs === "object"
        && a.result && typeof a.result === "object") {
      const raw = a.result;
      carried.push({ calc: a.calc, inputs: a.inputs, raw: () => raw });
    } else carried.push(null);
  }
  return carried.filter((e) => e !== null).map(({ calc, inputs, raw }) => {
    const result = once(() => {
      const made = raw();
      if (!made || typeof made !== "object") throw new Error("answers: not a result");
      return expand(made);
    });
    return { calc, inputs, get result() {
      try { return result(); } catch { return null; } } };
  });
}

/** `make()`'s value, worked out on the first call only (a throw, every call).
 * @template T @param {() => T} make @returns {() => T} */
function once(make) {
  /** @type {{ value: T } | null} */
  let made = null;
  return () => (made ??= { value: make() }).value;
}

/** The same result: the live engine's reply and the answer worked out ahead, both as
 * JSON.parse gives them (the same keys in the same order, the same numbers).
 * @param {unknown} a @param {unknown} b */
export function sameResult(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

// @ts-check
// The answers a page carries, worked out at build time (scripts/site/page_answers.py,
// issue 13): reading them and finding the one for a form's inputs. Pure: no page, no DOM
// (ahead.mjs shows them; tests/js/answers.test.mjs runs these under node --test).

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
  return answers.find((a) => a.calc === id && sameInputs(a.inputs, inputs)) || null;
}

/** A result as the page carries it, made whole: an exact number page_answers.py's
 * compact() wrote as {frac: "p/q"} is {text: "p/q", value: p/q} again, the live engine's
 * double (p and q are exact in a double; the one division rounds as Python's does).
 * @param {unknown} value @returns {any} */
export function expand(value) {
  if (Array.isArray(value)) return value.map(expand);
  if (!value || typeof value !== "object") return value;
  const keys = Object.keys(value);
  const frac = /** @type {Record<string, unknown>} */ (value).frac;
  if (keys.length === 1 && typeof frac === "string" && /^-?\d+\/\d+$/.test(frac)) {
    const [p, q] = frac.split("/").map(Number);
    return { text: frac, value: p / q };
  }
  return Object.fromEntries(keys.map((k) => [k, expand(/** @type {any} */ (value)[k])]));
}

/** The entries of a page's answers element, or [] (missing, or not the JSON it should be).
 * A change page_answers.py wrote as the input it sets ("set") and the entry it changes
 * ("of", that entry's place) gets that entry's inputs with its own set.
 * @param {string | undefined} text @returns {Answer[]} */
export function parseAnswers(text) {
  let list;
  try {
    list = JSON.parse(text || "[]");
  } catch {
    return [];
  }
  if (!Array.isArray(list)) return [];
  /** @type {(Answer | null)[]} */
  const out = [];
  for (const a of list) {
    const base = a && Number.isInteger(a.of) && a.of < out.length ? out[a.of] : null;
    const inputs = base && base.calc === a.calc && a.set && typeof a.set === "object"
      ? { ...base.inputs, ...a.set } : a?.inputs;
    const ok = a && typeof a.calc === "string" && inputs && typeof inputs === "object"
      && a.result && typeof a.result === "object";
    out.push(ok ? { calc: a.calc, inputs, result: expand(a.result) } : null);
  }
  return /** @type {Answer[]} */ (out.filter(Boolean));
}

/** The same result: the live engine's reply and the answer worked out ahead, both as
 * JSON.parse gives them (the same keys in the same order, the same numbers).
 * @param {unknown} a @param {unknown} b */
export function sameResult(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

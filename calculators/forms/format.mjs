// @ts-check
// Values of a result, formatted by their kind (issue #11; contract in the common brief):
// `Result.to_dict()["values"]` entries are `[name, value, kind]`, kind one of
// "probability" | "mean" | "count" | "dice" | "text". A probability reads as a percentage
// (its exact fraction on demand: hover, or tap to show it); a mean as a decimal (the exact
// fraction on hover); counts, dice and text as they are. An entry without a kind (an older
// engine) is shown as before: a fraction with its percentage.

/** @typedef {{text: string, value: number}} Frac */
/** @typedef {"probability" | "mean" | "count" | "dice" | "text" | undefined} Kind */

/** @param {unknown} v @returns {v is Frac} */
export function isFrac(v) {
  return !!v && typeof v === "object" && !Array.isArray(v) && "text" in v && "value" in v;
}

/** A probability as a percentage; never "0.00 %" for an outcome that can happen.
 * @param {number} p */
export function percent(p) {
  const pct = p * 100;
  if (pct === 0) return "0 %";
  if (pct === 100) return "100 %";
  if (pct < 0.01) return "< 0.01 %";
  if (pct > 99.99) return "> 99.99 %";
  return `${pct.toFixed(pct < 1 || pct > 99 ? 2 : 1)} %`;
}

/** A mean as a short decimal: 4/1 → "4", 287/216 → "1.33".
 * @param {number} x */
export function decimal(x) {
  if (Number.isInteger(x)) return String(x);
  return String(Number(x.toFixed(Math.abs(x) < 10 ? 2 : 1)));
}

/** The form from before kinds, kept for entries without one: "n/d (p %)". @param {Frac} f */
export function legacyFraction(f) {
  const pct = f.value * 100;
  const shown = pct === 0 ? "0" : pct < 0.01 ? "< 0.01" : pct.toFixed(pct < 1 ? 2 : 1);
  return `${f.text} (${shown} %)`;
}

/** The plain text of a value (roll log, links, titles).
 * @param {unknown} v @param {Kind} [kind] @returns {string} */
export function formatValue(v, kind) {
  if (isFrac(v)) {
    if (kind === "probability") return percent(v.value);
    if (kind === "mean") return decimal(v.value);
    if (kind) return v.text.endsWith("/1") ? v.text.slice(0, -2) : v.text;
    return legacyFraction(v);
  }
  if (Array.isArray(v)) return v.map((x) => formatValue(x, kind)).join(", ");
  if (v === true) return "yes";
  if (v === false) return "no";
  if (kind === "mean" && typeof v === "number") return decimal(v);
  if (kind === "probability" && typeof v === "number") return percent(v);
  return String(v);
}

/** The exact form of a value worth showing on demand, or null. @param {unknown} v */
export function exactOf(v) {
  if (!isFrac(v) || v.text.endsWith("/1")) return null;
  return v.text;
}

/**
 * One value for a result's <dd>: its text, and for a fraction a button that shows the
 * exact fraction on a tap (hover shows it as a title).
 * @param {unknown} v @param {Kind} kind
 * @returns {Node}
 */
export function valueNode(v, kind) {
  const shown = formatValue(v, kind);
  const exact = kind ? exactOf(v) : null;
  if (!exact) return document.createTextNode(shown);
  const btn = document.createElement("button");
  btn.type = "button";
  btn.className = "ts-exact";
  btn.textContent = shown;
  btn.title = `exactly ${exact}`;
  btn.setAttribute("aria-expanded", "false");
  btn.addEventListener("click", () => {
    const open = btn.getAttribute("aria-expanded") !== "true";
    btn.setAttribute("aria-expanded", String(open));
    btn.textContent = open ? `${shown} = ${exact}` : shown;
  });
  return btn;
}

/** A probability cell of an odds table: the percentage, the fraction on hover or tap.
 * @param {Frac} f @returns {Node} */
export function probabilityNode(f) {
  return valueNode(f, "probability");
}

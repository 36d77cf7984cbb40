// @ts-check
// A result's link: ?calc=<id>[&n=<k>]&<name>=<value>…[&roll=1&seed=<s>]. The values a link
// carries are checked before they reach a form (guards.mjs's checkLink).

import { linkIndex } from "../guards.mjs";

/** The address's values for calculator `calcId` (the `index`-th of that id on the page), or
 * null when the address is not about it. @param {string} calcId @param {number} index */
export function urlState(calcId, index) {
  const q = new URLSearchParams(location.search);
  if (q.get("calc") !== calcId || linkIndex(q) !== index) return null; // "0x0", "-0": none
  return q;
}

/** Put a result's inputs (and its seed, if rolled) into the address; the link's href.
 * @param {string} calcId @param {number} index
 * @param {Record<string, string | boolean>} values @param {string | number | null} seed */
export function writeUrl(calcId, index, values, seed) {
  const q = new URLSearchParams();
  q.set("calc", calcId);
  if (index) q.set("n", String(index));
  for (const [k, v] of Object.entries(values)) q.set(k, v === true ? "1" : v === false ? "0" : v);
  if (seed !== null) {
    q.set("roll", "1");
    q.set("seed", String(seed));
  }
  const url = new URL(location.href);
  url.search = q.toString();
  history.replaceState(history.state, "", url); // keep Material's scroll state
  return url.href;
}

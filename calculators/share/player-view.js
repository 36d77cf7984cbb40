// @ts-check
// The players' view (issue 27): a read-only fight drawn from the link's `#view=` fragment
// (share/link.mjs), with no Python: the round, the turn order, whose turn it is, conditions
// with their turns left (the tracker's words, encounter/view.js), wound words, and numbers only where the GM showed them. A newer
// code opened in the same tab (a fragment change) draws the newer fight. Nothing is stored.

import { h } from "../dom.mjs";
import { condText } from "../encounter/view.js";
import { sriFor } from "../python/integrity.mjs";
import { LinkError, checkView, decode, readFragment } from "./link.mjs";

const CSS_URL = new URL("share.css", import.meta.url).href;

/** The sharing stylesheet, this build's or none (integrity from the page's list). */
export function ensureShareCss() {
  if (document.querySelector(`link[href="${CSS_URL}"]`)) return;
  const integrity = sriFor(CSS_URL);
  if (integrity) document.head.append(h("link", { rel: "stylesheet", href: CSS_URL, integrity }));
}

/** @param {import("./link.mjs").ViewValue} v */
function valueText(v) {
  return v.hi === null ? `${v.label} ${v.value}` : `${v.label} ${v.value}/${v.hi}`;
}

/** The fight as the players see it: text only, never markup.
 * @param {import("./link.mjs").View} view @returns {HTMLElement} */
export function drawView(view) {
  const by = new Map(view.combatants.map((c) => [c.id, c]));
  const cur = view.current ? by.get(view.current) : null;
  const ordered = [...view.order.map((id) => by.get(id)),
    ...view.combatants.filter((c) => !view.order.includes(c.id))];
  const when = new Date(view.at);
  return h("div", { class: "ts-pv" },
    h("p", { class: "ts-pv-name", text: view.name || "Encounter" }),
    h("p", { class: "ts-pv-round", text: view.round
      ? `Round ${view.round} · ${cur ? `${cur.name}'s turn` : "—"}` : "Before the first round" }),
    h("ol", { class: "ts-pv-order", "aria-label": "Turn order" }, ordered.map((c) => c && h("li", {
      class: `ts-pv-row${c.id === view.current ? " ts-current" : ""}`,
      "aria-current": c.id === view.current ? "true" : undefined },
      h("span", { class: "ts-pv-init", text: c.initiative === null ? "–" : String(c.initiative) }),
      h("span", { class: "ts-pv-who", text: c.name }),
      h("span", { class: "ts-pv-words", text: c.words.join(", ") }),
      c.values ? h("span", { class: "ts-pv-nums", text: c.values.map(valueText).join(" · ") }) : null,
      c.conditions.length ? h("ul", { class: "ts-pv-conds", "aria-label": `Conditions of ${c.name}` },
        c.conditions.map((x) => h("li", { text: condText(x) }))) : null))),
    h("p", { class: "ts-pv-at", text: Number.isFinite(when.getTime())
      ? `As of ${when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}: scan a newer code to update.` : "" }));
}

/** @param {HTMLElement} el */
async function show(el) {
  const game = /** @type {string} */ (el.dataset.game);
  const frag = readFragment(location.hash);
  if (!frag) return; // the page's own words ask for a code
  const seq = String(Number(el.dataset.tsPvSeq || 0) + 1);
  el.dataset.tsPvSeq = seq;
  try {
    if (frag.kind !== "view") {
      throw new LinkError("This link is a whole fight for the GM's other device: open it on the Encounter page.");
    }
    const view = checkView(await decode(frag.code), game);
    if (el.dataset.tsPvSeq !== seq) return; // a newer code came meanwhile
    const shown = Number(el.dataset.tsPvAt || 0);
    if (view.at < shown) {
      el.querySelector(".ts-pv-note")?.replaceChildren("This code is older than the fight shown: it is left as it was.");
      return;
    }
    el.dataset.tsPvAt = String(view.at);
    el.replaceChildren(h("p", { class: "ts-pv-note", role: "status" }), drawView(view));
    el.dataset.tsPv = "shown";
  } catch (err) {
    if (el.dataset.tsPvSeq !== seq) return;
    const said = err instanceof LinkError ? err.message : "This link could not be read.";
    if (!(err instanceof LinkError)) console.warn("Tableside player view:", err);
    el.replaceChildren(h("p", { class: "ts-pv-error", role: "alert", text: said }));
    el.dataset.tsPv = "refused";
  }
}

export function mountAll() {
  ensureShareCss();
  for (const el of document.querySelectorAll(".ts-player-view:not([data-ts-pv])")) {
    const box = /** @type {HTMLElement} */ (el);
    box.dataset.tsPv = "waiting";
    show(box);
    addEventListener("hashchange", () => { if (box.isConnected) show(box); });
  }
}

// @ts-check
// Sharing a fight on the Encounter page (issue 27), mounted by encounter/page.js:
// - "Show the players": a QR code and a link to the players' view (share/link.mjs's
//   `#view=`), numbers only for the combatants the GM ticks ("hide HP");
// - "Send to my other device": the whole log as a link, a QR code or a file;
// - receiving one (a `#fight=` link or a file) MERGES it into the open fight through
//   Python's "merge" (rules_pkg/encounter/merge.py), only when the GM says so; where both
//   devices acted on the same turn, both sides are shown and the GM chooses what stays;
// - the printed record: one A4 page of the fight, its combat log, and the log as Markdown.

import { h } from "../dom.mjs";
import { condText } from "../encounter/view.js";
import { verifiedModules } from "../python/integrity.mjs";
import { drawView, ensureShareCss } from "./player-view.js";
import {
  FIGHT, FIGHT_SCHEMA, LinkError, MAX_QR, checkFight, decode, encode, playerView, readFragment,
} from "./link.mjs";

const QR_URL = new URL("../qr/index.js", import.meta.url);
/** Which combatants' numbers the players see, per encounter (ids): kept on this device. */
const SHOWN = "tableside:share-shown";
const MAX_FILE = 2_000_000; // rules_pkg/encounter/codec.py MAX_FILE

/**
 * @typedef {import("../encounter/store.js").EncDoc} EncDoc
 * @typedef {{game: string, doc: () => EncDoc, state: () => any,
 *   py: (req: Record<string, any>) => Promise<Record<string, any>>,
 *   replaceEvents: (events: any[]) => Promise<void>, newEid: () => string}} ShareApi
 */

/** @param {string} docId @returns {Set<string>} */
function shownOf(docId) {
  try {
    const all = JSON.parse(localStorage.getItem(SHOWN) || "{}");
    return new Set(Array.isArray(all?.[docId]) ? all[docId].filter((x) => typeof x === "string") : []);
  } catch {
    return new Set();
  }
}

/** @param {string} docId @param {Set<string>} ids */
function saveShown(docId, ids) {
  let all = {};
  try { all = JSON.parse(localStorage.getItem(SHOWN) || "{}") || {}; } catch { /* start again */ }
  localStorage.setItem(SHOWN, JSON.stringify({ ...all, [docId]: [...ids] }));
}

/** A QR code as SVG built with DOM calls (no markup). @param {string} text */
async function qrSvg(text) {
  await verifiedModules([QR_URL]);
  const { encodeQR } = await import(QR_URL.href);
  /** @type {boolean[][]} */
  let cells;
  try {
    cells = encodeQR(text, "raw", { ecc: "medium", border: 4 });
  } catch {
    cells = encodeQR(text, "raw", { ecc: "low", border: 4 });
  }
  const n = cells.length;
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${n} ${n}`);
  svg.setAttribute("class", "ts-qr");
  svg.setAttribute("role", "img");
  svg.setAttribute("shape-rendering", "crispEdges");
  const bg = document.createElementNS(NS, "rect");
  for (const [k, v] of [["width", n], ["height", n], ["fill", "#fff"]]) bg.setAttribute(String(k), String(v));
  let d = "";
  cells.forEach((row, y) => row.forEach((dark, x) => { if (dark) d += `M${x} ${y}h1v1h-1z`; }));
  const path = document.createElementNS(NS, "path");
  path.setAttribute("d", d);
  path.setAttribute("fill", "#000");
  svg.append(bg, path);
  return svg;
}

/** Text of a log for Markdown: no character of it becomes markup. @param {string} s */
const md = (s) => s.replace(/[\\`*_[\]<>#|~]/g, (c) => `\\${c}`);

/** The fight's combat log as Markdown. @param {string} name @param {any} state */
export function logMarkdown(name, state) {
  const out = [`# ${md(name || "Encounter")}: combat log`, ""];
  let round = -1;
  for (const e of state.history) {
    if (e.round !== round) {
      round = e.round;
      out.push("", round ? `## Round ${round}` : "## Before the first round", "");
    }
    out.push(`- ${md(e.summary)}`, ...e.steps.map((/** @type {string} */ s) => `  - ${md(s)}`));
  }
  return `${out.join("\n").replace(/\n{3,}/g, "\n\n")}\n`;
}

/** @param {string} name @param {string} text @param {string} type */
function download(name, text, type) {
  const a = h("a", { href: URL.createObjectURL(new Blob([text], { type })),
    download: `${name.replace(/[^\w -]+/g, "").trim() || "encounter"}` });
  document.body.append(a);
  a.click();
  a.remove();
}

/** @param {HTMLElement} box where the panel goes @param {ShareApi} api */
export function mountShare(box, api) {
  ensureShareCss();
  const { game, py } = api;
  const msg = h("p", { class: "ts-share-msg", role: "status" });
  const panel = h("div", { class: "ts-share-panel" });
  const incoming = h("div", { class: "ts-merge", hidden: true, role: "region", "aria-label": "A copy from another device" });
  const file = h("input", { type: "file", accept: ".json,application/json", id: "ts-share-file", class: "ts-enc-file" });
  /** @type {"" | "players" | "device"} */
  let mode = "";
  const say = (/** @type {unknown} */ err) => {
    msg.textContent = err instanceof Error ? err.message : String(err);
    if (!(err instanceof LinkError) && !(err instanceof Error && err.name === "EncounterError")) console.warn("Tableside share:", err);
  };
  const btn = (/** @type {string} */ text, /** @type {() => any} */ fn) =>
    h("button", { type: "button", class: "md-button", text, onclick: () => { Promise.resolve(fn()).catch(say); } });

  const record = h("section", { class: "ts-record", "aria-hidden": "true" });
  (box.closest(".ts-enc-layout") || box).after(record);

  box.replaceChildren(h("details", { class: "ts-share" },
    h("summary", { text: "Share and print" }),
    h("div", { class: "ts-share-actions" },
      btn("Show the players", async () => { mode = "players"; await showPlayers(); reveal(); }),
      btn("Send to my other device", async () => { mode = "device"; await sendDevice(); reveal(); }),
      h("label", { for: "ts-share-file", class: "md-button ts-enc-import", text: "Merge a file" }), file,
      btn("Print the encounter", () => print(false)),
      btn("Print the log", () => print(true)),
      btn("Download the log", () => {
        const st = api.state();
        if (st) download(`${api.doc().name}.md`, logMarkdown(api.doc().name, st), "text/markdown");
      })),
    panel), msg, incoming);

  /** The code just asked for, brought into view: on a phone it is drawn below the buttons,
   * under the turn bar, where a GM who tapped would not see it come. */
  function reveal() {
    panel.querySelector(".ts-share-code")?.scrollIntoView({ block: "start" });
  }

  /** A code block: the QR (when it fits one) and the link to copy. @param {string} url @param {string} label */
  async function codeBlock(url, label) {
    const link = h("input", { class: "ts-share-link", readonly: true, value: url, "aria-label": `${label}: link` });
    const copy = btn("Copy the link", async () => {
      await navigator.clipboard.writeText(url);
      msg.textContent = "Link copied.";
    });
    const bytes = new TextEncoder().encode(url).length;
    const qr = bytes <= MAX_QR ? await qrSvg(url)
      : h("p", { text: "Too long for one QR code: copy the link, or save the fight as a file." });
    if (qr instanceof SVGElement) qr.setAttribute("aria-label", `QR code: ${label}`);
    return h("div", { class: "ts-share-code", "data-url": url },
      qr, h("div", {}, h("p", { text: `${label} (${url.length} characters).` }), link, copy));
  }

  async function showPlayers() {
    const st = api.state();
    const doc = api.doc();
    if (!st) throw new Error("The fight is still loading.");
    const shown = shownOf(doc.id);
    const ticks = h("ul", { class: "ts-share-shown", "aria-label": "Numbers the players see" },
      st.combatants.map((/** @type {any} */ c) => {
        const id = `ts-share-show-${c.id}`;
        return h("li", {}, h("input", { type: "checkbox", id, checked: shown.has(c.id), onchange: (/** @type {Event} */ e) => {
          if (/** @type {HTMLInputElement} */ (e.target).checked) shown.add(c.id); else shown.delete(c.id);
          saveShown(doc.id, shown);
          showPlayers().catch(say);
        } }), h("label", { for: id, text: `Show ${c.name}'s numbers` }));
      }));
    const view = playerView(st, doc.name, shown, Date.now());
    const url = new URL(`../players/#view=${await encode(view)}`, location.href).href;
    const block = await codeBlock(url, "The players' view: scan it with a phone's camera");
    if (mode !== "players") return;
    panel.replaceChildren(ticks, block,
      h("details", {}, h("summary", { text: "What the players see" }), drawView(view)));
  }

  async function sendDevice() {
    const doc = api.doc();
    const fight = { format: FIGHT, schema: FIGHT_SCHEMA, game, name: doc.name, events: doc.events };
    const url = new URL(`#fight=${await encode(fight)}`, location.href).href;
    const block = await codeBlock(url, "This whole fight, for your other device: open it there to merge");
    if (mode !== "device") return;
    panel.replaceChildren(block, btn("Save it as a file", async () => {
      const { text } = await py({ op: "export", game, name: doc.name, events: doc.events });
      download(`${doc.name}.json`, text, "application/json");
    }));
  }

  /** A copy from the other device: offered, merged only when the GM says so.
   * @param {import("./link.mjs").Fight} fight */
  function offer(fight) {
    const doc = api.doc();
    incoming.hidden = false;
    incoming.replaceChildren(
      h("p", { text: `A copy of “${fight.name || "an encounter"}” from another device, ${fight.events.length} events. `
        + `Merging adds what it has to “${doc.name}” here; nothing is replaced.` }),
      h("div", { class: "ts-share-actions" },
        btn(`Merge into “${doc.name}”`, () => merge(fight)),
        btn("Dismiss", () => { close(); })));
  }

  function close() {
    incoming.hidden = true;
    incoming.replaceChildren();
    if (readFragment(location.hash)) history.replaceState(null, "", location.pathname + location.search);
  }

  /** @param {import("./link.mjs").Fight} fight @param {"both" | "ours" | "theirs"} [keep] */
  async function merge(fight, keep) {
    const req = { op: "merge", game, events: api.doc().events, other: fight.events };
    const reply = await py(keep ? { ...req, keep, eid: api.newEid() } : req);
    if (!keep && reply.clash) { clash(fight, reply); return; }
    await api.replaceEvents(reply.events);
    close();
    msg.textContent = reply.theirs.length
      ? `Merged: ${reply.theirs.length} event(s) from the other device added${keep && keep !== "both" ? ` (kept ${keep === "ours" ? "this device's" : "the other device's"} side)` : ""}.`
      : "Nothing new: this fight already had every event of that copy.";
  }

  /** Both devices acted on the same turn: both sides, and the GM's choice. */
  function clash(/** @type {any} */ fight, /** @type {any} */ reply) {
    const side = (/** @type {string} */ title, /** @type {any[]} */ list) => h("div", {},
      h("p", { class: "ts-merge-side", text: title }),
      h("ul", {}, list.map((x) => h("li", { text: x.summary }))));
    incoming.replaceChildren(
      h("p", { role: "alert", text: "Both devices acted on the same turn. Choose what stays"
        + (reply.problem ? ` (together they do not fit: ${reply.problem})` : "") + "." }),
      h("div", { class: "ts-merge-sides" }, side("On this device", reply.ours),
        side("On the other device", reply.theirs)),
      h("div", { class: "ts-share-actions" },
        reply.problem ? null : btn("Keep both", () => merge(fight, "both")),
        btn("Keep mine", () => merge(fight, "ours")),
        btn("Keep theirs", () => merge(fight, "theirs")),
        btn("Dismiss", () => { close(); })));
    incoming.dataset.clash = "";
  }

  async function receive() {
    const frag = readFragment(location.hash);
    if (!frag) return;
    try {
      if (frag.kind !== "fight") throw new LinkError("This is a players' view link: open it on the Player view page.");
      offer(checkFight(await decode(frag.code), game));
    } catch (err) {
      incoming.hidden = false;
      incoming.replaceChildren(h("p", { class: "ts-pv-error", role: "alert",
        text: `${err instanceof LinkError ? err.message : "The link could not be read."} Your fights are unchanged.` }));
    }
  }

  file.addEventListener("change", async () => {
    const f = /** @type {HTMLInputElement} */ (file).files?.[0];
    /** @type {HTMLInputElement} */ (file).value = "";
    if (!f) return;
    try {
      if (f.size > MAX_FILE) throw new LinkError("The file is too large to be an encounter.");
      let raw;
      try { raw = JSON.parse(await f.text()); } catch { throw new LinkError("The file is not an encounter (not JSON)."); }
      offer(checkFight(raw, game));
    } catch (err) { say(err); }
  });

  function print(log = false) {
    update();
    document.documentElement.classList.toggle("ts-print-log", log);
    addEventListener("afterprint", () => document.documentElement.classList.remove("ts-print-log"), { once: true });
    window.print();
  }

  /** A combatant's numbers, short: "HP 20/40" where the sheet keeps a full value.
   * @param {any} c */
  function numbers(c) {
    const val = new Map(c.values.map((/** @type {any} */ v) => [v.key, v.value]));
    return c.values.filter((/** @type {any} */ v) => !v.key.endsWith("_max") || !val.has(v.key.slice(0, -4)))
      .map((/** @type {any} */ v) => `${v.label} ${v.value}${val.has(`${v.key}_max`) ? `/${val.get(`${v.key}_max`)}` : ""}`)
      .join(", ");
  }

  /** The printed record: the fight on one page, then its combat log. */
  function drawRecord() {
    const st = api.state();
    if (!st) return;
    const name = api.doc().name;
    const by = new Map(st.combatants.map((/** @type {any} */ c) => [c.id, c]));
    const rows = [...st.order.map((/** @type {string} */ id) => by.get(id)),
      ...st.combatants.filter((/** @type {any} */ c) => !st.order.includes(c.id))];
    const cur = by.get(st.current);
    record.replaceChildren(
      h("div", { class: "ts-record-sheet" },
        h("h2", { text: `${name}: ${st.round ? `round ${st.round}, ${cur ? `${cur.name}'s turn` : "—"}` : "before the first round"}` }),
        h("table", { class: "ts-record-table" }, h("thead", {}, h("tr", {}, ["Turn", "Init", "Combatant", "Numbers", "Conditions", "State"]
          .map((t) => h("th", { text: t })))),
        h("tbody", {}, rows.map((c, i) => h("tr", {},
          h("td", { text: st.order.includes(c.id) ? String(i + 1) : "–" }),
          h("td", { text: c.initiative === null ? "–" : String(c.initiative) }),
          h("td", { text: c.id === st.current ? `${c.name} (now)` : c.name }),
          h("td", { text: numbers(c) }),
          h("td", { text: c.conditions.map(condText).join("; ") }),
          h("td", { text: [...c.status, ...c.injuries].join("; ") })))))),
      h("div", { class: "ts-record-log" }, h("h2", { text: `${name}: combat log` }),
        h("ol", {}, st.history.map((/** @type {any} */ e) =>
          h("li", { text: `${e.round ? `R${e.round}` : "Setup"}: ${e.summary}` })))));
  }

  /** The fight changed: the record and any code on show follow it. */
  function update() {
    drawRecord();
    if (mode === "players") showPlayers().catch(say);
    else if (mode === "device") sendDevice().catch(say);
  }

  addEventListener("hashchange", () => { if (box.isConnected) receive(); });
  receive();
  return { update };
}

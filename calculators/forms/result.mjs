// @ts-check
// A calculator's result: the answer first, its dice, its values by kind, the table rows it
// reads (highlighted, labelled by calculator), the worked steps folded, its odds, and a
// "Push" where the game lets a player reroll after seeing the dice.

import { pin } from "./anchor.mjs";
import { h } from "../dom.mjs";
import { probabilityNode, valueNode } from "./format.mjs";

/** @param {Registry.Odds} odds */
function renderOdds(odds) {
  const rows = odds.rows;
  const max = Math.max(...rows.map((r) => r.exactly.value), 0) || 1;
  const table = h("table", { class: "ts-odds" },
    h("thead", {}, h("tr", {},
      h("th", { scope: "col", text: "Outcome" }),
      h("th", { scope: "col", text: "P(exactly)" }),
      h("th", { scope: "col", text: "P(at least)" }))),
    h("tbody", {}, rows.map((r) => {
      const bar = h("span", { class: "ts-bar", "aria-hidden": "true" });
      bar.style.width = `${(100 * r.exactly.value) / max}%`;
      return h("tr", {},
        h("th", { scope: "row", text: r.outcome }),
        h("td", {}, h("span", { class: "ts-p" }, probabilityNode(r.exactly)), bar),
        h("td", {}, r.at_least ? probabilityNode(r.at_least) : "—"));
    })));
  // phone first: a long table starts folded on a small screen (the answer comes first)
  const room = matchMedia("(max-width: 44.9375em)").matches ? 6 : 12;
  return h("details", { class: "ts-odds-box", open: rows.length <= room },
    h("summary", { text: odds.title }), h("div", { class: "ts-scroll" }, table));
}

/** @param {Registry.Die[]} dice */
function renderDice(dice) {
  return h("ul", { class: "ts-dice", "aria-label": "Dice rolled" }, dice.map((d) => {
    const name = `d${d.sides}: ${d.value}${d.label ? ` ${d.label}` : ""}${d.kind ? ` (${d.kind})` : ""}`;
    return h("li", { class: "ts-die", "data-kind": d.kind || null, "aria-label": name, title: name },
      h("span", { class: "ts-die-value", text: String(d.value) }),
      d.label ? h("span", { class: "ts-die-label", text: d.label }) : null,
      d.kind ? h("span", { class: "ts-die-kind", text: d.kind }) : null);
  }));
}

// Each calculator's highlight replaces its own earlier one (never another's) and names the
// calculator, so two highlights in one table say which is which. The name is shown by CSS
// from the first cell's data-ts-hl (generated content: the cell's own text is unchanged).
function markRow(row, label, on) {
  row._tsHlBy ||= new Map();
  const n = (row._tsHlBy.get(label) || 0) + (on ? 1 : -1);
  if (n > 0) row._tsHlBy.set(label, n); else row._tsHlBy.delete(label);
  row.classList.toggle("ts-hl", row._tsHlBy.size > 0);
  const cell = row.cells[0];
  if (!cell) return;
  if (row._tsHlBy.size) cell.dataset.tsHl = [...row._tsHlBy.keys()].join(" · ");
  else delete cell.dataset.tsHl;
}

/** The rows a result reads that this page shows, each with its row element.
 * @param {Registry.Highlight[]} highlights @returns {[Registry.Highlight, Element][]} */
function rowsOf(highlights) {
  return highlights.map((hl) => /** @type {[Registry.Highlight, Element | null]} */ ([hl,
    document.querySelector(`table[data-table="${CSS.escape(hl.table)}"] `
      + `tr[data-row="${CSS.escape(String(hl.row))}"]`)]))
    .filter((pair) => pair[1] !== null);
}

/** Mark the rows a result used (this calculator's earlier marks go); each found one with
 * its row element.
 * @param {any} host @param {Registry.Highlight[]} highlights
 * @returns {[Registry.Highlight, Element][]} */
export function highlightRows(host, highlights) {
  const label = host.dataset.tsShort || "";
  for (const row of host._tsRows || []) markRow(row, label, false);
  const found = rowsOf(highlights);
  host._tsRows = found.map(([, row]) => row);
  for (const row of host._tsRows) markRow(row, label, true);
  return found;
}

/** @param {any} row @param {Registry.Highlight} hl */
function rowName(row, hl) {
  const cell = row.cells[0];
  if (!cell) return String(hl.row + 1);
  const copy = cell.cloneNode(true);
  copy.querySelectorAll(".ts-flag").forEach((t) => t.remove());
  return copy.textContent.trim();
}

/** @param {any} host @param {Registry.Result} result @param {string | number | null} seed
 * @param {boolean} [live] false: an answer worked out at build time (forms/ahead.mjs) */
export function renderResult(host, result, seed, live = true) {
  const out = host.querySelector(".ts-result");
  delete out.dataset.tsAhead; // whichever answer comes now is the one shown (forms/ahead.mjs marks its own)
  // An answer worked out ahead marks no row (a mark answers what a reader computed), but
  // offers the same "Show the row" as the live one: same box, nothing moves when it comes.
  const found = live ? highlightRows(host, result.highlight)
    : (highlightRows(host, []), rowsOf(result.highlight));
  out.replaceChildren(...[
    h("p", { class: "ts-summary", text: result.summary }),
    result.dice.length ? renderDice(result.dice) : null,
    result.values.length ? h("dl", { class: "ts-values" }, result.values.map(([k, v, kind]) =>
      h("div", { "data-kind": kind }, h("dt", { text: k }), h("dd", {}, valueNode(v, kind)))))
      : null,
    found.length ? h("p", { class: "ts-rows" }, found.map(([hl, row]) =>
      h("button", { type: "button", class: "ts-link",
        text: `Show the row “${rowName(row, hl)}” in the table`,
        onclick: () => row.scrollIntoView({ behavior: "smooth", block: "center" }) }))) : null,
    result.steps.length ? h("details", { class: "ts-steps-box" },
      h("summary", { text: `How it is worked out (${result.steps.length} steps)` }),
      h("ol", { class: "ts-steps" }, result.steps.map((s) => h("li", { text: s })))) : null,
    result.odds.map(renderOdds),
    result.notes.length ? h("ul", { class: "ts-notes" },
      result.notes.map((n) => h("li", { text: n }))) : null,
    seed !== null ? h("p", { class: "ts-seed", text: `Seed ${seed}: the link to this page rolls the same dice.` }) : null,
  ].flat().filter(Boolean));
  out.hidden = false;
  markShown(live);
}

/** Fast start (H10, issue 13): marks read by scripts/bench/main.py. "first-answer": the first
 * answer on screen, worked out ahead or live; "first-result": the first live one (the
 * bench's "ready"). @param {boolean} live */
export function markShown(live) {
  const first = (/** @type {string} */ name) => {
    if (!performance.getEntriesByName(name).length) performance.mark(name);
  };
  first("tableside:first-answer");
  if (!live) return;
  performance.mark("tableside:result");
  first("tableside:first-result");
}

// After Compute or Roll the result is brought into view when it is not; a result restored
// from a link (replay) is scrolled to, kept there while the page settles, and focused.
export function revealResult(result, replay) {
  if (replay) {
    pin(result);
    result.focus({ preventScroll: true });
    return;
  }
  const box = result.getBoundingClientRect();
  const header = document.querySelector(".md-header")?.getBoundingClientRect().bottom || 0;
  if (box.top < header || box.top > innerHeight - 120) {
    const smooth = !matchMedia("(prefers-reduced-motion: reduce)").matches;
    result.scrollIntoView({ block: "start", behavior: smooth ? "smooth" : "instant" });
  }
}

// Reroll after the fact where the game has it (issue #11): Forbidden Lands pushes after
// seeing the dice. A rolled result of a calculator with a "push" choice that can be
// "always" offers "Push": the same inputs and the same seed with push = always, so the
// engine rolls the very same first dice from the seed and then re-rolls exactly those its
// push rule allows (rules_pkg: push_roll). The form then says push = always, and the link
// reproduces both rolls.
/** @param {Registry.Calculator} calc @param {any} form @param {any} result
 * @param {string | number | null} seed @param {() => void} rerun */
export function offerPush(calc, form, result, seed, rerun) {
  const input = calc.inputs.find((i) => i.name === "push" && i.kind === "choice"
    && i.choices?.some(([v]) => v === "always"));
  const select = input ? form.elements.namedItem("push") : null;
  if (!select || seed === null || select.value === "always") return;
  const button = h("button", { type: "button", class: "md-button ts-push",
    text: "Push: throw the dice the rule allows again", onclick: () => {
      select.value = "always";
      select.dispatchEvent(new Event("input", { bubbles: true }));
      rerun();
    } });
  const dice = result.querySelector(".ts-dice");
  (dice || result.querySelector(".ts-summary")).after(h("p", { class: "ts-push-offer" }, button));
}

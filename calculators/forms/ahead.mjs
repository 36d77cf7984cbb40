// @ts-check
// Answers worked out ahead (issues 13, 26): a page carries its calculators' answers for
// the inputs each form starts with and, within a byte budget, for the changes of one input
// a reader most likely makes first (a checkbox, the stepper's +1/-1, the next options,
// the nearest steps), worked out at build time by the same rules_pkg on CPython
// (scripts/site/page_answers.py), in a hidden element's attribute (text, never markup).
// While Python starts, a form whose inputs are exactly one of those shows its answer at
// once, through the one result renderer (forms/result.mjs), marked as worked out ahead; inputs
// the page carries no answer for take it down (the form then waits for the engine, as
// without it). Once Python is ready, the live engine works the shown inputs out and its
// answer takes the place of the one worked out ahead; from then on the live engine answers.
// Not for a form restored from a link (forms/url-state.mjs): its inputs are the link's.

import { h } from "../dom.mjs";
import { readInputs } from "./form.mjs";
import { python } from "../python/boot.mjs";
import { highlightRows, markShown, renderResult } from "./result.mjs";
import { findAnswer, parseAnswers, sameInputs, sameResult } from "./answers.mjs";

/** @typedef {import("./answers.mjs").Answer} Answer */

export const HINT = "Worked out ahead";
const HINT_TITLE = "Worked out when this site was built, by the same rules engine, for "
  + "these inputs; the engine works it out again once it has started.";

/** @type {{ el: Element | null, list: Answer[] }} the current page's, parsed once */
const parsed = { el: null, list: [] };

/** This page's answers (a new page after instant navigation has its own element). */
function pageAnswers() {
  const el = /** @type {HTMLElement | null} */ (document.querySelector(".ts-answers[data-answers]"));
  if (el !== parsed.el) {
    parsed.el = el;
    parsed.list = el ? parseAnswers(el.dataset.answers) : [];
  }
  return parsed.list;
}

/** Show a result as worked out ahead (its hint, and data-ts-ahead on the result box).
 * @param {HTMLElement} host @param {HTMLElement} out @param {Answer} answer */
function show(host, out, answer) {
  renderResult(host, answer.result, null, false);
  out.dataset.tsAhead = "";
  out.prepend(h("p", { class: "ts-ahead", text: HINT, title: HINT_TITLE }));
}

/** The answer is no longer the live one's to replace: keep the live answer's look.
 * @param {HTMLElement} out */
function confirmed(out) {
  delete out.dataset.tsAhead;
  out.querySelector(":scope > .ts-ahead")?.remove();
  markShown(true);
}

/**
 * Show the answer worked out ahead for this form's inputs, as it starts and as a reader
 * changes them before Python is ready, when the page has one. Called by tableside.js's
 * mount() once the form is built, before its own input listeners (which mark a shown
 * result out of date).
 * @param {HTMLElement} host @param {Registry.Calculator} calc
 * @param {HTMLFormElement} form @param {HTMLElement} out the form's result box
 */
export function answerAhead(host, calc, form, out) {
  const mine = pageAnswers().filter((a) => a.calc === calc.id);
  if (!mine.length) return;
  /** @type {{ shown: Answer | null, live: boolean }} */
  const state = { shown: null, live: false };
  const follow = () => {
    if (state.live && !(out.dataset.tsAhead !== undefined && !out.hidden)) return;
    const inputs = readInputs(calc, form);
    if (state.shown && !out.hidden && sameInputs(state.shown.inputs, inputs)) return;
    const answer = state.live ? null : findAnswer(mine, calc.id, inputs);
    if (answer) { // these inputs' answer, worked out ahead
      state.shown = answer;
      show(host, out, answer);
    } else if (!out.hidden) { // not an answer to these inputs: wait for the engine
      state.shown = null;
      out.hidden = true;
      highlightRows(host, []);
    }
  };
  follow();
  python().then((run) => {
    state.live = true; // the live engine answers from now on
    later(() => replace(host, calc, form, out, state.shown, run));
  }, () => {
    // no engine: the answers worked out ahead stay, still marked so (the status says why)
  });
  form.addEventListener("input", follow);
  form.addEventListener("change", follow);
}

/** Once Python is ready: the live engine works the shown inputs out, and its answer takes
 * the place of the one worked out ahead (when the two are the same, the shown one stays,
 * as a reader may have opened its steps, and only loses its hint).
 * @param {HTMLElement} host @param {Registry.Calculator} calc @param {HTMLFormElement} form
 * @param {HTMLElement} out @param {Answer | null} answer the one shown when Python got ready
 * @param {import("../python/boot.mjs").Run} run */
async function replace(host, calc, form, out, answer, run) {
  // replaced already (Compute), taken down (inputs changed), or a Compute is on its way
  const standing = () => answer !== null && host.isConnected && out.dataset.tsAhead !== undefined
      && !out.hidden && !host.getAttribute("aria-busy")
      && sameInputs(answer.inputs, readInputs(calc, form));
  if (!standing() || answer === null) return;
  const inputs = readInputs(calc, form);
  let reply;
  try {
    reply = JSON.parse(await run(calc.id, JSON.stringify(inputs)));
  } catch (e) {
    reply = { ok: false, detail: String(e) };
  }
  if (!standing()) return; // the reader moved on while Python worked it out
  if (reply.ok && sameResult(reply.result, answer.result)) confirmed(out);
  else if (reply.ok) renderResult(host, reply.result, null); // the live engine has the say
  else { // never expected (the build ran the same engine): take it down, say why in the console
    console.warn(`Tableside: ${calc.id} refused the inputs worked out ahead:`, reply.message || reply.detail);
    delete out.dataset.tsAhead;
    out.hidden = true;
    highlightRows(host, []);
  }
}

/** Run `job` when the page is idle (one Python call each: never a long task of them all).
 * @param {() => void} job */
function later(job) {
  if (window.requestIdleCallback) requestIdleCallback(job, { timeout: 2000 });
  else setTimeout(job, 50);
}

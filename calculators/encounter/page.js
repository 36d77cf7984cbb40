// @ts-check
// The Encounter page (issue 12): a fight as a log of events, folded by Python
// (rules_pkg.encounter) into the state shown here. This file only stores and replays
// events. Each has its own id and the log is only appended to: Undo appends an event that
// cancels the newest action, Redo one that cancels that undo (rules_pkg/encounter/log.py).

import { h } from "../dom.mjs";
import { EncounterError, EngineMissing, py } from "./engine.js";
import { verifiedModules } from "../python/integrity.mjs";
import {
  activeEncounter, deleteEncounter, encountersOf, fileText, newEid, newEncounter, presetsOf,
  mergeEvents, saveEncounter, savePreset, seed, setActive, setAsideEncounter,
} from "./store.js";
import { download, storageNotes } from "./status.js";
import { followOtherTabs } from "./sync.js";
import { checkedDoc, importedText, limitsText, pyHeld, replayed } from "./replay.js";
import { beforePython, checking, ensureCss, layout } from "./boot.js";
import { keepFold } from "./cache.js";
import { card, historyList, orderList, roundLine } from "./view.js";
import { afterFrame, drawOrder } from "./draw.js";
import { followFight } from "./as.js";
import { addForm, askForms, initiativePanel, numbered, typeIn, typedIn } from "./panels.js";

export function mountAll() {
  for (const el of document.querySelectorAll(".ts-encounter:not([data-ts-enc])")) {
    mount(/** @type {HTMLElement} */ (el));
  }
}

/** @param {HTMLElement} el */
function mount(el) {
  el.dataset.tsEnc = "";
  document.documentElement.classList.add("ts-enc-page"); // (encounter/encounter.css: no :has())
  const game = /** @type {string} */ (el.dataset.game);
  const sheet = JSON.parse(el.dataset.sheet || "{}");
  ensureCss();
  const { calcs, toggle } = layout(el);
  let doc = activeEncounter(game) || newEncounter(game, "Encounter 1");
  /** @type {any} */
  let state = null;
  /** What Undo and Redo would cancel (eids, from the last fold). */
  let next = { undo: null, redo: null };
  /** @type {string | null} */
  let selected = null;
  let checked = ""; // the encounter already read (and migrated) by Python

  const msg = h("p", { class: "ts-enc-msg", role: "alert" });
  // "Loading the rules engine…", as the built page says it (scripts/site/encounter.py)
  const loading = el.querySelector(".ts-enc-round")?.textContent || "";
  const line = h("p", { class: "ts-enc-round", role: "status", "aria-live": "polite", tabindex: "-1" });
  const pick = h("select", { id: "ts-enc-pick", class: "ts-enc-pick" });
  const file = h("input", { type: "file", accept: ".json,application/json", id: "ts-enc-file",
    class: "ts-enc-file" });
  const btn = (/** @type {string} */ text, /** @type {() => any} */ fn, primary = false) =>
    h("button", { type: "button", class: `md-button${primary ? " md-button--primary" : ""}`, text,
      onclick: () => { Promise.resolve(fn()).catch(show); } });
  const limitsLine = h("p", { class: "ts-enc-limits" });
  const moreBtn = h("button", { type: "button", class: "md-button ts-enc-more", text: "More",
    "aria-expanded": "false", "aria-controls": "ts-enc-menu" });
  moreBtn.addEventListener("click", () => {
    const menu = /** @type {HTMLElement} */ (el.querySelector("#ts-enc-menu"));
    menu.hidden = !menu.hidden;
    moreBtn.setAttribute("aria-expanded", String(!menu.hidden));
  });
  // d100 Crippled tests only a turn of more than a Half Action: the GM says when it was less
  const half = h("input", { type: "checkbox", id: "ts-enc-half" });
  const halfBox = h("p", { class: "ts-enc-half", hidden: true }, half,
    h("label", { for: "ts-enc-half", text: " Only a Half Action this turn (Crippled: no test)" }));
  // the players roll their own dice: a rule's roll is asked when it happens (#25 item 2)
  const nextTurn = () => {
    const e = { type: "next_turn", seed: seed(), ask: true,
      ...(half.checked && !halfBox.hidden ? { half_action: true } : {}) };
    half.checked = false;
    return push(e);
  };
  const exportBtn = btn("Export", exportDoc);
  const undoBtn = btn("Undo", undo);
  const redoBtn = btn("Redo", redo);
  const prevBtn = btn("Previous turn", () => push({ type: "previous_turn" }));
  const nextBtn = btn("Next turn", nextTurn, true);
  const roundBtn = btn("Next round", () => push({ type: "next_round", seed: seed(), ask: true }));
  const asks = h("div", { class: "ts-enc-asks", "aria-live": "polite" });
  const order = h("div", { class: "ts-enc-orderbox" });
  const initBox = h("details", { class: "ts-enc-initbox" }, h("summary", { text: "Initiative" }));
  const addBox = h("details", { class: "ts-enc-add" }, h("summary", { text: "Add a combatant" }));
  const histBox = h("details", { class: "ts-enc-hist" }, h("summary", { text: "History" }));
  const histBody = h("div", {});
  histBox.append(histBody);
  let saving = 0; // actions being folded and saved: data-events waits for them
  let added = false; // the add form's own Add: it is drawn again empty
  /** The eid of the event just pushed: its notes are shown until the next action (#25 item 8). */
  let lastEid = "";
  let shownAsks = ""; // the rolls asked of players when last drawn (render)
  const shareBox = h("div", { class: "ts-enc-sharebox" });
  const notes = storageNotes(exportDoc, show);
  const bar = h("div", { class: "ts-enc-controls ts-enc-sticky", role: "toolbar", "aria-label": "Turns" },
    prevBtn, nextBtn, roundBtn, undoBtn, redoBtn, toggle);
  /** @type {{update: () => void} | null} */
  let share = null;

  el.replaceChildren(
    h("div", { class: "ts-enc-bar" },
      h("label", { for: "ts-enc-pick", text: "Encounter" }), pick,
      moreBtn,
      h("div", { class: "ts-enc-menu", id: "ts-enc-menu", hidden: true },
          btn("New", () => { doc = newEncounter(game, `Encounter ${encountersOf(game).length + 1}`); return refresh(); }),
          btn("Rename", rename), exportBtn,
          h("label", { for: "ts-enc-file", class: "md-button ts-enc-import", text: "Import" }), file,
          limitsLine,
          btn("Delete", remove))),
    line, asks, notes, msg, order, halfBox, initBox, addBox, histBox, shareBox,
    bar); // one sticky bar for what every turn needs: nothing floats over a control (#25 item 6)

  // what the forms around the fight may do: append events (a refusal is shown), say a note
  const act = {
    push: (/** @type {any} */ e) => push(e).catch(show),
    pushAll: (/** @type {any[]} */ es) => pushAll(es).catch(show),
    remove: () => { push({ type: "remove", id: selected }).catch(show); },
    say: (/** @type {string} */ t) => { msg.textContent = t; },
    seed,
  };
  for (const d of [initBox, addBox, histBox]) {
    d.addEventListener("toggle", () => {
      if (state && d.open) panels();
    });
  }
  // the odds before the roll (#28): a panel of its own, folded like the others, so its
  // arrival moves nothing; it asks Python once it is first opened. Its module is fetched
  // and checked, and its stylesheet linked, while the page is idle (it draws nothing until
  // mounted): opening the panel then waits for the answer only, not for a download on a
  // slow phone, nor for the whole page restyled
  const oddsBox = h("div", { class: "ts-enc-oddsbox" });
  const odds = h("details", { class: "ts-enc-odds" }, h("summary", { text: "Odds before the roll" }),
    oddsBox);
  order.after(odds);
  /** @type {Promise<typeof import("../odds/panel.js")> | null} */
  let oddsModule = null;
  const loadOdds = () => (oddsModule ??= verifiedModules([new URL("../odds/panel.js", import.meta.url)])
    .then(() => import("../odds/panel.js"))
    .catch((err) => { oddsModule = null; throw err; })); // a failed fetch: tried again on opening
  (window.requestIdleCallback || setTimeout)(() => { loadOdds().then((m) => m.ensureCss(), () => {}); });
  const mountPanel = () => {
    if (!odds.open || oddsBox.dataset.mounted !== undefined) return;
    oddsBox.dataset.mounted = "";
    loadOdds()
      .then((m) => m.mountOdds(oddsBox, { game, now: () => ({ events: doc.events, state }),
        // the log Python holds (encounter/replay.js): a question sends only what is new
        py: ({ events, ...req }) => pyHeld({ ...req, game }, events), watch: el }))
      .catch(show);
  };
  // Mounted, and its first question sent, in the very task that opened it (a mutation
  // observer runs at its end; every way of opening sets `open`), not a task later as
  // "toggle" comes: after the page's next frame, ~0.1 s on the phone profile (issue 28)
  new MutationObserver(mountPanel).observe(odds, { attributes: true, attributeFilter: ["open"] });

  // "As … against …": the calculators beside take the combatants' numbers
  const followAs = calcs ? followFight(calcs, { game, el, state: () => state, events: () => doc.events, show }) : null;

  pick.addEventListener("change", () => {
    const next = encountersOf(game).find((d) => d.id === pick.value);
    if (next) { doc = next; setActive(game, doc.id); refresh().catch(show); }
  });
  file.addEventListener("change", () => { importFile().catch(show); });

  /** @param {unknown} err */
  function show(err) {
    msg.textContent = err instanceof Error ? err.message : String(err);
    if (!(err instanceof EncounterError)) console.warn("Tableside encounter:", err);
  }

  /** Read the stored encounter through Python once (migrating an older schema). */
  async function check() {
    if (checked === doc.id) return;
    await checkedDoc(doc); // Python keeps its log: a fold then sends only what is new
    checked = doc.id;
  }

  async function refresh() {
    msg.textContent = "";
    pick.replaceChildren(...encountersOf(game).map((d) => h("option", { value: d.id, text: d.name })));
    pick.value = doc.id;
    try {
      await check();
    } catch (err) {
      if (!(err instanceof EncounterError) || err instanceof EngineMissing) throw err;
      // set aside (the notes above offer it for export), and the page goes on without it
      const why = err.message;
      setAsideEncounter(doc, why);
      const name = doc.name;
      doc = activeEncounter(game) || newEncounter(game, "Encounter 1");
      setActive(game, doc.id);
      await refresh();
      msg.textContent = `“${name}” could not be read (${why}): it was set aside, kept as it was.`;
      return;
    }
    await fold();
  }

  let folding = 0; // the newest fold asked for: an older one still running stops
  /** Fold the log: the state, and what Undo and Redo would cancel. A long log is shown
   * as far as it is folded, then brought up to date (encounter/replay.js); while the
   * fight as last saved is shown (`unchecked`), only how far the check is. */
  async function fold() {
    const mine = ++folding;
    const t0 = performance.now();
    const [d, events] = [doc, doc.events];
    el.dataset.replayed = "";
    const reply = await replayed(game, events, (r) => {
      if (unchecked) { start.say(checking(r)); return; }
      if (!r.state) { // how far it got: the fight as first shown stays
        line.textContent = `Bringing the fight up to date: ${r.folded} of ${r.total} events…`;
        return;
      }
      start.release();
      state = r.state;
      next = { undo: null, redo: null }; // not before it is up to date
      render(true);
      line.textContent = `Bringing the fight up to date: ${r.folded} of ${r.total} events…`;
    }, () => mine !== folding, unchecked);
    if (!reply) return;
    state = reply.state;
    next = { undo: reply.undo, redo: reply.redo };
    unchecked = false; // the fold wins over the fight as last saved
    start.release();
    render();
    if (el.dataset.drawn !== "done") performance.mark("tableside:encounter-up-to-date"); // the bench
    el.dataset.replayed = el.dataset.drawn = "done";
    el.dataset.replayMs = String(Math.round(performance.now() - t0));
    if (d.id) keepFold(d, events, { state, undo: reply.undo, redo: reply.redo }); // (not an import's trial)
  }

  /** @param {boolean} [partial] a long fight folded part of the way: the calculators
   * take their numbers (a fold of the whole log) once it is up to date */
  function render(partial = false) {
    // the control in focus is drawn again: the same one keeps the focus, or Next turn
    const had = el.contains(document.activeElement) ? /** @type {HTMLElement} */ (document.activeElement) : null;
    const label = had && had.tagName === "BUTTON" ? had.textContent : null;
    line.textContent = roundLine(state);
    undoBtn.toggleAttribute("disabled", !next.undo);
    redoBtn.toggleAttribute("disabled", !next.redo);
    prevBtn.toggleAttribute("disabled", !state.round || !state.turn);
    nextBtn.toggleAttribute("disabled", !state.round);
    roundBtn.toggleAttribute("disabled", !state.round);
    if (selected && !state.combatants.some((/** @type {any} */ c) => c.id === selected)) selected = null;
    const now = state.combatants.find((/** @type {any} */ x) => x.id === state.current);
    halfBox.hidden = !now?.conditions.some((/** @type {any} */ x) => x.name === "Crippled");
    const asked = askForms(state, act);
    if (asked.length || asks.firstChild) asks.replaceChildren(...asked);
    // a roll newly asked of a player is brought into view: the tap that asked it (Roll
    // initiative, Next turn) is lower on a phone, and the asks stand at the top
    const askKey = (state.asks || []).map((/** @type {any} */ a) => `${a.id} ${a.name}`).join("|");
    const newAsks = askKey !== shownAsks && asked.length > 0;
    shownAsks = askKey;
    // only the rows that changed are drawn again (encounter/draw.js)
    drawOrder(order, orderList(state, selected, (id) => { selected = selected === id ? null : id; render(); },
      (c) => card(sheet, state, c, act)));
    if (!state.round && state.combatants.length) initBox.open = true;
    panels();
    const last = state.history.length ? state.history[state.history.length - 1] : null;
    if (last && last.eid === lastEid && last.notes.length) msg.textContent = last.notes.join(" ");
    if (had && !had.isConnected) {
      const same = [...el.querySelectorAll("button")].find((b) => b.textContent === label && !b.hasAttribute("disabled"));
      /** @type {HTMLElement} */ (same || (nextBtn.hasAttribute("disabled") ? line : nextBtn))
        .focus({ preventScroll: true }); // the page stays where the reader is
    }
    if (newAsks) { // out of sight: under the header, or low enough for the turn bar to hide it
      const top = asks.getBoundingClientRect().top;
      const header = document.querySelector(".md-header")?.getBoundingClientRect().bottom ?? 0;
      if (top < header || top > innerHeight / 2) asks.scrollIntoView({ block: "start" });
    }
    // the events of this fight as drawn (benches), and as stored: while an action is
    // being saved, once it is
    if (!partial) el.dataset.drawnEvents = String(doc.events.length);
    if (!saving) el.dataset.events = String(doc.events.length);
    // the printed record and the calculators beside follow after the frame: a tap shows
    // its effect first
    const drawn = state;
    afterFrame().then(() => {
      if (state !== drawn) return; // a newer state is on its way: it does this
      share?.update();
      // (not while the fight as last saved is drawn: "inputs" would fold the whole log
      // ahead of the check, in one request, issue 24)
      if (!partial) followAs?.(!unchecked);
    });
    if (performance.getEntriesByName("tableside:apply").length) {
      const m = performance.measure("tableside:apply-to-state", "tableside:apply");
      /** @type {any} */ (window).tablesideApplyMs = m.duration;
      performance.clearMarks("tableside:apply");
    }
  }

  /** The folded-away panels are built when open (a tap redraws only what is in view). */
  function panels() {
    initBox.replaceChildren(/** @type {HTMLElement} */ (initBox.firstElementChild), ...(initBox.open
      ? [initiativePanel(sheet, state, act)] : []));
    // what the GM is typing survives a redraw (another tab's action, a tap elsewhere),
    // not the form's own Add
    const typed = added ? [] : typedIn(addBox);
    added = false;
    addBox.replaceChildren(/** @type {HTMLElement} */ (addBox.firstElementChild), ...(addBox.open
      ? [addForm(sheet, presetsOf(game), state, (p, save, copies) => { addCopies(p, save, copies).catch(show); })]
      : []));
    typeIn(addBox, typed);
    histBody.replaceChildren(...(histBox.open ? [historyList(state)] : []));
  }

  /** N copies of one combatant, numbered ("Thug 1", "Thug 2" …), an event each, added
   * together or not at all (past the fight's limit of combatants, none is added).
   * @param {import("./store.js").Preset} p @param {boolean} save @param {number} copies */
  async function addCopies(p, save, copies) {
    added = true;
    if (save) savePreset(game, p);
    const names = numbered(p.name, copies, state.combatants.map((/** @type {any} */ c) => c.name));
    await pushAll(names.map((name) => ({ type: "add", name, kind: p.kind, values: p.values,
      id: `c${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}` })));
  }

  /** Append one event (a new id unless it has one) once the rules accept it.
   * @param {import("./store.js").EncEvent} event */
  async function push(event) {
    return pushAll([event]);
  }

  /** Append events once the rules accept every one: one refused, none is kept (a form of
   * several values, as the typed initiatives, is set whole or not at all).
   * @param {import("./store.js").EncEvent[]} events */
  async function pushAll(events) {
    if (!events.length) return;
    saving++;
    try {
      await pushAndSave(events);
    } finally {
      saving--;
      el.dataset.events = String(doc.events.length);
    }
  }

  /** @param {import("./store.js").EncEvent[]} events */
  async function pushAndSave(events) {
    const before = doc.events;
    const stored = events.map((event) => ({ eid: newEid(), ...event }));
    doc.events = [...before, ...stored];
    msg.textContent = ""; // a note belongs to the action that caused it
    lastEid = stored[stored.length - 1].eid;
    try {
      await fold();
    } catch (err) {
      // refused by the rules: nothing is stored (what another tab added meanwhile stays)
      const ours = new Set(/** @type {unknown[]} */ (stored));
      doc.events = doc.events.filter((e) => !ours.has(e));
      // "event 12 (answer): …" names the event in a file; here it is the tap just made
      const refused = err instanceof EncounterError ? err.refused : undefined;
      if (refused && stored.some((e) => e.eid === refused.eid)) throw new EncounterError(refused.reason);
      throw err;
    }
    const mine = doc.events.length;
    await afterFrame(); // the tap's effect is drawn before the log is stored
    await saveEncounter(doc); // merged with another tab's events, if any
    if (doc.events.length !== mine) await fold();
    // the "Apply" buttons beside the tracker follow the log
    dispatchEvent(new CustomEvent("tableside:encounter-changed", { detail: { game, from: "tracker" } }));
  }

  async function undo() {
    if (next.undo) await push({ type: "undo", of: next.undo });
  }

  async function redo() {
    if (next.redo) await push({ type: "undo", of: next.redo });
  }

  async function rename() {
    const typed = prompt("Name of this encounter", doc.name);
    // cleaned as sources are: no bidi overrides, zero-width or control characters
    const name = typed ? (await py({ op: "name", text: typed })).name : "";
    if (name) {
      doc.name = name;
      await saveEncounter(doc);
      await refresh();
    }
  }

  async function remove() {
    if (!confirm(`Delete “${doc.name}”? Export it first to keep a copy.`)) return undefined;
    await deleteEncounter(doc.id);
    doc = activeEncounter(game) || newEncounter(game, "Encounter 1");
    setActive(game, doc.id);
    return refresh();
  }

  async function exportDoc() {
    // without the engine (it could not load), the fight as the page keeps it
    const text = await py({ op: "export", game, name: doc.name, events: doc.events })
      .then((r) => r.text, () => fileText(doc));
    download(text, `${doc.name.replace(/[^\w -]+/g, "").trim() || "encounter"}.json`);
  }

  async function importFile() {
    const f = /** @type {HTMLInputElement} */ (file).files?.[0];
    /** @type {HTMLInputElement} */ (file).value = "";
    if (!f) return;
    const limits = await limitsText();
    if (f.size > 4 * limits.file_chars) { // not even read: a character is at most 4 bytes
      throw new EncounterError(`The file is too large: ${f.size.toLocaleString("en")} bytes. ${limits.text}`);
    }
    const reply = await importedText(game, await f.text());
    if (reply.game !== game) {
      throw new EncounterError(`This encounter is for another game (${reply.game}): open its Encounter page to import it.`);
    }
    // folded (in slices, shown as it goes) before it is stored: a log the rules refuse is not kept
    const before = doc;
    doc = { ...before, id: "", name: reply.name || f.name.replace(/\.json$/i, ""), events: reply.events };
    try {
      await fold();
    } catch (err) {
      doc = before;
      await fold();
      throw err;
    }
    doc = newEncounter(game, doc.name, reply.events);
    checked = doc.id;
    // listed in a task of its own: each reads the store (~0.6 MB for a long fight), and
    // no one task may block a phone for over 50 ms (issue 24); not done until then
    el.dataset.replayed = "";
    await afterFrame();
    await refresh();
    msg.textContent = `Imported “${doc.name}” (${doc.events.length} events).`;
  }

  addEventListener("tableside:encounter-changed", (e) => {
    const d = /** @type {CustomEvent} */ (e).detail;
    if (d?.game !== game || d.from === "tracker" || !el.isConnected) return;
    doc = activeEncounter(game) || doc;
    fold().catch(show);
  });
  // another tab's events on this encounter are taken in, and shown
  const stop = followOtherTabs(game, () => doc, (events) => {
    if (!el.isConnected) { stop(); return; }
    // theirs, and ours still being saved (an action of this tab in flight is kept)
    doc.events = mergeEvents(events, doc.events);
    fold().catch(show);
  });

  /** The log after a merge (share/gm.js): stored once the rules accept it. @param {any[]} events */
  async function replaceEvents(events) {
    const before = doc.events;
    doc.events = events;
    saving++;
    try {
      await fold();
      await saveEncounter(doc);
    } catch (err) {
      doc.events = before;
      throw err;
    } finally {
      saving--;
      el.dataset.events = String(doc.events.length);
    }
  }

  // Sharing and the printed record (issue 27): modules of their own, checked before import.
  verifiedModules(["../share/gm.js", "../share/player-view.js", "../share/link.mjs"]
    .map((u) => new URL(u, import.meta.url)))
    .then(() => import("../share/gm.js"))
    .then((m) => {
      share = m.mountShare(shareBox, { game, doc: () => doc, state: () => state, py, newEid, replaceEvents });
      if (state) share.update();
    }).catch(show);

  // The fight as last folded, drawn at once (issue 26): Python's fold checks it, and wins.
  // Until then the controls that need Python are held (encounter/boot.js); the odds panel
  // stays live: it only asks, and its question waits for Python (a GM who opens it while
  // Python starts has the answer as soon as it can be worked out).
  const start = beforePython(el, bar, [moreBtn, exportBtn, notes, toggle, odds], doc, (f) => {
    ({ state } = f);
    next = { undo: f.undo, redo: f.redo };
    render(); // the calculators' "As … against" bar too: it is there when Python comes
    delete el.dataset.events; // what Python has folded (tests and the bench wait for it)
  });
  let unchecked = start.drawn;
  if (!unchecked) line.textContent = loading;
  limitsText().then((l) => { limitsLine.textContent = l.text; }, () => {});
  refresh().catch((err) => {
    show(err); // never "Loading…" for ever
    if (line.textContent === loading) line.textContent = "The fight could not be shown.";
  }).finally(() => start.release());
  if (start.bad) msg.textContent = start.bad;
}

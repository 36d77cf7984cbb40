// @ts-check
// Several calculators after one table: one deck with a tab per calculator (WAI-ARIA tabs:
// arrow keys, Home, End). Panels behind a tab are built when the page is idle (tableside.js
// puts their build in `pending`); selecting a tab builds its panel at once.

import { h, uid } from "../dom.mjs";

/** host element -> its build function, for panels not built yet
 * @type {Map<Element, () => void>} */
export const pending = new Map();

/** @param {Registry.Calculator} calc */
export function shortTitle(calc) {
  const t = calc.title;
  const cut = t.indexOf(":");
  return cut > 3 ? t.slice(0, cut) : t;
}

export function selectTab(deck, host, focus = false) {
  pending.get(host)?.(); // not built yet (see whenIdle): build it now
  for (const tab of deck.querySelectorAll(":scope > .ts-tabs > [role=tab]")) {
    const on = tab.getAttribute("aria-controls") === host.id;
    tab.setAttribute("aria-selected", String(on));
    tab.tabIndex = on ? 0 : -1;
    if (on && focus) tab.focus();
    // Never for the first tab (already in view): every deck selects it as it is built.
    if (on && tab.previousElementSibling) showTab(tab);
  }
  for (const panel of deck.querySelectorAll(":scope > .ts-calc")) panel.hidden = panel !== host;
}

/**
 * A narrow screen scrolls the row of tabs (not the page) to the chosen tab, in the next
 * frame: measuring forces a layout, and right after a panel is built (selectTab builds it)
 * that is a whole page laid out twice: once here, again with the result the click brings.
 * In the frame it is the one layout the frame makes anyway.
 * @param {HTMLElement} tab
 */
function showTab(tab) {
  requestAnimationFrame(() => {
    const row = tab.parentElement;
    if (!row || tab.getAttribute("aria-selected") !== "true" || row.scrollWidth <= row.clientWidth) return;
    row.scrollLeft = tab.offsetLeft - row.offsetLeft - 16;
  });
}

/** @param {any[]} hosts @param {Map<string, Registry.Calculator>} registry */
export function groupDecks(hosts, registry) {
  const seen = new Set();
  for (const first of hosts) {
    if (seen.has(first) || first.previousElementSibling?.matches(".ts-calc")) continue;
    const run = [first];
    for (let n = first.nextElementSibling; n && n.matches(".ts-calc"); n = n.nextElementSibling) {
      run.push(n);
    }
    run.forEach((x) => seen.add(x));
    if (run.length < 2) continue;
    const where = tableCaption(first);
    const tabs = h("div", { class: "ts-tabs", role: "tablist",
      "aria-label": where ? `Calculators: ${where}` : "Calculators" });
    const deck = h("div", { class: "ts-deck" }, tabs);
    first.before(deck);
    for (const host of run) {
      host.id ||= uid("panel");
      const calc = registry.get(host.dataset.calc);
      const tab = h("button", { type: "button", role: "tab", id: `${host.id}-tab`,
        "aria-controls": host.id, text: calc ? shortTitle(calc) : host.dataset.calc,
        title: calc?.title, onclick: () => selectTab(deck, host) });
      host.setAttribute("role", "tabpanel");
      host.setAttribute("aria-labelledby", tab.id);
      tabs.append(tab);
      deck.append(host);
    }
    tabs.addEventListener("keydown", (e) => {
      const all = [...tabs.children];
      const i = all.indexOf(document.activeElement);
      if (i < 0) return;
      const j = e.key === "ArrowRight" ? (i + 1) % all.length
        : e.key === "ArrowLeft" ? (i - 1 + all.length) % all.length
          : e.key === "Home" ? 0 : e.key === "End" ? all.length - 1 : -1;
      if (j < 0) return;
      e.preventDefault();
      selectTab(deck, document.getElementById(all[j].getAttribute("aria-controls")), true);
    });
    selectTab(deck, first);
  }
}

// The caption of the table a calculator stands after (its deck's, when in one).
export function tableCaption(host) {
  const before = (host.parentElement?.matches(".ts-deck") ? host.parentElement : host)
    .previousElementSibling;
  const table = before?.matches("table") ? before : before?.querySelector?.("table");
  const caption = (table?.querySelector("caption")?.textContent || "").trim();
  if (caption || table) return caption;
  // after a section's prose (no table): the section's heading
  for (let n = before; n; n = n.previousElementSibling) {
    if (/^H[1-4]$/.test(n.tagName)) return n.textContent.replace(/¶\s*$/, "").trim();
  }
  return "";
}

// @ts-check
// What the Encounter page says about its storage (issue 24): that the fight is not being
// saved on this device, and why, with Export at hand; and what was set aside as
// unreadable, each with Export (its text as it was stored) and Discard. The words come
// from encounter/store.js; nothing stored ever becomes markup (dom.mjs puts text as text).

import { h } from "../dom.mjs";
import { discardAside, onStorageStatus, setAside, storageProblem } from "./store.js";

/** Offer `text` as a file to save. @param {string} text @param {string} name */
export function download(text, name) {
  const a = h("a", { href: URL.createObjectURL(new Blob([text], { type: "application/json" })),
    download: name });
  document.body.append(a);
  a.click();
  a.remove();
}

/**
 * The storage notes, kept up to date; `exportFight` exports the fight on screen.
 * @param {() => any} exportFight @param {(err: unknown) => void} show
 * @returns {HTMLElement}
 */
export function storageNotes(exportFight, show) {
  const box = h("div", { class: "ts-enc-storage" });
  const draw = () => {
    const why = storageProblem();
    const aside = setAside();
    box.replaceChildren(
      why ? h("p", { class: "ts-enc-unsaved", role: "alert" },
        h("strong", { text: "This fight is not being saved on this device" }),
        ` (${why}): it is kept in this tab only and is lost when the tab closes. Export it to keep it. `,
        h("button", { type: "button", class: "md-button", text: "Export this fight",
          onclick: () => { Promise.resolve(exportFight()).catch(show); } })) : null,
      aside.length ? h("div", { class: "ts-enc-aside", role: "status" },
        h("p", { text: `${aside.length} stored item(s) could not be read and were set aside, `
          + "kept as they were. Export them to look at them or to mend them, or discard them." }),
        h("ul", {}, aside.slice(0, 10).map((x, i) => h("li", {},
          h("span", { text: `${x.key.split(":unreadable:")[0]}${x.why ? ` (${x.why})` : ""}, `
            + `${x.text.length} characters ` }),
          h("button", { type: "button", class: "md-button", text: "Export",
            onclick: () => download(x.text, `tableside-unreadable-${i + 1}.json`) }),
          h("button", { type: "button", class: "md-button", text: "Discard",
            onclick: () => discardAside(x.key) }))))) : null);
    box.hidden = !why && !aside.length;
  };
  onStorageStatus(draw);
  draw();
  return box;
}

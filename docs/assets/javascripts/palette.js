// @ts-check
/* The light/dark toggle in the header: Material's palette component
   (src/templates/assets/javascripts/components/palette/index.ts), without its start.
   Material's inline script in the body (partials/javascripts/palette.html) already sets the
   stored palette before the first paint; its component then set it again as its bundle
   started, with `data-md-color-switching` on the body around it, which its stylesheet reads
   in `[data-md-color-switching] *`: the whole page restyled, and read back at once for the
   theme colour, then restyled again as the attribute went. On a weapon page that was ~0.1 s
   of the phone's main thread in Lighthouse's model (TBT, issue 26). Our partials/palette.html
   leaves the form without `data-md-component`, so Material does not mount it; here the same
   toggle: the right button shown, a change applied (transitions off while it switches) and
   stored as Material stores it, and the page's colour scheme given to what the browser
   draws itself. */
(() => {
  "use strict";
  const w = /** @type {any} */ (window);
  if (w.__tsPalette) return; // instant navigation keeps the header: listen once
  const form = document.querySelector("form.ts-palette");
  if (!form) return;
  w.__tsPalette = true;
  const inputs = /** @type {HTMLInputElement[]} */ ([...form.querySelectorAll("input")]);
  const body = document.body;
  // The page's colour scheme for what the browser draws itself (its scrollbars, say), as
  // Material's component gave it (uaScheme). (Its theme-color it added too; the head's own,
  // the app's colour from scripts/site/app.py, comes first, and the first one is the one used.)
  /** @type {HTMLMetaElement | null} */
  let scheme = null;
  const lightMedia = matchMedia("(prefers-color-scheme: light)");

  /** The option in use: the stored one, else the one whose media matches (Material's). */
  const current = () => {
    const stored = w.__md_get("__palette");
    const index = stored ? stored.index : inputs.findIndex((input) =>
      matchMedia(input.getAttribute("data-md-color-media") || "").matches);
    return Math.max(0, Math.min(index, inputs.length - 1));
  };

  /** Each toggle shows the button of the option it is not. @param {number} index */
  const show = (index) => {
    inputs.forEach((input, i) => {
      const label = input.nextElementSibling;
      if (label instanceof HTMLElement) label.hidden = i !== index;
    });
  };

  /** What the browser draws itself (its scrollbars, say) follows the scheme: Material has
   * two, "default" (light) and "slate" (dark), its stylesheets' color-scheme. Not read from
   * the style: a read on the page's load made the browser work out the page's pending style
   * at once, in a task of its own (~15 ms of main thread on a weapon page: TBT, issue 26). */
  const uaScheme = () => {
    const dark = body.getAttribute("data-md-color-scheme") === "slate";
    // (light, the browser's own: no meta until dark is wanted. A meta added restyles the
    // whole page, and Material's start then waited for that: ~7 ms more on a weapon page)
    if (!scheme && !dark) return;
    if (!scheme) {
      scheme = document.createElement("meta");
      scheme.name = "color-scheme";
      document.head.appendChild(scheme);
    }
    scheme.content = dark ? "dark" : "light";
  };

  /** The option's colours; an automatic option's, the system's (Material's). @param {number} index */
  const colours = (index) => {
    const input = inputs[index];
    /** @type {Record<string, string>} */
    const color = {};
    for (const key of ["media", "scheme", "primary", "accent"]) {
      color[key] = input.getAttribute(`data-md-color-${key}`) || "";
    }
    if (color.media === "(prefers-color-scheme)") {
      const auto = document.querySelector(lightMedia.matches
        ? "[data-md-color-media='(prefers-color-scheme: light)']"
        : "[data-md-color-media='(prefers-color-scheme: dark)']");
      for (const key of ["scheme", "primary", "accent"]) {
        color[key] = auto?.getAttribute(`data-md-color-${key}`) || "";
      }
    }
    return color;
  };

  /** Set the option's colours on the body and store it, as Material does. @param {number} index */
  const apply = (index) => {
    const color = colours(index);
    body.setAttribute("data-md-color-switching", ""); // no colour transitions meanwhile
    for (const [key, value] of Object.entries(color)) body.setAttribute(`data-md-color-${key}`, value);
    show(index);
    w.__md_set("__palette", { index, color });
    uaScheme();
    setTimeout(() => body.removeAttribute("data-md-color-switching"));
  };

  // The start: the body already has the option's colours (the template's, or the stored
  // ones set before the first paint), mostly: then only its toggle is shown. Else (a
  // system in dark mode, nothing stored yet) the option is applied and stored, as
  // Material does, so that the next pages have it before their first paint.
  const start = current();
  const now = colours(start);
  if (["scheme", "primary", "accent"].some((k) => body.getAttribute(`data-md-color-${k}`) !== now[k])) {
    apply(start);
  } else {
    show(start);
  }
  for (const input of inputs) input.addEventListener("change", () => apply(inputs.indexOf(input)));
  // Enter on the focused toggle picks the next option (Material's: see https://t.ly/YIhVj)
  form.addEventListener("keydown", (e) => {
    if (/** @type {KeyboardEvent} */ (e).key !== "Enter") return;
    const next = inputs[(current() + 1) % inputs.length];
    next.click();
    next.focus();
  });
  // The system turns light or dark: followed until an option is stored, and by an automatic one
  lightMedia.addEventListener("change", () => {
    const index = current();
    if (!w.__md_get("__palette") || colours(index).media === "(prefers-color-scheme)") apply(index);
  });
  uaScheme();
})();

// @ts-check
/**
 * The app's icons, drawn at build time from one source image (docs/assets/images/icon.svg).
 *
 * Usage: node scripts/site/icons.mjs <icon.svg> <out dir> <background colour>
 * Writes icon-192.png, icon-512.png, icon-maskable-512.png and apple-touch-icon.png, and
 * prints one JSON line: [{file, size, purpose}].
 *
 * Maskable and Apple icons are full-bleed: launchers cut them to their own shape, so the
 * image sits inside the safe zone (the middle 80 %) on a square of the background colour.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Resvg } from "@resvg/resvg-js";

/** @typedef {{file: string, size: number, purpose: "any" | "maskable" | "apple"}} Icon */

/** @type {Icon[]} */
const ICONS = [
  { file: "icon-192.png", size: 192, purpose: "any" },
  { file: "icon-512.png", size: 512, purpose: "any" },
  { file: "icon-maskable-512.png", size: 512, purpose: "maskable" },
  { file: "apple-touch-icon.png", size: 180, purpose: "apple" },
];

/**
 * The source image on a full-bleed square, scaled into the safe zone.
 * @param {string} svg @param {string} background
 */
function fullBleed(svg, background) {
  const inner = "data:image/svg+xml;base64," + Buffer.from(svg).toString("base64");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">` +
    `<rect width="100" height="100" fill="${background}"/>` +
    `<image x="14" y="14" width="72" height="72" href="${inner}"/></svg>`;
}

/** @param {string} svg @param {number} size */
function png(svg, size) {
  return new Resvg(svg, { fitTo: { mode: "width", value: size } }).render().asPng();
}

const [source, outDir, background] = process.argv.slice(2);
if (!source || !outDir || !/^#[0-9a-fA-F]{6}$/.test(background ?? "")) {
  console.error("usage: node scripts/site/icons.mjs <icon.svg> <out dir> <#rrggbb>");
  process.exit(2);
}
const svg = readFileSync(source, "utf8");
mkdirSync(outDir, { recursive: true });
for (const icon of ICONS) {
  const image = icon.purpose === "any" ? svg : fullBleed(svg, background);
  writeFileSync(join(outDir, icon.file), png(image, icon.size));
}
console.log(JSON.stringify(ICONS));

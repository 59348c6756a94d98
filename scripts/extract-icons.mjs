#!/usr/bin/env node
// Extracts the game-icons.net silhouettes the board picture uses into assets/icons/*.svg.
//
// Run once, from the repository root, when the icon list below changes:
//
//     node scripts/extract-icons.mjs                 # fetches the npm package with `npm pack`
//     node scripts/extract-icons.mjs path/to/package # or uses an unpacked copy
//
// The icons come from the npm package @iconify-json/game-icons (CC BY 3.0, see
// assets/LICENSES.md). The SVG files are committed, so neither a build nor a test needs npm or
// the network. The renderer rasterises them with resvg and recolours them itself, so the
// files keep the icon's path exactly as published (`currentColor` fill, 512×512 view box).

import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Pinned so that a re-run gives the same files.
const PACKAGE = "@iconify-json/game-icons@1.2.4";

// The icons the renderer draws; keep in sync with src/render/icons.rs.
const ICONS = [
  "air-balloon",
  "airplane",
  "barrel",
  "beard",
  "brandy-bottle",
  "cannon-ball",
  "canoe",
  "cauldron",
  "cave-entrance",
  "croc-jaws",
  "earth-crack",
  "galleon",
  "gold-bar",
  "heart-tower",
  "horse-head",
  "jungle",
  "lighthouse",
  "maze",
  "open-treasure-chest",
  "parrot-head",
  "prayer",
  "skull-crossed-bones",
  "snowflake-1",
  "stone-tower",
  "tribal-mask",
  "two-coins",
  "vine-leaf",
  "wheelbarrow",
  "wolf-trap",
];

function packageDir() {
  if (process.argv[2]) return { dir: process.argv[2], cleanup: () => {} };
  const tmp = mkdtempSync(join(tmpdir(), "game-icons-"));
  execFileSync("npm", ["pack", PACKAGE, "--silent"], { cwd: tmp, stdio: ["ignore", "ignore", "inherit"] });
  const tgz = readdirSync(tmp).find((f) => f.endsWith(".tgz"));
  execFileSync("tar", ["xzf", tgz], { cwd: tmp });
  return { dir: join(tmp, "package"), cleanup: () => rmSync(tmp, { recursive: true, force: true }) };
}

const { dir, cleanup } = packageDir();
try {
  const set = JSON.parse(readFileSync(join(dir, "icons.json"), "utf8"));
  const width = set.width ?? 16;
  const height = set.height ?? 16;
  const out = "assets/icons";
  mkdirSync(out, { recursive: true });
  for (const name of ICONS) {
    const icon = set.icons[name];
    if (!icon) throw new Error(`icon ${name} is not in ${PACKAGE}`);
    const w = icon.width ?? width;
    const h = icon.height ?? height;
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
      `<!-- game-icons.net "${name}", CC BY 3.0, via ${PACKAGE} -->` +
      icon.body.replaceAll("currentColor", "#000") +
      `</svg>\n`;
    writeFileSync(join(out, `${name}.svg`), svg);
  }
  console.log(`wrote ${ICONS.length} icons to ${out}/`);
} finally {
  cleanup();
}

// Builds the installable, offline-capable part of the online site into the finished site
// folder (called by site_plugins/webapp/pwa.py in on_post_build, after every page is final):
//   1. the app icons, rendered from the project's logo (SVG) with @resvg/resvg-js;
//   2. the page script: site_plugins/webapp/assets/pwa.js (an ES module) bundled with workbox-window
//      into assets/pwa/pwa.js, a classic script (IIFE) – before the lists, which take it in;
//   3. the service worker: site_plugins/webapp/assets/sw.js bundled with Workbox's modules, then
//      Workbox's injectManifest writes the precache list (the shell) into it; the lists of
//      the runtime and of the other pages go in at bundle time.
// Both bundles: rollup with terser, from node_modules – nothing from a CDN.
// Each list entry: url, revision (Workbox: MD5 of the file, null for URLs already named by
// a hash), integrity (SHA-256 of the file: the browser refuses other bytes) and bytes.
//
//   node site_plugins/webapp/assets/build.mjs '<json>'   (see site_plugins/webapp/pwa.py: build_config)
// Prints one JSON line with the figures.
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { SITE_MODULES, sitePackage } from "../../laufzeit/site_packages.mjs";

const { Resvg } = await sitePackage("@resvg/resvg-js");
const { nodeResolve } = await sitePackage("@rollup/plugin-node-resolve");
const { default: replace } = await sitePackage("@rollup/plugin-replace");
const { default: terser } = await sitePackage("@rollup/plugin-terser");
const { rollup } = await sitePackage("rollup");
const { getManifest, injectManifest } = await sitePackage("workbox-build");

const config = JSON.parse(process.argv[2]);
const site = config.site;

// ------------------------------------------------------------------ icons

// The logo's drawing inside a square of `size` pixels: scaled to `scale` of it, centred, on
// `background` (null: transparent). A maskable icon keeps the mark inside the safe zone (the
// circle of 40 % radius in the middle), an "any" icon may fill the square.
function iconSvg(logo, { size, scale, background }) {
  const root = logo.match(/<svg\b[^>]*>/);
  const viewBox = root && root[0].match(/viewBox="([^"]+)"/);
  if (!viewBox) throw new Error("logo.svg: <svg viewBox=…> fehlt");
  const inner = logo.slice(root.index + root[0].length, logo.lastIndexOf("</svg>"));
  const side = size * scale;
  const offset = (size - side) / 2;
  const fill = background ? `<rect width="${size}" height="${size}" fill="${background}"/>` : "";
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" ` +
    `viewBox="0 0 ${size} ${size}">${fill}<svg x="${offset}" y="${offset}" width="${side}" ` +
    `height="${side}" viewBox="${viewBox[1]}">${inner}</svg></svg>`
  );
}

async function renderIcons() {
  const logo = await readFile(config.logo, "utf8");
  for (const icon of config.icons) {
    const target = path.join(site, icon.file);
    await mkdir(path.dirname(target), { recursive: true });
    const png = new Resvg(iconSvg(logo, icon), { fitTo: { mode: "original" } }).render().asPng();
    await writeFile(target, png);
  }
}

// ------------------------------------------------------------------ lists

async function withIntegrity(manifest) {
  const entries = [];
  for (const entry of manifest) {
    const bytes = await readFile(path.join(site, entry.url));
    const digest = createHash("sha256").update(bytes).digest("base64");
    entries.push({ ...entry, integrity: `sha256-${digest}`, bytes: entry.size });
  }
  return { manifest: entries };
}

function listOptions(list) {
  return {
    globDirectory: site,
    globPatterns: list.patterns,
    globIgnores: list.ignores,
    dontCacheBustURLsMatching: new RegExp(config.hashedNames),
    maximumFileSizeToCacheInBytes: config.maxFileBytes,
    manifestTransforms: [withIntegrity],
  };
}

// ------------------------------------------------------------------ bundles

// `input` with its npm imports into one classic script; `values`: replaced at bundle time.
async function bundle(input, target, values = {}) {
  const build = await rollup({
    input,
    plugins: [
      nodeResolve({ browser: true, modulePaths: [SITE_MODULES] }),
      replace({
        preventAssignment: true,
        values: { "process.env.NODE_ENV": JSON.stringify("production"), ...values },
      }),
      terser({ format: { comments: false } }),
    ],
  });
  await build.write({ file: target, format: "iife", sourcemap: false });
  await build.close();
}

async function main() {
  const started = performance.now();
  // the page script's minification runs in a worker thread (terser): beside the icons and
  // the list of pages; the core list takes the finished script in
  const [pages, runtime] = await Promise.all([
    getManifest(listOptions(config.pages)),
    getManifest(listOptions(config.runtime)),
    renderIcons(),
    bundle(config.pageScript.source, path.join(site, config.pageScript.file)),
  ]);
  const core = await getManifest(listOptions(config.core));
  for (const result of [pages, runtime, core]) {
    if (result.warnings.length) throw new Error(result.warnings.join("\n"));
  }
  if (runtime.count < config.runtime.minFiles) {
    throw new Error(`Laufzeit-Liste: nur ${runtime.count} Dateien (${config.runtime.patterns})`);
  }
  const version = createHash("sha256")
    .update(
      JSON.stringify([core.manifestEntries, runtime.manifestEntries, pages.manifestEntries]),
    )
    .digest("hex")
    .slice(0, 16);
  const tmp = await mkdtemp(path.join(tmpdir(), "regelwerk-sw-"));
  try {
    const source = path.join(tmp, "sw.js");
    await bundle(config.swSource, source, {
      __REGELWERK_PAGES__: JSON.stringify(pages.manifestEntries),
      __REGELWERK_RUNTIME__: JSON.stringify(runtime.manifestEntries),
      __REGELWERK_VERSION__: JSON.stringify(version),
    });
    const injected = await injectManifest({
      ...listOptions(config.core),
      swSrc: source,
      swDest: path.join(site, config.swFile),
    });
    if (injected.warnings.length) throw new Error(injected.warnings.join("\n"));
    if (injected.count !== core.count) throw new Error("Vorab-Liste: Anzahl weicht ab");
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  const figures = {
    version,
    core_files: core.count,
    core_bytes: core.size,
    runtime_files: runtime.count,
    runtime_bytes: runtime.size,
    page_files: pages.count,
    page_bytes: pages.size,
    build_ms: Math.round(performance.now() - started),
  };
  process.stdout.write(JSON.stringify(figures) + "\n");
}

main().catch((error) => {
  process.stderr.write(`${error && error.stack ? error.stack : error}\n`);
  process.exit(1);
});

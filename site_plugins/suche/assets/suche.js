// Regelwerk: the page's hook into Material's built-in search (every page; German stemming,
// compound words and ranking are suche-deutsch.js, loaded from here when the reader opens the
// search field or sends a query – issue #46: a page loads only the code it uses).
// Material's search worker (a real Worker online, the iframe-worker shim from file://) gets the
// query as suche-deutsch.js plans it (regelwerkSuche.plan), and Material reads its results
// ranked for the page the reader is on (regelwerkSuche.rank). A query sent before
// suche-deutsch.js is there waits for it (the newest one; Material shows the newest answer);
// if it cannot be loaded, the query goes out as typed – Material's own search, unranked.
// One classic script, no fetch, no module: it works unchanged from file://.
(function () {
  const SETUP = 0; // Material's SearchMessageType.SETUP
  const QUERY = 2; // Material's SearchMessageType.QUERY
  const RESULT = 3; // Material's SearchMessageType.RESULT
  const FIELD = "[data-md-component='search-query']";
  const LANGUAGE = "suche-deutsch.js";
  // taken now: the script's src is read against the page's address, which instant navigation
  // changes (a relative „../assets/…“ would point elsewhere on another page)
  const running = document.currentScript;
  const HERE = running && /\/suche\.js(\?.*)?$/.test(running.src) ? running.src : null;

  let language = null; // globalThis.regelwerkSuche, once suche-deutsch.js ran
  let loading = null;
  let held = null; // {worker, message, rest}: a query waiting for the language

  function load() {
    if (language || loading || !HERE) return;
    loading = new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = HERE.replace(/suche\.js(\?.*)?$/, LANGUAGE);
      script.addEventListener("load", resolve);
      script.addEventListener("error", () => {
        script.remove();
        reject(new Error(`${LANGUAGE} konnte nicht geladen werden`));
      });
      document.head.appendChild(script);
    }).then(
      () => {
        language = globalThis.regelwerkSuche || null;
        release();
      },
      (error) => {
        console.warn("[regelwerk]", `Suche: ${error.message} – Materials Suche ohne Stammformen`);
        loading = null; // the next search tries again
        release();
      },
    );
  }

  // Material's search worker: the one it posts queries to (its setup message may have gone out
  // before this script ran: the index is fetched while the page's scripts still load). It
  // answers queries in order: `pending` holds the words of each query sent, not yet answered.
  let searchWorker = null;
  const pending = [];
  let lastQuery = null;
  let lastSystem = null;

  const Target = globalThis.Worker;
  const post = Target && Target.prototype ? Target.prototype.postMessage : null;

  // A query → the worker: planned by suche-deutsch.js where it is there, else as typed.
  function send(worker, message, rest) {
    if (searchWorker !== worker) {
      searchWorker = worker;
      pending.length = 0;
    }
    lastQuery = message.data;
    const { text, words } = language ? language.plan(message.data) : { text: message.data, words: [] };
    pending.push(words);
    return post.call(worker, { ...message, data: text }, ...rest);
  }

  function release() {
    const waiting = held;
    held = null;
    if (waiting) send(waiting.worker, waiting.message, waiting.rest);
  }

  // A message of the search worker → the message Material gets: results ranked for the page
  // the reader is on, without suggestions (index stems like "fernkampfattack", not words; the
  // setup message that switches them off may have gone out before this script ran).
  function ranked(message) {
    if (!message || message.type !== RESULT) return message;
    const words = pending.shift() || [];
    if (!language || !message.data || !Array.isArray(message.data.items)) return message;
    const { suggest, ...result } = message.data;
    lastSystem = language.currentSystem();
    return { ...message, data: language.rank(result, lastSystem, words) };
  }

  // Hook into the messages Material's page script sends to its search worker. The query shown
  // in the search box is untouched.
  if (post && !Target.prototype.__regelwerkSuche) {
    Target.prototype.postMessage = function (message, ...rest) {
      if (message && message.type === QUERY && typeof message.data === "string") {
        if (language || !HERE) return send(this, message, rest);
        held = { worker: this, message, rest }; // the newest query waits for the language
        load();
        return undefined;
      }
      if (message && message.type === SETUP && message.data && message.data.options) {
        // Suggestions would be index stems ("kampfrund"), not words: switch them off.
        message = {
          ...message,
          data: { ...message.data, options: { ...message.data.options, suggest: false } },
        };
      }
      return post.call(this, message, ...rest);
    };
    Target.prototype.__regelwerkSuche = true;
  }

  // … and into the answers: Material's listener on its worker was added before this script ran
  // (by its bundle), so the message it reads is ranked where it reads it, in the `data` of the
  // worker's message event – once per event, for every reader; other events are untouched.
  const Message = globalThis.MessageEvent;
  const property = Message && Object.getOwnPropertyDescriptor(Message.prototype, "data");
  if (property && property.get && property.configurable && !Message.prototype.__regelwerkSuche) {
    const read = property.get;
    const answers = new WeakMap();
    Object.defineProperty(Message.prototype, "data", {
      ...property,
      get() {
        const message = read.call(this);
        if (!searchWorker || this.target !== searchWorker) return message;
        if (!answers.has(this)) answers.set(this, ranked(message));
        return answers.get(this);
      },
    });
    Message.prototype.__regelwerkSuche = true;
  }

  // The reader opens the search: the language comes while he types his first word.
  document.addEventListener("focusin", (event) => {
    if (event.target && event.target.matches && event.target.matches(FIELD)) load();
  });

  // Instant navigation keeps the search box and its results: on a page of another system, ask
  // the worker again, so the results shown are ranked for the page the reader is on now.
  if (globalThis.document$ && typeof globalThis.document$.subscribe === "function") {
    globalThis.document$.subscribe(() => {
      if (searchWorker && lastQuery && language && language.currentSystem() !== lastSystem) {
        searchWorker.postMessage({ type: QUERY, data: lastQuery });
      }
    });
  }
})();

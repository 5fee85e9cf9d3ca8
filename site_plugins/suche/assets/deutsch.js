// Regelwerk: German search on top of Material's built-in search (lunr) – the language and the
// ranking, loaded by suche.js (the page's hook into Material's search) when the reader opens
// the search or sends a query, not with every page (issue #46: a page loads only the code it
// uses; the words of the index and the stemmer are two thirds of it).
// The index is stemmed by Material's own worker (`search.pipeline: [stopWordFilter, stemmer]`
// with lunr-languages' German Snowball stemmer). Material appends a wildcard to every plain
// query term and lunr skips its pipeline for wildcard terms, so this classic script stems
// those terms with the very same stemmer before Material's worker sees the query, drops German
// stop words from queries of several words (the index has none), and splits compound words
// that the text never uses into parts that it does.
// The worker's results are ranked again before Material renders them (see `rank`): pages that
// hold more of the query's words first, then – on a page of a system – that system's pages,
// then Material's score; each page result gets its system as a label before its title.
// The build wraps this file (as assets/regelwerk-suche/suche-deutsch.js) together with
// Material's lunr.stemmer.support.min.js and lunr.de.min.js; it provides `stemmer`,
// `STOPWORDS` (lunr-languages' German list), `SEPARATOR` (Material's search separator),
// `WOERTER` (the words of the search index, lowercase), `SYSTEME` (system folder → label) and
// `ALLGEMEIN` (the label of other pages) to this scope. What it offers, suche.js takes from
// globalThis.regelwerkSuche.

const LETTERS = /^[a-zäöüß]+$/;
const FUGEN = ["", "s", "es", "n", "en", "e"];
const MIN_PART = 4;

const STOP = new Set(STOPWORDS);

const stemCache = new Map();
const prefixCache = new Map();
let known = null; // stems of the index words, computed at the first query

function stem(word) {
  let value = stemCache.get(word);
  if (value === undefined) {
    value = stemmer(word);
    stemCache.set(word, value);
  }
  return value;
}

function knownStems() {
  if (!known) known = new Set(WOERTER.map(stem));
  return known;
}

// Does an index term start with this stem? (Material's query matches by prefix.)
function hasPrefix(value) {
  if (prefixCache.has(value)) return prefixCache.get(value);
  let found = false;
  for (const term of knownStems()) {
    if (term.startsWith(value)) {
      found = true;
      break;
    }
  }
  prefixCache.set(value, found);
  return found;
}

// Split a lowercase compound into known words: the heads (surface forms, each a word of the
// index once the linking -s-/-n-/-e- is dropped) and the stem of the last part, or null.
function split(word) {
  if (word.length < 2 * MIN_PART) return null;
  for (let cut = word.length - MIN_PART; cut >= MIN_PART; cut--) {
    const head = word.slice(0, cut);
    const rest = word.slice(cut);
    for (const fuge of FUGEN) {
      if (fuge && !head.endsWith(fuge)) continue;
      const base = head.slice(0, head.length - fuge.length);
      if (base.length < MIN_PART || !knownStems().has(stem(base))) continue;
      const tail = stemSpelling(rest);
      if (tail) return { heads: [base, ...tail.heads], tail: tail.tail };
    }
  }
  return null;
}

// One query word → { heads, tail }: the tail stem is searched by prefix (Material appends its
// wildcard), heads of a split compound are required words (lunr stems them in the worker).
// Returns null if nothing in the index matches and `fallback` is false.
// A word the index does not know as typed is tried in its other German spellings (`spellings`):
// „Ruestung“ finds what „Rüstung“ finds. A word it knows stays as typed, so „Feuer“, „neue“,
// „Mauer“ (a real „ue“) are never turned into words that do not exist.
function stemWord(word, fallback = true) {
  const lower = word.toLowerCase();
  for (const spelling of spellings(lower)) {
    const found = stemSpelling(spelling);
    if (found) return found;
  }
  return fallback ? { heads: [], tail: stemOf(lower) } : null;
}

// The stem lunr's index would hold for this lowercase word.
function stemOf(lower) {
  // Snowball keeps the -n of "Würfeln", "Regeln": without it the stem is a prefix of both.
  return /eln$/.test(lower) ? stem(lower.slice(0, -1)) : stem(lower);
}

// One spelling of a word → { heads, tail } if the index knows it (or its compound parts).
function stemSpelling(lower) {
  const stemmed = stemOf(lower);
  if (!LETTERS.test(lower) || hasPrefix(stemmed)) return { heads: [], tail: stemmed };
  return split(lower);
}

// Without a German keyboard people type ae, oe, ue for ä, ö, ü (and a text may spell them out
// where a reader types the umlaut): a word, then its spellings with one or more of these pairs
// swapped – fewer swaps first. ß and ss need no swap: the stemmer turns ß into ss, in the index
// and in the query („Strasse“ and „Straße“ are both „strass“). The swaps are capped
// (`MAX_SWAPS` places: 2^n spellings) so a long word stays cheap.
const SWAPS = { ae: "ä", oe: "ö", ue: "ü", ä: "ae", ö: "oe", ü: "ue" };
const SWAPPABLE = /ae|oe|ue|[äöü]/g;
const MAX_SWAPS = 4;

function spellings(lower) {
  // "ue" after q is no ü („Quelle“)
  const places = [...lower.matchAll(SWAPPABLE)]
    .filter((m) => !(m[0] === "ue" && lower[m.index - 1] === "q"))
    .slice(0, MAX_SWAPS);
  const out = [];
  for (let mask = 0; mask < 1 << places.length; mask++) out.push(mask);
  const ones = (mask) => mask.toString(2).replace(/0/g, "").length;
  return out
    .sort((a, b) => ones(a) - ones(b) || a - b)
    .map((mask) => {
      let text = "";
      let at = 0;
      places.forEach((m, i) => {
        if (!(mask & (1 << i))) return;
        text += lower.slice(at, m.index) + SWAPS[m[0]];
        at = m.index + m[0].length;
      });
      return text + lower.slice(at);
    });
}

// Transform the query text the user typed into { text, words }: `text` is sent to Material's
// worker, `words` lists the plain words (one entry each: the clause term lunr gets for its
// tail, and its required compound heads) for `rank`. Terms with lunr syntax (+, -, ~, ^,
// field:, quotes) go through lunr's own pipeline in the worker and stay as they are. A stop
// word is dropped when the query has other words: the index has no stop words, so
// "Angriff von hinten" could never find all of its words on a page.
function plan(query) {
  let quoted = false;
  const words = [];
  const others = query.split(/\s+/).some((word) => word && !STOP.has(word.toLowerCase()));
  const text = query
    .split(/(\s+)/)
    .map((token) => {
      if (!token.trim()) return token;
      const plain = !quoted && !/^[+\-"]|[~^]\d*$|:|"/.test(token);
      if ((token.match(/"/g) || []).length % 2) quoted = !quoted;
      if (!plain) return token;
      const star = token.endsWith("*") ? "*" : "";
      const body = star ? token.slice(0, -1) : token;
      return body
        .split(SEPARATOR)
        .filter((word) => word && !(others && !star && STOP.has(word.toLowerCase())))
        .map((word) => {
          const { heads, tail } = stemWord(word);
          words.push({ term: tail, heads });
          return [...heads.map((head) => `+${head}`), tail + star].join(" ");
        })
        .join(" ");
    })
    .join("")
    .replace(/\s+/g, " ")
    .trim();
  return { text, words };
}

function transform(query) {
  return plan(query).text;
}

// The system of a site-relative path ("ryssea/fernkampf/#deckung", offline
// "ryssea/fernkampf.html"): its first folder, if that is a system; null for other pages.
function systemOf(path) {
  const clean = String(path).split(/[?#]/)[0];
  const slash = clean.indexOf("/");
  const folder = slash < 0 ? "" : clean.slice(0, slash);
  return Object.prototype.hasOwnProperty.call(SYSTEME, folder) ? folder : null;
}

function label(path) {
  const system = systemOf(path);
  return system ? SYSTEME[system] : ALLGEMEIN;
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// How many of the query's plain words an item holds. Material marks each clause term it
// finds by prefix in the item's matched index terms; the heads of a split compound are
// required (every result holds them) but unstemmed clause terms, so Material cannot see them:
// a word with heads counts as held, and its heads are marked as found (Material would list
// them as missing otherwise). The article Material adds to a page none of whose own words
// matched (score 0, no terms) holds none.
function held(item, words) {
  if (!item.terms || !Object.keys(item.terms).length) return 0;
  let count = 0;
  for (const { term, heads } of words) {
    if (heads.length || item.terms[term]) count++;
    for (const head of heads) if (head in item.terms) item.terms[head] = true;
  }
  return count;
}

// Rank Material's search result ({items: [[item, …] per page, best page first]}) again, for
// a search started on a page of `system` (a folder of SYSTEME, or null), with the `words` of
// the query (from `plan`):
// 1. pages that hold more of the query's words (in any of their sections) come first;
// 2. then, if the search started on a page of a system, that system's pages;
// 3. then Material's own order (its best score on the page).
// Within a page, sections that hold more of the words come first, then by Material's score.
// Material renders the first item of a page as the page's best hit and folds the others
// that score less behind "n weitere Suchergebnisse", and Enter opens the item of highest
// score: so the scores are rewritten to follow this order (ties stay ties). The article of
// each page gets its system's label before its title.
function rank(result, system, words = []) {
  if (!result || !Array.isArray(result.items)) return result;
  let top = 0;
  const pages = result.items.map((group, order) => {
    const items = group.map((item, index) => ({ item, index, hits: held(item, words) }));
    const found = words.filter(
      ({ term, heads }) => heads.length || items.some(({ item }) => item.terms && item.terms[term])
    ).length;
    const best = Math.max(...items.map(({ item }) => item.score));
    top = Math.max(top, best);
    const own = system !== null && systemOf(group[0].location) === system ? 1 : 0;
    return { items, order, found, own, best };
  });
  pages.sort((a, b) => b.found - a.found || b.own - a.own || b.best - a.best || a.order - b.order);
  const step = top + 1;
  const span = (words.length + 1) * step;
  const items = pages.map((page, rankIndex) =>
    page.items
      .sort((a, b) => b.hits - a.hits || b.item.score - a.item.score || a.index - b.index)
      .map(({ item, hits }) => {
        const score = (pages.length - rankIndex) * span + hits * step + item.score;
        const location = String(item.location);
        if (location.includes("#")) return { ...item, score };
        const tag = `<span class="rw-suche-system">${escapeHtml(label(location))}</span>`;
        return { ...item, score, title: tag + item.title };
      })
  );
  return { ...result, items };
}

// Material's base URL, resolved once at load like Material does (its result links are
// relative to it); with instant navigation the location changes, this root does not.
function siteRoot() {
  const config = typeof document !== "undefined" && document.getElementById("__config");
  if (!config) return null;
  try {
    return new URL(JSON.parse(config.textContent).base, location.href).href;
  } catch (error) {
    return null;
  }
}

const ROOT = siteRoot();

// The system of the page the reader is on (null on general pages).
function currentSystem() {
  if (!ROOT || !location.href.startsWith(ROOT)) return null;
  return systemOf(location.href.slice(ROOT.length));
}

globalThis.regelwerkSuche = {
  transform,
  plan,
  stem,
  split,
  spellings,
  rank,
  systemOf,
  currentSystem,
};

// Regelwerk: German search on top of Material's built-in search (lunr).
// The index is stemmed by Material's own worker (`search.pipeline: [stopWordFilter, stemmer]`
// with lunr-languages' German Snowball stemmer). Material appends a wildcard to every plain
// query term and lunr skips its pipeline for wildcard terms, so this classic script stems
// those terms with the very same stemmer before Material's worker sees the query, and splits
// compound words that the text never uses into parts that it does.
// The build wraps this file together with Material's lunr.stemmer.support.min.js and
// lunr.de.min.js; it provides `stemmer`, `SEPARATOR` (Material's search separator) and
// `WOERTER` (the words of the search index, lowercase) to this scope.

const QUERY = 2; // Material's SearchMessageType.QUERY
const SETUP = 0; // Material's SearchMessageType.SETUP
const LETTERS = /^[a-zäöüß]+$/;
const FUGEN = ["", "s", "es", "n", "en", "e"];
const MIN_PART = 4;

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
      const tail = stemWord(rest, false);
      if (tail) return { heads: [base, ...tail.heads], tail: tail.tail };
    }
  }
  return null;
}

// One query word → { heads, tail }: the tail stem is searched by prefix (Material appends its
// wildcard), heads of a split compound are required words (lunr stems them in the worker).
// Returns null if nothing in the index matches and `fallback` is false.
function stemWord(word, fallback = true) {
  const lower = word.toLowerCase();
  let stemmed = stem(lower);
  // Snowball keeps the -n of "Würfeln", "Regeln": without it the stem is a prefix of both.
  if (/eln$/.test(lower)) stemmed = stem(lower.slice(0, -1));
  if (!LETTERS.test(lower) || hasPrefix(stemmed)) return { heads: [], tail: stemmed };
  return split(lower) || (fallback ? { heads: [], tail: stemmed } : null);
}

// Transform the query text the user typed; terms with lunr syntax (+, -, ~, ^, field:,
// quotes) go through lunr's own pipeline in the worker and stay as they are.
function transform(query) {
  let quoted = false;
  return query
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
        .filter(Boolean)
        .map((word) => {
          const { heads, tail } = stemWord(word);
          return [...heads.map((head) => `+${head}`), tail + star].join(" ");
        })
        .join(" ");
    })
    .join("");
}

globalThis.regelwerkSuche = { transform, stem, split };

// Hook into the messages Material's page script sends to its search worker (a real Worker
// online, the iframe-worker shim from file://). The query shown in the search box is untouched.
const Target = globalThis.Worker;
if (Target && Target.prototype && !Target.prototype.__regelwerkSuche) {
  const post = Target.prototype.postMessage;
  Target.prototype.postMessage = function (message, ...rest) {
    if (message && message.type === QUERY && typeof message.data === "string") {
      message = { ...message, data: transform(message.data) };
    } else if (message && message.type === SETUP && message.data && message.data.options) {
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

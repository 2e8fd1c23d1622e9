// A model's (or person's) search text → a safe FTS4 MATCH expression. The text is never passed to
// FTS as syntax: it is cut into words the way the index's tokenizer (unicode61, diacritics removed)
// cuts them, and each word becomes a quoted term, so quotes, '*', '-', '^', parentheses, column
// filters ('heading:x') and NEAR can neither break the query nor change its meaning. Uppercase
// AND / OR / NOT / NEAR are read as operators the writer may have tried, and dropped: the store runs
// an all-terms (AND) query first and an any-term (OR) fallback itself.
//
// Stopwords are dropped when anything else remains: an OR over 'the' and 'of' would rank half the
// index (and cost 100+ ms on 50k chunks) for nothing. Terms are capped, so a 10k-character query
// costs what a short one does.

export const MAX_QUERY_TERMS = 12;
/** Longer "words" are not words (base64, minified code): searching for them only costs time. */
const MAX_TERM_CHARS = 128;
/** Only the start of an absurdly long query is read. */
const MAX_QUERY_CHARS = 4000;

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const MARKS = /\p{M}+/gu;
const OPERATORS = new Set(['AND', 'OR', 'NOT', 'NEAR']);
/** Column filters of the memory index; other 'x:y' pairs are kept as two words. */
const COLUMN_FILTER = /\b(?:heading|text|memory_fts)\s*:/gi;

const STOPWORDS = new Set((
  'a an and are as at be been but by can could did do does for from had has have how i if in into is it its ' +
  'me my no not of on or our so than that the their them then there these they this to too was we were what ' +
  'when where which who whom why will with would you your about all any also am just more most other some such ' +
  'only own same should very s t de la le les der die das und el en et'
).split(' '));

export interface FtsQuery {
  /** The words searched for, folded (lower case, no diacritics), in the order given. */
  terms: string[];
  /** All terms must occur; '' when there is nothing to search for. */
  and: string;
  /** Any term may occur; '' when there is nothing to search for. */
  or: string;
  /** Words left out because of the cap (the caller may say so). */
  dropped: number;
}

const ASCII = /^[\x00-\x7f]*$/;

/** Lower case without diacritics: what unicode61 with remove_diacritics does to a token. */
export function foldWord(word: string): string {
  // An ASCII word has no diacritics and normalizes to itself: the two normalizations, which cost
  // most of a search's excerpts and matched terms, are for the others only.
  if (ASCII.test(word)) return word.toLowerCase();
  return word.normalize('NFD').replace(MARKS, '').toLowerCase().normalize('NFC');
}

/** The words of a text as the index sees them (folded), with their positions in the text. */
export function* wordsOf(text: string): Generator<{ word: string; index: number; length: number }> {
  for (const m of text.matchAll(WORD)) {
    const word = foldWord(m[0]);
    if (word) yield { word, index: m.index, length: m[0].length };
  }
}

/** A word, quoted: it holds only letters, digits and marks, so it cannot close the quote. */
const quote = (w: string): string => `"${w}"`;

export function buildFtsQuery(text: string): FtsQuery {
  const input = text.slice(0, MAX_QUERY_CHARS).replace(/\bNEAR\/\d+/g, ' ').replace(COLUMN_FILTER, ' ');
  const seen = new Set<string>();
  const all: { raw: string; word: string }[] = [];
  for (const m of input.matchAll(WORD)) {
    if (OPERATORS.has(m[0])) continue;
    const word = foldWord(m[0]);
    if (!word || m[0].length > MAX_TERM_CHARS || seen.has(word)) continue;
    seen.add(word);
    all.push({ raw: m[0], word });
  }
  const content = all.filter((w) => !STOPWORDS.has(w.word));
  const chosen = content.length ? content : all;
  const picked = chosen.slice(0, MAX_QUERY_TERMS);
  // The raw word goes to FTS, which folds it exactly as it folded the documents (for scripts whose
  // vowel signs it treats as separators too); the folded form is what `why` and the excerpts use.
  return {
    terms: picked.map((w) => w.word),
    and: picked.map((w) => quote(w.raw)).join(' '),
    or: picked.map((w) => quote(w.raw)).join(' OR '),
    dropped: chosen.length - picked.length,
  };
}

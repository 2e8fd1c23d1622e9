// When old text is not found, the model needs to see what the file holds instead, or it guesses
// again. This finds the region of the file most like the text it sent: windows of lines voted for
// by lines that match after folding, else the single most similar line by character bigrams.
import { foldLine } from './edit-normalize';

export interface NearestRegion {
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  /** The region with line numbers, long lines shortened. */
  excerpt: string;
  /** The first line where the region differs from what was sent, when the region matched in part. */
  firstDifference?: { line: number; sent: string; file: string };
}

const MAX_EXCERPT_LINES = 30;
const MAX_LINE_CHARS = 200;
/** A line occurring more often than this (`}`, blank) is too common to vote for a region. */
const MAX_VOTES_PER_LINE = 50;
/** Lines scanned for bigram similarity when no line matches outright. */
const MAX_SIMILARITY_LINES = 50_000;

function key(line: string): string {
  return foldLine(line).trim();
}

function shorten(line: string): string {
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
}

/** Bigram counts of `s`, keyed by the two UTF-16 units as one number. */
function bigrams(s: string): Map<number, number> {
  const m = new Map<number, number>();
  for (let i = 0; i + 1 < s.length; i++) {
    const g = s.charCodeAt(i) * 65536 + s.charCodeAt(i + 1);
    m.set(g, (m.get(g) ?? 0) + 1);
  }
  return m;
}

/**
 * Sørensen–Dice similarity of the bigram multisets of a probe (its counts precomputed, `probeLength`
 * characters) and `b`, 0..1. The counts are borrowed and restored, so scanning many lines allocates
 * almost nothing.
 */
function similarityTo(counts: Map<number, number>, probeLength: number, b: string): number {
  if (probeLength < 2 || b.length < 2) return 0;
  const taken: number[] = [];
  for (let i = 0; i + 1 < b.length; i++) {
    const g = b.charCodeAt(i) * 65536 + b.charCodeAt(i + 1);
    const n = counts.get(g);
    if (n) {
      counts.set(g, n - 1);
      taken.push(g);
    }
  }
  for (const g of taken) counts.set(g, counts.get(g)! + 1);
  return (2 * taken.length) / (probeLength - 1 + (b.length - 1));
}

/** Sørensen–Dice similarity of two strings' bigram multisets, 0..1. */
export function similarity(a: string, b: string): number {
  return a === b ? 1 : similarityTo(bigrams(a), a.length, b);
}

/** Numbered lines `from`..`to` (1-based, inclusive) of `lines`. */
export function numbered(lines: readonly string[], from: number, to: number): string {
  const width = String(to).length;
  const out: string[] = [];
  for (let n = from; n <= to; n++) out.push(`${String(n).padStart(width)}| ${shorten(lines[n - 1] ?? '')}`);
  return out.join('\n');
}

function bestByVotes(fileKeys: string[], sentKeys: string[]): number | undefined {
  const where = new Map<string, number[]>();
  fileKeys.forEach((k, i) => {
    if (!k) return;
    const list = where.get(k);
    if (!list) where.set(k, [i]);
    else if (list.length <= MAX_VOTES_PER_LINE) list.push(i);
  });
  const votes = new Map<number, number>();
  sentKeys.forEach((k, j) => {
    const hits = k ? where.get(k) : undefined;
    if (!hits || hits.length > MAX_VOTES_PER_LINE) return;
    // Longer lines say more about where the text belongs than short ones.
    for (const i of hits) votes.set(i - j, (votes.get(i - j) ?? 0) + Math.min(k.length, 80));
  });
  let best: number | undefined;
  let bestVotes = 0;
  for (const [start, v] of votes) {
    if (v > bestVotes || (v === bestVotes && best !== undefined && start < best)) {
      best = start;
      bestVotes = v;
    }
  }
  return best;
}

function bestBySimilarity(fileKeys: string[], sentKeys: string[]): number | undefined {
  let j = 0;
  sentKeys.forEach((k, i) => {
    if (k.length > sentKeys[j]!.length) j = i;
  });
  const probe = sentKeys[j]!.slice(0, 300);
  if (probe.length < 3) return undefined;
  const counts = bigrams(probe);
  let best = -1;
  let score = 0.4;
  const limit = Math.min(fileKeys.length, MAX_SIMILARITY_LINES);
  for (let i = 0; i < limit; i++) {
    const k = fileKeys[i]!.slice(0, 300);
    if (Math.abs(k.length - probe.length) > Math.max(k.length, probe.length) * 0.6) continue;
    const s = k === probe ? 1 : similarityTo(counts, probe.length, k);
    if (s > score) {
      score = s;
      best = i;
    }
  }
  return best === -1 ? undefined : best - j;
}

/** The region of `text` most like `sent`, or undefined when nothing in the file resembles it. */
export function nearestRegion(text: string, sent: string): NearestRegion | undefined {
  const fileLines = text.split(/\r?\n/);
  // A final line break ends the last line; it does not start another one.
  if (fileLines.length > 1 && fileLines[fileLines.length - 1] === '') fileLines.pop();
  const sentLines = sent.split(/\r?\n/);
  while (sentLines.length && sentLines[0]!.trim() === '') sentLines.shift();
  while (sentLines.length && sentLines[sentLines.length - 1]!.trim() === '') sentLines.pop();
  if (!sentLines.length || !text) return undefined;
  const fileKeys = fileLines.map(key);
  const sentKeys = sentLines.map(key);
  const voted = bestByVotes(fileKeys, sentKeys);
  const start = voted ?? bestBySimilarity(fileKeys, sentKeys);
  if (start === undefined) return undefined;
  const first = Math.max(0, start);
  const last = Math.min(fileLines.length, start + sentLines.length, first + MAX_EXCERPT_LINES) - 1;
  const region: NearestRegion = {
    startLine: first + 1,
    endLine: last + 1,
    excerpt: numbered(fileLines, first + 1, last + 1),
  };
  for (let j = 0; j < sentLines.length; j++) {
    const i = start + j;
    if (i < 0 || i >= fileLines.length) continue;
    if (fileKeys[i] !== sentKeys[j]) {
      region.firstDifference = { line: i + 1, sent: shorten(sentLines[j]!), file: shorten(fileLines[i]!) };
      break;
    }
  }
  return region;
}

/** The not-found paragraph shared by edit and apply_patch. */
export function describeNearest(region: NearestRegion | undefined, rel: string): string {
  if (!region) return `Nothing in ${rel} resembles it. Read the file (read_file) and copy the text exactly.`;
  const lines = [`The most similar region of ${rel} is lines ${region.startLine}-${region.endLine}:`, region.excerpt];
  if (region.firstDifference) {
    const d = region.firstDifference;
    lines.push(`First difference, line ${d.line}: you sent ${JSON.stringify(d.sent)}, the file has ${JSON.stringify(d.file)}.`);
  }
  lines.push(`Copy the text exactly from these lines (without the line-number prefix) and try again, or read_file with offset=${Math.max(1, region.startLine - 5)} to see more.`);
  return lines.join('\n');
}

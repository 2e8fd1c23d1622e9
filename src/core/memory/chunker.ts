// Markdown → chunks for the memory index. A chunk is a run of whole lines of one section, with the
// section's heading path ('Title > Section > Subsection') kept beside it, so a hit deep in a long
// document still says what it is about. Deterministic: the same text always gives the same chunks,
// which is what lets a rewrite keep the ids (and embeddings) of the chunks it did not change.
//
// Decisions:
// - Lines are split on CRLF, LF and a lone CR (as an editor shows them); chunk text joins its lines
//   with LF. startLine/endLine are 1-based and inclusive, and count lines exactly as splitLines does,
//   so memory_get's line numbers and a hit's range always agree.
// - Sections are cut at ATX headings ('## x') and at setext headings ('x' over '===' / '---') when
//   the text above is a single line (cheap, and the multi-line form is rare); never inside a fenced
//   code block or YAML front matter, where a '#' line is a comment, not a heading.
// - A heading with nothing under it (a title right before its first subsection) joins the next
//   section instead of becoming a chunk that says nothing.
// - A long section is split between blocks (paragraphs, fenced code) into chunks of up to
//   TARGET_CHARS; a block over MAX_CHARS alone (a huge list, a huge code block) is split between its
//   lines; a single line over MAX_CHARS is cut at spaces, every piece keeping that line's number.
// - A small last piece of a split section is folded into the piece before it when the two fit.

import type { Chunk } from './types';

export interface ChunkOptions {
  /** Chunks are filled up to about this many characters (default 800). */
  targetChars?: number;
  /** No chunk is longer than this (default 1,500). */
  maxChars?: number;
}

export const TARGET_CHARS = 800;
export const MAX_CHARS = 1500;
/** A last piece shorter than this is folded into the previous one when they fit together. */
const CRUMB_CHARS = 200;

/** The lines of a document as an editor numbers them ('' has none; a final line break adds none). */
export function splitLines(content: string): string[] {
  if (content === '') return [];
  const lines = content.split(/\r\n|\r|\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+|$)(.*)$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const BLANK = /^[ \t]*$/;
/** Lines that cannot be the text of a setext heading: list items, quotes, tables, indented code. */
const NOT_SETEXT_TEXT = /^(?: {4}|\t| {0,3}(?:[-*+>|]|\d+[.)])(?:\s|$)| {0,3}#)/;

interface Heading {
  level: number;
  text: string;
}

/** A run of lines [start, end) (0-based) under one heading path. */
interface Section {
  heading: string;
  start: number;
  end: number;
  /** The section's first line is its heading line and nothing else follows it. */
  headingOnly: boolean;
}

/** 0-based index of the line after the front matter, or 0 when there is none. */
function frontMatterEnd(lines: string[]): number {
  if (lines.length < 2 || !/^---[ \t]*$/.test(lines[0])) return 0;
  for (let i = 1; i < Math.min(lines.length, 500); i++) {
    if (/^(?:---|\.\.\.)[ \t]*$/.test(lines[i])) return i + 1;
  }
  return 0;
}

function atxText(raw: string): string {
  // A closing run of '#' (preceded by a space) is decoration, not part of the title.
  return raw.replace(/(?:^|[ \t]+)#+[ \t]*$/, '').trim().replace(/\s+/g, ' ');
}

/** Code fences, as [open, close] line pairs (0-based, inclusive); an unclosed fence runs to the end. */
function fenceOf(lines: string[], from: number): number {
  const m = FENCE.exec(lines[from]);
  if (!m) return -1;
  const mark = m[1];
  // A backtick fence's info string may not contain backticks (CommonMark); otherwise it is inline code.
  if (mark[0] === '`' && m[2].includes('`')) return -1;
  const close = new RegExp(`^ {0,3}${mark[0] === '`' ? '`' : '~'}{${mark.length},}[ \\t]*$`);
  for (let i = from + 1; i < lines.length; i++) if (close.test(lines[i])) return i;
  return lines.length - 1;
}

function splitSections(lines: string[], bodyStart: number): Section[] {
  const sections: Section[] = [];
  const stack: Heading[] = [];
  let current: Section = { heading: '', start: 0, end: 0, headingOnly: false };
  /** The line after the last heading (a setext heading may follow a heading directly). */
  let afterHeading = bodyStart;
  const open = (at: number, level: number, text: string): void => {
    current.end = at;
    sections.push(current);
    while (stack.length && stack[stack.length - 1].level >= level) stack.pop();
    stack.push({ level, text });
    current = { heading: stack.map((h) => h.text).join(' > '), start: at, end: at, headingOnly: false };
  };
  if (bodyStart > 0) {
    // Front matter is a section of its own: searchable (titles, tags), never a heading source.
    sections.push({ heading: '', start: 0, end: bodyStart, headingOnly: false });
    current = { heading: '', start: bodyStart, end: bodyStart, headingOnly: false };
  }
  for (let i = bodyStart; i < lines.length; i++) {
    const line = lines[i];
    const fenceEnd = fenceOf(lines, i);
    if (fenceEnd >= 0) {
      i = fenceEnd;
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      open(i, atx[1].length, atxText(atx[2]));
      afterHeading = i + 1;
      continue;
    }
    const next = lines[i + 1];
    if (next !== undefined && !BLANK.test(line) && SETEXT.test(next) && !NOT_SETEXT_TEXT.test(line)
      && (i === afterHeading || BLANK.test(lines[i - 1]))) {
      // A one-line paragraph underlined with '=' or '-' is a heading (the underline belongs to it).
      open(i, next.trim()[0] === '=' ? 1 : 2, line.trim().replace(/\s+/g, ' '));
      i++;
      afterHeading = i + 1;
    }
  }
  current.end = lines.length;
  sections.push(current);
  return markHeadingOnly(sections.filter((s) => s.end > s.start), lines);
}

function markHeadingOnly(sections: Section[], lines: string[]): Section[] {
  for (const s of sections) {
    if (!s.heading) continue;
    const first = ATX.test(lines[s.start]) ? s.start + 1 : s.start + 2;
    let empty = true;
    for (let i = first; i < s.end && empty; i++) if (!BLANK.test(lines[i])) empty = false;
    s.headingOnly = empty;
  }
  return sections;
}

/** Blocks of a section as [start, end) line ranges: paragraphs and fenced code, blank lines dropped. */
function blocksOf(lines: string[], start: number, end: number): [number, number][] {
  const blocks: [number, number][] = [];
  let i = start;
  while (i < end) {
    if (BLANK.test(lines[i])) {
      i++;
      continue;
    }
    const b = i;
    while (i < end && !BLANK.test(lines[i])) {
      const f = fenceOf(lines, i);
      // A fence (with any blank lines inside it) stays whole; it may end the section's last line.
      i = f >= 0 ? Math.min(f, end - 1) + 1 : i + 1;
    }
    blocks.push([b, i]);
  }
  return blocks;
}

function length(lines: string[], start: number, end: number): number {
  let n = end - start - 1;
  for (let i = start; i < end; i++) n += lines[i].length;
  return n;
}

interface Piece {
  start: number;
  end: number;
  /** Set when a single over-long line was cut: the text of this piece of it. */
  text?: string;
}

/** Cuts one over-long line at spaces (or anywhere, for a line without them) into pieces ≤ max. */
function cutLine(line: string, at: number, target: number, max: number): Piece[] {
  const pieces: Piece[] = [];
  let rest = line;
  while (rest.length > max) {
    let cut = rest.lastIndexOf(' ', target);
    if (cut < target / 2) cut = rest.indexOf(' ', target);
    if (cut <= 0 || cut > max) cut = target;
    pieces.push({ start: at, end: at + 1, text: rest.slice(0, cut).trimEnd() });
    rest = rest.slice(cut).trimStart();
  }
  if (rest) pieces.push({ start: at, end: at + 1, text: rest });
  return pieces;
}

/** Greedy packing of [start, end) units (blocks, or lines of one big block) into pieces ≤ target. */
function pack(lines: string[], units: [number, number][], target: number, max: number): Piece[] {
  const pieces: Piece[] = [];
  let cur: Piece | undefined;
  for (const [s, e] of units) {
    const len = length(lines, s, e);
    if (len > max) {
      if (cur) pieces.push(cur);
      cur = undefined;
      if (e - s === 1) pieces.push(...cutLine(lines[s], s, target, max));
      else {
        const lineUnits: [number, number][] = [];
        for (let i = s; i < e; i++) if (!BLANK.test(lines[i]) || lineUnits.length) lineUnits.push([i, i + 1]);
        pieces.push(...pack(lines, lineUnits, target, max));
      }
      continue;
    }
    if (cur && length(lines, cur.start, e) <= target) cur.end = e;
    else {
      if (cur) pieces.push(cur);
      cur = { start: s, end: e };
    }
  }
  if (cur) pieces.push(cur);
  return pieces;
}

function trimBlankEdges(lines: string[], p: Piece): Piece {
  if (p.text !== undefined) return p;
  let { start, end } = p;
  while (start < end && BLANK.test(lines[start])) start++;
  while (end > start && BLANK.test(lines[end - 1])) end--;
  return { start, end };
}

/** Folds a small last piece into the one before it when the two still fit in max. */
function foldCrumb(lines: string[], pieces: Piece[], max: number): Piece[] {
  if (pieces.length < 2) return pieces;
  const last = pieces[pieces.length - 1];
  const prev = pieces[pieces.length - 2];
  if (last.text !== undefined || prev.text !== undefined) return pieces;
  if (length(lines, last.start, last.end) >= CRUMB_CHARS || length(lines, prev.start, last.end) > max) return pieces;
  return [...pieces.slice(0, -2), { start: prev.start, end: last.end }];
}

/**
 * The text of pieces: their lines joined with LF. When the document's lines end in LF alone, that is
 * exactly a stretch of the document, and slicing it shares the document's characters instead of
 * copying them (an import would otherwise make a second copy of all its text, which the garbage
 * collector then moves on the host's thread while the import runs).
 */
function pieceText(content: string, lines: string[]): (p: Piece) => string {
  if (content.includes('\r')) return (p) => p.text ?? lines.slice(p.start, p.end).join('\n');
  const starts = new Array<number>(lines.length);
  for (let i = 0, at = 0; i < lines.length; at += lines[i].length + 1, i++) starts[i] = at;
  return (p) => p.text ?? content.slice(starts[p.start], starts[p.end - 1] + lines[p.end - 1].length);
}

/** Splits a markdown document into chunks (see the file comment for the rules). */
export function chunkMarkdown(content: string, opts: ChunkOptions = {}): Chunk[] {
  const max = Math.max(1, opts.maxChars ?? MAX_CHARS);
  const target = Math.min(max, Math.max(1, opts.targetChars ?? TARGET_CHARS));
  const lines = splitLines(content);
  const textOf = pieceText(content, lines);
  const sections = splitSections(lines, frontMatterEnd(lines));
  const chunks: Chunk[] = [];
  let carry: number | undefined;
  for (const s of sections) {
    if (s.headingOnly) {
      // The title line travels with the next section (which carries the deeper heading path).
      carry ??= s.start;
      continue;
    }
    const start = carry ?? s.start;
    carry = undefined;
    const units = blocksOf(lines, start, s.end);
    for (const raw of foldCrumb(lines, pack(lines, units, target, max), max)) {
      const p = trimBlankEdges(lines, raw);
      if (p.end <= p.start) continue;
      chunks.push({ seq: chunks.length, heading: s.heading, text: textOf(p), startLine: p.start + 1, endLine: p.end });
    }
  }
  if (carry !== undefined) {
    // Headings with nothing under them at the end of the document: still findable by their titles.
    const last = sections[sections.length - 1];
    const units = blocksOf(lines, carry, last.end);
    for (const p of pack(lines, units, target, max)) {
      chunks.push({ seq: chunks.length, heading: last.heading, text: textOf(p), startLine: p.start + 1, endLine: p.end });
    }
  }
  return chunks;
}

// A web page read once with htmlparser2, and which part of it is the main content. No DOM is built (a
// DOM and Readability took over a second on a 1 MB page): the page's events are kept in flat arrays,
// without what is never text (page-rules.ts), for the markdown writer to replay the chosen part. The
// rule is the one Readability (Firefox's Reader View) describes: every paragraph-like element with 25
// or more characters scores 1 + its commas + one per 100 characters (at most 3); its parent gets the
// score, its grandparent half, and each level above the score over three times its distance, up to five. An element's own worth starts from
// its kind (a div is likely a container, a list item or heading is not) and its class and id
// (page-rules.ts), and its final score is cut by the share of its text that is link text. The best
// element wins, joined by its siblings that score at least a fifth of it; menus, sidebars, footers
// and blocks that are mostly links are left out. Under 200 characters of text chosen: the whole body
// is converted instead.
import { DepthCappedParser } from './depth-capped-parser';
import { BLOCK_TAGS, isFurniture, nameWeight, namesOf, neverText, tagName, type Attributes } from './page-rules';

export const OPEN = 0;
export const CLOSE = 1;
export const TEXT = 2;

/** The page as htmlparser2 told it: event i is kinds[i] with values[i] (a tag name or text) and, when it opens an element, attribs[i]. */
export interface PageEvents {
  kinds: number[];
  values: string[];
  attribs: Array<Attributes | undefined>;
}

export interface ContentChoice {
  events: PageEvents;
  title: string;
  /** The page's <base href>, if it names one. */
  base: string | undefined;
  /** Event ranges [from, to) to write, in document order. */
  ranges: Array<[number, number]>;
  /** Elements inside the ranges to leave out. */
  leaveOut: LeaveOut;
  /** False: no main content stood out, and `ranges` is the whole body. */
  readable: boolean;
}

/** Elements to leave out: `ends` maps the event that opens each to the one that closes it. */
export class LeaveOut {
  private readonly starts: number[];

  constructor(readonly ends: Map<number, number>) {
    this.starts = [...ends.keys()].sort((a, b) => a - b);
  }

  /** Where the first left-out element at or after event `i` opens (Infinity: none). */
  next(i: number): number {
    let lo = 0;
    let hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.starts[mid] < i) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.starts.length ? this.starts[lo] : Infinity;
  }
}

interface Box {
  parent: Box | undefined;
  /** Its events: [start, end) (end: past its closing event; start until it is closed). */
  start: number;
  end: number;
  /** What its kind and names say, before any paragraph scores it. */
  weight: number;
  score: number;
  candidate: boolean;
  /** Characters of text inside (furniture not counted), of that in links, and commas. */
  text: number;
  link: number;
  commas: number;
  blockChild: boolean;
  furniture: boolean;
  paragraph: boolean;
  div: boolean;
}

const PARAGRAPHS = new Set(['p', 'pre', 'td', 'section', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** A Map, not an object: see HEADINGS in markdown-writer.ts. */
const KIND_WEIGHT = new Map(Object.entries({
  div: 5, article: 10, main: 10, pre: 3, td: 3, blockquote: 3,
  address: -3, ol: -3, ul: -3, dl: -3, dd: -3, dt: -3, li: -3, form: -3,
  h1: -5, h2: -5, h3: -5, h4: -5, h5: -5, h6: -5, th: -5,
}));
const MIN_PARAGRAPH = 25;
const LINK_BLOCKS = new Set(['ul', 'ol', 'dl', 'div', 'section', 'header']);
const MAX_LINK_SHARE = 0.5;
const MIN_CONTENT = 200;
const SCORED_LEVELS = 5;

function countCommas(text: string): number {
  let n = 0;
  for (let i = text.indexOf(','); i !== -1; i = text.indexOf(',', i + 1)) n++;
  return n;
}

function newBox(parent: Box | undefined, start: number, name: string, names: string, furniture: boolean): Box {
  return {
    parent, start, end: start, weight: (KIND_WEIGHT.get(name) ?? 0) + nameWeight(names), score: 0, candidate: false,
    text: 0, link: 0, commas: 0, blockChild: false, furniture, paragraph: PARAGRAPHS.has(name), div: name === 'div',
  };
}

const NO_ATTRIBUTES: Attributes = Object.freeze({});

/** Most elements have no attributes: they share one empty record instead of keeping htmlparser2's. */
function hasAny(attribs: Attributes): boolean {
  for (const _ in attribs) return true;
  return false;
}

function finalScore(b: Box): number {
  return b.score * (b.text > 0 ? 1 - b.link / b.text : 1);
}

/**
 * Room reserved for a page's events, from its length (the bench's 1 MB article has one event per 22
 * characters). Arrays grown push by push are copied into a larger store again and again, and past a
 * few thousand entries each store is a large object of its own: that was an eighth of the reading. A
 * guess too small still grows as before; one too large only reserves.
 */
const CHARS_PER_EVENT = 16;

export function chooseMainContent(html: string): ContentChoice {
  const room = Math.ceil(html.length / CHARS_PER_EVENT);
  const kinds = new Array<number>(room);
  const values = new Array<string>(room);
  const attributes = new Array<Attributes | undefined>(room);
  let n = 0; // events so far
  const root = newBox(undefined, 0, '#root', '', false);
  const stack: Box[] = [root];
  const candidates: Box[] = [];
  const furniture: Box[] = [];
  let hidden = 0; // depth inside an element that is never text (page-rules.ts)
  let hiddenRoot = '';
  let furnitureDepth = 0;
  let linkDepth = 0;
  let title: string | undefined;
  let inTitle = false;
  let titleText = '';
  let base: string | undefined;
  let bodyBox: Box | undefined;

  const give = (b: Box, s: number) => {
    if (!b.candidate) {
      b.candidate = true;
      b.score += b.weight;
      candidates.push(b);
    }
    b.score += s;
  };

  const parser = new DepthCappedParser({
    onopentag(read, readAttribs) {
      const name = tagName(read);
      const attribs = hasAny(readAttribs) ? readAttribs : NO_ATTRIBUTES;
      if (name === 'base' && base === undefined && attribs.href) base = attribs.href;
      if (hidden > 0) {
        hidden++;
        if (name === 'title' && hiddenRoot === 'head' && hidden === 2 && title === undefined) inTitle = true;
        return;
      }
      if (neverText(name, attribs)) {
        hidden = 1;
        hiddenRoot = name;
        if (name === 'title' && title === undefined) inTitle = true;
        return;
      }
      const parent = stack[stack.length - 1];
      if (BLOCK_TAGS.has(name)) parent.blockChild = true;
      const names = namesOf(attribs);
      const isFurn = isFurniture(name, attribs, names);
      if (name === 'a') linkDepth++;
      const box = newBox(parent, n, name, names, isFurn);
      if (isFurn) {
        furnitureDepth++;
        furniture.push(box);
      }
      kinds[n] = OPEN;
      values[n] = name;
      attributes[n++] = attribs;
      if (name === 'body' && !bodyBox) bodyBox = box;
      stack.push(box);
    },
    ontext(text) {
      if (hidden > 0) {
        if (inTitle) titleText += text;
        return;
      }
      kinds[n] = TEXT;
      values[n] = text;
      attributes[n++] = undefined;
      const box = stack[stack.length - 1];
      const len = text.trim().length;
      if (len === 0) return;
      box.text += len;
      box.commas += countCommas(text);
      if (linkDepth > 0) box.link += len;
    },
    onclosetag(read) {
      const name = tagName(read);
      if (hidden > 0) {
        hidden--;
        if (name === 'title' && inTitle) {
          inTitle = false;
          title = titleText;
        }
        return;
      }
      if (stack.length === 1) return;
      const box = stack.pop()!;
      box.end = n + 1;
      kinds[n] = CLOSE;
      values[n] = name;
      attributes[n++] = undefined;
      if (name === 'a') linkDepth--;
      if (box.furniture) {
        furnitureDepth--;
        return; // its text is not the page's content
      }
      if (LINK_BLOCKS.has(name) && furnitureDepth === 0 && box.link > box.text * MAX_LINK_SHARE) {
        box.furniture = true; // mostly links: a menu or a list of other pages, whatever its name
        furniture.push(box);
        return;
      }
      const parent = box.parent!;
      parent.text += box.text;
      parent.link += box.link;
      parent.commas += box.commas;
      if (furnitureDepth > 0 || box.text < MIN_PARAGRAPH || !(box.paragraph || (box.div && !box.blockChild))) return;
      const s = 1 + box.commas + Math.min(Math.floor(box.text / 100), 3);
      let up: Box | undefined = parent;
      for (let level = 0; up && up !== root && level < SCORED_LEVELS; level++, up = up.parent) {
        give(up, level === 0 ? s : level === 1 ? s / 2 : s / (level * 3));
      }
    },
  }, { decodeEntities: true });
  parser.end(html);
  kinds.length = values.length = attributes.length = n;
  const events: PageEvents = { kinds, values, attribs: attributes };

  const whole: ContentChoice = {
    events, title: (title ?? '').replace(/\s+/g, ' ').trim(), base,
    ranges: [bodyBox && bodyBox.end > bodyBox.start ? [bodyBox.start, bodyBox.end] : [0, n]], leaveOut: new LeaveOut(new Map()), readable: false,
  };
  let top: Box | undefined;
  let topScore = 0;
  for (const c of candidates) {
    if (c.furniture) continue;
    const s = finalScore(c);
    if (s > topScore) { top = c; topScore = s; }
  }
  if (!top) return whole;
  const threshold = Math.max(10, topScore * 0.2);
  const chosen = top.parent && top.parent !== root
    ? candidates.filter((c) => c === top || (c.parent === top!.parent && !c.furniture && finalScore(c) >= threshold))
    : [top];
  if (chosen.reduce((n, c) => n + c.text, 0) < MIN_CONTENT) return whole;
  chosen.sort((a, b) => a.start - b.start);
  const leaveOut = new LeaveOut(new Map(furniture.map((b) => [b.start, b.end - 1])));
  return { ...whole, ranges: chosen.map((c) => [c.start, c.end]), leaveOut, readable: true };
}

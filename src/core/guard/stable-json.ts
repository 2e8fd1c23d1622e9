// Canonical JSON for hashing tool calls: the same arguments must give the same text whatever order the
// model wrote the keys in, or a loop evades detection by shuffling keys. Iterative rather than
// recursive, because arguments are model output and a deeply nested value must not overflow the stack
// of the execute pipeline.
import * as crypto from 'node:crypto';

/** Stands in for a value that contains itself; a shared (non-cyclic) reference is written out in full. */
export const CIRCULAR_MARK = '[Circular]';

type Task =
  | { kind: 'value'; value: unknown; key: string; prepared?: boolean }
  | { kind: 'text'; text: string }
  | { kind: 'leave'; object: object };

/**
 * JSON with object keys sorted at every depth. Follows JSON.stringify where JSON defines the answer
 * (undefined, functions and symbols dropped from objects and written as null in arrays, non-finite
 * numbers as null, toJSON honoured, boxed primitives unwrapped) and never throws where it would:
 * a cycle is written as "[Circular]" and a bigint as its digits. A top-level value JSON cannot
 * represent (undefined, a function) gives "null".
 */
export function stableJson(value: unknown): string {
  const flat = flatObjectJson(value);
  if (flat !== undefined) return flat;
  const out: string[] = [];
  const ancestors = new Set<object>();
  const tasks: Task[] = [{ kind: 'value', value, key: '' }];
  while (tasks.length > 0) {
    const task = tasks.pop() as Task;
    if (task.kind === 'text') {
      out.push(task.text);
    } else if (task.kind === 'leave') {
      ancestors.delete(task.object);
    } else {
      const v = task.prepared ? task.value : prepare(task.value, task.key);
      writeValue(v, out, tasks, ancestors);
    }
  }
  return out.join('');
}

/**
 * The usual arguments (one plain object of strings, numbers, booleans and nulls) written in one
 * loop, as the general walk below would write them: it makes a task object per key and piece
 * (about 1 us per call of the pipeline's loop check). Undefined for any other value.
 */
function flatObjectJson(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const proto = Object.getPrototypeOf(value) as unknown;
  if ((proto !== Object.prototype && proto !== null) || typeof (value as { toJSON?: unknown }).toJSON === 'function') return undefined;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).sort();
  let out = '{';
  let first = true;
  for (const key of keys) {
    const v = obj[key];
    let text: string;
    if (typeof v === 'string') text = JSON.stringify(v);
    else if (typeof v === 'number') text = Number.isFinite(v) ? String(v) : 'null';
    else if (typeof v === 'boolean') text = v ? 'true' : 'false';
    else if (v === null) text = 'null';
    else if (v === undefined) continue;
    else return undefined;
    out += (first ? '' : ',') + JSON.stringify(key) + ':' + text;
    first = false;
  }
  return out + '}';
}

/** Applies what JSON.stringify applies before choosing a representation. */
function prepare(value: unknown, key: string): unknown {
  let v = value;
  if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function') {
    v = (v as { toJSON(k: string): unknown }).toJSON(key);
  }
  if (v instanceof Number || v instanceof String || v instanceof Boolean) v = v.valueOf();
  return v;
}

function isOmitted(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

function writeValue(v: unknown, out: string[], tasks: Task[], ancestors: Set<object>): void {
  if (v === null || isOmitted(v)) {
    out.push('null');
  } else if (typeof v === 'string') {
    out.push(JSON.stringify(v));
  } else if (typeof v === 'number') {
    out.push(Number.isFinite(v) ? String(v) : 'null');
  } else if (typeof v === 'boolean') {
    out.push(v ? 'true' : 'false');
  } else if (typeof v === 'bigint') {
    out.push(v.toString());
  } else if (ancestors.has(v as object)) {
    out.push(JSON.stringify(CIRCULAR_MARK));
  } else if (Array.isArray(v)) {
    ancestors.add(v);
    scheduleArray(v, tasks);
  } else {
    ancestors.add(v as object);
    scheduleObject(v as Record<string, unknown>, tasks);
  }
}

// Tasks run last-in first-out, so each container's pieces are pushed in reverse.
function scheduleArray(arr: unknown[], tasks: Task[]): void {
  tasks.push({ kind: 'leave', object: arr }, { kind: 'text', text: ']' });
  for (let i = arr.length - 1; i >= 0; i--) {
    tasks.push({ kind: 'value', value: arr[i], key: String(i) });
    if (i > 0) tasks.push({ kind: 'text', text: ',' });
  }
  tasks.push({ kind: 'text', text: '[' });
}

function scheduleObject(obj: Record<string, unknown>, tasks: Task[]): void {
  const entries: [string, unknown][] = [];
  for (const key of Object.keys(obj).sort()) {
    // Whether a key is dropped depends on what toJSON returns, so toJSON runs here, once.
    const prepared = prepare(obj[key], key);
    if (!isOmitted(prepared)) entries.push([key, prepared]);
  }
  tasks.push({ kind: 'leave', object: obj }, { kind: 'text', text: '}' });
  for (let i = entries.length - 1; i >= 0; i--) {
    const [key, prepared] = entries[i];
    tasks.push({ kind: 'value', value: prepared, key, prepared: true });
    tasks.push({ kind: 'text', text: (i > 0 ? ',' : '') + JSON.stringify(key) + ':' });
  }
  tasks.push({ kind: 'text', text: '{' });
}

/**
 * crypto.hash (Node 20.12 and 21.7 on) hashes in one native call, about 0.4 us for a short text
 * against 0.85 us through a Hash object; an older Node (an older editor's runtime) has only the latter.
 */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'base64url') => string }).hash;

/**
 * A text up to this long is its own fingerprint: hashing it costs more than keeping it (~1 us of
 * every call of the pipeline's loop check, for a call's arguments and for its result), and the
 * fingerprints kept are bounded (the loop detector's history window, its number of sessions).
 */
const KEPT_MAX = 128;

/**
 * Fingerprint of a text: the text itself when short, else its sha1 (native and fast; loop detection
 * needs no secrecy). The first character tells the two kinds apart, so a short text can never equal
 * a long one's digest.
 */
export function hashText(text: string): string {
  if (text.length <= KEPT_MAX) return `=${text}`;
  return `#${oneShot ? oneShot('sha1', text, 'base64url') : crypto.createHash('sha1').update(text).digest('base64url')}`;
}

/**
 * Fingerprint of a call: tool name and canonical arguments, so key order does not matter. Arguments
 * that arrive still as the model's JSON text are parsed first, or key order would matter again.
 */
export function hashCall(tool: string, args: unknown): string {
  return hashText(`${tool}\u0000${stableJson(parseIfJsonText(args))}`);
}

function parseIfJsonText(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  const t = args.trimStart();
  if (!t.startsWith('{') && !t.startsWith('[')) return args;
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

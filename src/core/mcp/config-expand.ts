// Expanding a definition's variables just before its server starts: `${workspaceFolder}`,
// `${userHome}`, `${env:NAME}`, `${input:id}` (the person's answer to a prompt declared in
// `inputs`) and `${pathSeparator}`. An unknown variable or an input nobody answered is an error that
// names the file and field: a server started with a literal `${…}` in its token fails in confusing ways.
import path from 'node:path';
import { parseEnv } from 'node:util';
import type { McpServerDefinition } from './server-definition';

export interface ExpandContext {
  workspaceFolder?: string;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  /** The answer for `${input:id}`; undefined: not answered. */
  input: (id: string) => string | undefined;
  /** Reads an envFile (absolute path). */
  readFile: (file: string) => string;
}

/** A definition ready to start, and the values the scrubber must hide from every output. */
export interface ResolvedServer {
  def: McpServerDefinition;
  command?: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  url?: string;
  headers: Record<string, string>;
  secrets: string[];
}

export class McpConfigError extends Error {}

const VARIABLE = /\$\{([^}]*)\}/g;
/** Environment names that hold credentials by convention. */
const SECRET_NAME = /token|secret|passw|api[-_]?key|private|credential|auth|(^|_)key($|_)|(^|_)pat($|_)/i;

/** The `${input:id}` ids a definition uses, to ask for before it starts. */
export function inputIdsOf(def: McpServerDefinition): string[] {
  const texts = [def.command ?? '', ...def.args, ...Object.values(def.env), def.envFile ?? '', def.cwd ?? '', def.url ?? '', ...Object.values(def.headers)];
  const ids = new Set<string>();
  for (const t of texts) for (const m of t.matchAll(VARIABLE)) if (m[1].startsWith('input:')) ids.add(m[1].slice('input:'.length));
  return [...ids];
}

export function expandServer(def: McpServerDefinition, ctx: ExpandContext): ResolvedServer {
  const secrets = new Set<string>();
  const expand = (text: string, field: string): string => {
    let fromInput = false;
    const out = text.replace(VARIABLE, (whole, name: string) => {
      const v = variable(name, ctx, () => { fromInput = true; });
      if (v === undefined) throw new McpConfigError(`${def.source.file}: ${field}: ${unresolved(name, whole)}`);
      return v;
    });
    if (fromInput) secrets.add(out);
    return out;
  };
  const at = (f: string) => `${def.name}.${f}`;
  const env: Record<string, string> = {};
  if (def.envFile) {
    const file = resolvePath(expand(def.envFile, at('envFile')), ctx);
    let text: string;
    try {
      text = ctx.readFile(file);
    } catch (e) {
      throw new McpConfigError(`${def.source.file}: ${at('envFile')}: cannot read ${file} (${(e as Error).message})`);
    }
    Object.assign(env, parseEnv(text));
  }
  for (const [k, v] of Object.entries(def.env)) env[k] = expand(v, at(`env.${k}`));
  for (const [k, v] of Object.entries(env)) if (SECRET_NAME.test(k)) secrets.add(v);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(def.headers)) {
    const value = expand(v, at(`headers.${k}`));
    headers[k] = value;
    // A header is how a remote server is authenticated: its value, and the credential after a scheme word.
    secrets.add(value);
    const scheme = /^\s*[A-Za-z-]+\s+(\S+)\s*$/.exec(value);
    if (scheme) secrets.add(scheme[1]);
  }
  const url = def.url === undefined ? undefined : expand(def.url, at('url'));
  if (url !== undefined && !/^https?:\/\//i.test(url)) throw new McpConfigError(`${def.source.file}: ${at('url')}: "${url}" is not an http:// or https:// URL`);
  return {
    def, env, headers, url,
    command: def.command === undefined ? undefined : expand(def.command, at('command')),
    args: def.args.map((a, i) => expand(a, at(`args.${i}`))),
    cwd: def.cwd === undefined ? ctx.workspaceFolder : resolvePath(expand(def.cwd, at('cwd')), ctx),
    secrets: [...secrets].filter((s) => s.length > 0),
  };
}

function resolvePath(p: string, ctx: ExpandContext): string {
  return path.resolve(ctx.workspaceFolder ?? ctx.home, p);
}

function variable(name: string, ctx: ExpandContext, sawInput: () => void): string | undefined {
  if (name === 'workspaceFolder' || name === 'workspaceRoot') return ctx.workspaceFolder;
  if (name === 'workspaceFolderBasename') return ctx.workspaceFolder === undefined ? undefined : path.basename(ctx.workspaceFolder);
  if (name === 'userHome') return ctx.home;
  if (name === 'pathSeparator' || name === '/') return path.sep;
  if (name.startsWith('env:')) return ctx.env[name.slice(4)] ?? '';
  if (name.startsWith('input:')) {
    sawInput();
    return ctx.input(name.slice(6));
  }
  return undefined;
}

function unresolved(name: string, whole: string): string {
  if (name.startsWith('input:')) return `${whole} has no answer (the input "${name.slice(6)}" was not given)`;
  if (name === 'workspaceFolder' || name === 'workspaceRoot' || name === 'workspaceFolderBasename') return `${whole} used without a workspace folder`;
  return `${whole} is not a variable Pincer knows (workspaceFolder, userHome, env:NAME, input:ID, pathSeparator)`;
}

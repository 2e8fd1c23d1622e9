#!/usr/bin/env node
// `pincer`: the core without VS Code. Scripts, CI jobs and other agents use it, and it is how the
// guards are tested from outside. Exit codes: 0 success, 1 the tool returned an error result, 2 bad usage.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { bashParser } from '../core/exec/command-grammar';
import { shortLivedWasm } from './short-lived-wasm';
import { UsageError } from './usage-error';

const HELP = `pincer — Pincer's tool runtime on the command line

Usage:
  pincer tools [--profile P] [--agent A] [--provider X] [--channel C] [--depth N]
               [--not-owner] [--untrusted] [--workspace DIR] [--config FILE] [--json] [--trust-mcp]
               [--trust-workspace]
      The effective tool list for that caller (the same tools as the editor), and for each
      removed tool the step that removed it. MCP servers are started to list their tools
      (mcp_<server>__<tool>); --json adds their state as "mcpServers".
  pincer run <tool> ['<json arguments>'] [--workspace DIR] [--config FILE] [--agent A]
               [--session KEY] [--timeout SECONDS] [--write] [--state DIR] [--json] [--trust-mcp]
               [--trust-workspace]
      One call through the same pipeline the editor uses. Prints what the model would see
      (or the whole result with --json). Exit 0 on success, 1 on an error result.
      File tools work on DIR (default: the current directory); write_file, edit and
      apply_patch change files only with --write (there is no diff review here), keeping
      the originals as checkpoints. Memory (keyword search), context files (SOUL.md,
      MEMORY.md, … are kept in the store, not on disk), sessions, checkpoints and "always"
      approvals live in a database in --state DIR; by default a folder per workspace under
      $XDG_STATE_HOME/pincer (~/.local/state/pincer; macOS: ~/Library/Application
      Support/pincer; Windows: %LOCALAPPDATA%\\pincer), never inside the workspace.
      exec runs commands on DIR as child processes (or in the sandbox / dev container
      when pincer.exec.host says so); a command that needs approval is answered by
      --approve once|always|deny (default deny; "always" is remembered in the store).
      Background jobs are stopped when the run ends.
      mcp_<server>__<tool> calls a tool of an MCP server, started for the run and stopped after.
  MCP servers: those in --config's pincer.mcp.servers start; those a workspace defines (its
      .vscode/settings.json, .vscode/mcp.json, .mcp.json, .cursor/mcp.json) start only with
      --trust-mcp (they run programs or send headers the repository chose). \${input:ID} is read
      from the environment variable PINCER_MCP_INPUT_<ID>.
  Custom tools: those in --config's pincer.tools.custom load; those a workspace defines (its
      .vscode/settings.json, .pincer/tools/*.json) only with --trust-workspace. \${secret:NAME} in
      their env is read from the environment variable PINCER_TOOL_SECRET_<NAME>.
  Skills: those in ~/.pincer/skills/ (a folder with a SKILL.md each) load; a workspace's
      (.pincer/skills/, .github/skills/, .claude/skills/) only with --trust-workspace.
      publish_skill refuses here: publishing needs a person to confirm it, in the editor.
  pincer check-command '<command>' [--json] [--workspace DIR]
      How exec would judge the command with default settings (security full, ask on-miss, all 15
      deny groups on), writes checked against DIR. '-' reads the command from standard input.
      Exit 0 allow, 1 ask (would need approval), 2 deny (or bad usage).
  pincer cron list|get|pause|resume|remove|run [<id>] [--workspace DIR] [--state DIR] [--json]
  pincer cron add <name> '<schedule>' --command CMD | --prompt TEXT [--agent A] [--timezone ZONE]
               [--catch-up] [--workspace DIR] [--state DIR] [--json]
      The workspace's scheduled jobs (the cron tool's actions) in the same database as run's.
      A schedule is a cron expression ('0 9 * * 1-5', read in --timezone), whole seconds
      (an interval, at least 60) or one ISO time ('2026-12-24T18:00'). Jobs run on their
      schedule in the editor; run runs one now: a command through exec's judge (--approve
      answers), a prompt only in the editor. --json prints {"jobs"}, {"job", "runs"},
      {"job"}, {"run"}, {"id", "message"} or {"error"}. Exit 0 done, 1 refused, no such job
      or a run that did not end ok, 2 bad usage.
  pincer team list|board|task [<team>] [<n>] [--workspace DIR] [--config FILE] [--state DIR] [--json]
      The workspace's teams (.pincer/teams/*.md and pincer.teams, with each definition's problem),
      one team's board in the Team Board's columns (pending, in progress, in review, done,
      failed), or one task with its audit trail, from the same database as run's; it only reads.
      --json prints {"teams", "problems"}, {"team", "columns"}, {"task", "events"} or {"error"}.
      Exit 0 done, 1 no such team or task (or no database), 2 bad usage.
  pincer scrub [--secret VALUE]...
      Copies standard input to standard output with secrets replaced by [REDACTED].
  pincer mcp [--workspace DIR] [--config FILE] [--write] [--approve once|always|deny] [--state DIR]
             [--untrusted] [--trust-mcp] [--http --port N [--token-file FILE]]
      Serves the same tools to an MCP client (Claude Code, Codex, Cursor, Cline …) over stdio, every
      call through the same pipeline with the channel "mcp" (pincer.tools.byChannel.mcp applies).
      Commands that need approval are answered by --approve (default deny); files change only
      with --write. --http serves streamable HTTP on http://127.0.0.1:N/mcp instead: requests need
      "Authorization: Bearer <token>" (a new token printed once on stderr, or --token-file's first
      line), a loopback Host and no foreign Origin.
  pincer hook claude-code|cursor [--workspace DIR] [--config FILE] [--state DIR]
      Answers another agent's pre-tool-use hook (the event on standard input) with Pincer's
      judge for commands and its path guard for file reads and writes, in that agent's format.

Settings come from DIR/.vscode/settings.json (pincer.* keys), then --config FILE.
`;

const OPTIONS = {
  profile: { type: 'string' }, agent: { type: 'string' }, provider: { type: 'string' }, channel: { type: 'string' },
  depth: { type: 'string' }, 'not-owner': { type: 'boolean' }, untrusted: { type: 'boolean' },
  workspace: { type: 'string' }, config: { type: 'string' }, json: { type: 'boolean' }, session: { type: 'string' },
  timeout: { type: 'string' }, write: { type: 'boolean' }, secret: { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' }, approve: { type: 'string' }, state: { type: 'string' }, 'trust-mcp': { type: 'boolean' },
  'trust-workspace': { type: 'boolean' },
  http: { type: 'boolean' }, port: { type: 'string' }, 'token-file': { type: 'string' },
  command: { type: 'string' }, prompt: { type: 'string' }, timezone: { type: 'string' }, 'catch-up': { type: 'boolean' },
} as const;

export type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

async function scrub(values: Values): Promise<number> {
  const { Scrubber } = await import('../core/guard/scrubber');
  const s = new Scrubber();
  for (const v of values.secret ?? []) s.register(v);
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  process.stdout.write(s.scrub(Buffer.concat(chunks).toString('utf8')));
  return 0;
}

async function checkCommandCli(values: Values, positionals: string[]): Promise<number> {
  const [command] = positionals;
  if (command === undefined) throw new UsageError("pincer check-command needs a command: pincer check-command 'ls -la' (or - to read it from stdin)");
  // The shell parser's WebAssembly compiles off the main thread: started first, it overlaps the
  // judge's own loading. A failed load is reported by the parse that needs it.
  void bashParser().catch(() => undefined);
  const { checkCommand, readStdin } = await import('./check-command');
  const workspace = path.resolve(values.workspace ?? process.cwd());
  if (!fs.existsSync(workspace)) throw new UsageError(`--workspace ${workspace}: no such directory.`);
  // Settings are read (and their schemas loaded) only when there are some: most calls have none.
  const settingsFile = values.workspace ? path.join(workspace, '.vscode', 'settings.json') : undefined;
  const c = values.config !== undefined || (settingsFile && fs.existsSync(settingsFile))
    ? (await import('./cli-config')).loadCliConfig(values.workspace ? workspace : undefined, values.config, (m) => process.stderr.write(`pincer: warning: ${m}\n`)).fs
    : (await import('../core/fs/path-deny')).DEFAULT_FS_SETTINGS;
  const r = await checkCommand(command === '-' ? await readStdin() : command, { workspace: fs.realpathSync(workspace), json: !!values.json, fsConfig: c });
  process.stdout.write(r.out + '\n');
  return r.code;
}

export async function main(argv: string[]): Promise<number> {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    const [cmd, ...rest] = positionals;
    if (values.version) {
      process.stdout.write(`pincer ${VERSION}\n`);
      return 0;
    }
    if (values.help || !cmd) {
      process.stdout.write(HELP);
      return values.help ? 0 : 2;
    }
    // Each subcommand loads its own modules: check-command must not pay for zod, the tools and the
    // exec runtime (scripts and other agents' hooks run it once per command).
    if (cmd === 'tools') return await (await import('./cli-run')).tools(values);
    if (cmd === 'run') {
      shortLivedWasm();
      return await (await import('./cli-run')).run(values, rest);
    }
    if (cmd === 'scrub') return await scrub(values);
    if (cmd === 'check-command') {
      shortLivedWasm();
      return await checkCommandCli(values, rest);
    }
    if (cmd === 'cron') {
      shortLivedWasm();
      return await (await import('./cli-cron')).cron(values, rest);
    }
    if (cmd === 'team') return await (await import('./cli-team')).team(values, rest);
    if (cmd === 'mcp') return await (await import('./cli-mcp-serve')).serveMcp(values, rest, VERSION);
    if (cmd === 'hook') {
      shortLivedWasm();
      return await (await import('./cli-hook')).hook(values, rest);
    }
    throw new UsageError(`unknown command "${cmd}". Commands: tools, run, check-command, scrub, cron, team, mcp, hook (pincer --help).`);
  } catch (e) {
    const usage = e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(`pincer: ${(e as Error).message}\n`);
    return usage ? 2 : 1;
  }
}

declare const PINCER_VERSION: string;
const VERSION = typeof PINCER_VERSION === 'string' ? PINCER_VERSION : 'dev';

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}

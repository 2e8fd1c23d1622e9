// Ports and shared types of the filesystem tools. Core resolves and checks every path itself (the
// path guard); reading and writing go through a WorkspaceFs port: vscode.workspace.fs in the
// extension (remote and virtual workspaces work), node's fs in the CLI and in unit tests.

/** What a caller wants to do with a path; denied paths are refused for all three. */
export type Access = 'read' | 'write' | 'list';

export interface FileStat {
  type: 'file' | 'directory' | 'symlink' | 'other';
  size: number;
  /** Modification time, epoch milliseconds. */
  mtime: number;
}

export interface WorkspaceFs {
  readFile(abs: string, signal?: AbortSignal): Promise<Uint8Array>;
  /** Atomic replace (temp file + rename), parent directories created. */
  writeFile(abs: string, data: Uint8Array): Promise<void>;
  stat(abs: string): Promise<FileStat | undefined>;
  readDirectory(abs: string): Promise<[name: string, type: FileStat['type']][]>;
  /**
   * Optional fast path for walkers: many directories listed in one call (undefined for one that
   * cannot be read), where a call per directory costs more than the listing. Names and types only,
   * symlinks reported as 'symlink' and never followed; unlike readDirectory it need not re-check
   * that each directory is still canonical, so its names must not be opened without the guard.
   */
  readDirectories?(dirs: readonly string[]): Promise<([name: string, type: FileStat['type']][] | undefined)[]>;
  /** Optional fast path: stat (symlinks not followed) of many paths, undefined for a missing or unreadable one. */
  statMany?(paths: readonly string[]): Promise<(FileStat | undefined)[]>;
  delete(abs: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
}

export interface ResolvedPath {
  /** Canonical absolute path (symlinks resolved; for a new file, through its deepest existing ancestor). */
  abs: string;
  /** The workspace root (or allowed extra root) that contains it. */
  root: string;
  /** Path relative to that root, with forward slashes; '' for the root itself. */
  rel: string;
  /** What the caller typed, for messages. */
  input: string;
  exists: boolean;
}

/** A refusal the model can act on: `message` says why and which setting widens the boundary. */
export class PathError extends Error {
  constructor(message: string, readonly code: 'outside' | 'denied' | 'symlink-escape' | 'hardlink' | 'invalid' | 'not-found') {
    super(message);
    this.name = 'PathError';
  }
}

export interface PathGuardConfig {
  /** Absolute paths of the workspace folders; the first is the default for relative paths. */
  roots: string[];
  /** Names of the workspace folders (multi-root: a path may start with a folder's name). */
  rootNames?: string[];
  /** pincer.fs.workspaceOnly (default true): refuse paths outside the roots and allowPaths. */
  workspaceOnly: boolean;
  /** pincer.fs.allowPaths: extra absolute roots that are allowed. */
  allowPaths: string[];
  /** pincer.fs.denyPaths: globs relative to each root (`.git/**`, `**\/.env`) or absolute paths. */
  denyPaths: string[];
  /** Directories that are always denied whatever the settings (Pincer's own storage). */
  alwaysDeny: string[];
  /** Home directory, for `~` expansion. */
  home: string;
}

/** How an edit reaches the disk: staged for the user's review, or written at once. */
export interface ProposedChange {
  tool: string;
  path: ResolvedPath;
  /** undefined when the file does not exist yet. */
  before: string | undefined;
  /** undefined when the change deletes the file. */
  after: string | undefined;
  /** Bytes of `after` as they must land (encoding, BOM and line endings already applied). */
  afterBytes?: Uint8Array;
  /** The turn the change belongs to (`ctx.turnId ?? ctx.sessionKey`); checkpoints are kept per turn. */
  turn?: string;
}

export type ReviewDecision =
  | { decision: 'accepted' }
  | { decision: 'rejected'; reason?: string }
  /** The user edited the proposal before accepting; `content` is what was written. */
  | { decision: 'modified'; content: string };

export interface EditReviewer {
  /** Applies the changes (all of one tool call) or returns the user's decision; honours the signal. */
  review(changes: ProposedChange[], signal: AbortSignal): Promise<ReviewDecision[]>;
}

/** The one path resolver every tool that touches a path uses (exec's working directory too). */
export interface PathResolver {
  /** Resolves and checks `input` for `access`; throws PathError with an actionable message. */
  resolve(input: string, access: Access): Promise<ResolvedPath>;
  /**
   * The same checks with synchronous calls, nothing cached: for advisory checks before an action
   * (the exec judge's write targets), never for the file tools' own writes, which stay async and
   * re-verify the opened file.
   */
  resolveSync?(input: string, access: Access): ResolvedPath;
  /** For walkers (list_files, grep, glob): whether an absolute, canonical path is hidden by deny rules. */
  isDenied(abs: string): boolean;
  /**
   * Optional, for walkers: isDenied of `abs`, a folder's canonical path joined with a name from its
   * listing, where that folder itself was cleared by isDenied or resolve (so only the entry needs
   * matching). Only ever asked about entries of cleared folders.
   */
  isDeniedEntry?(abs: string): boolean;
  /** The workspace roots and allowed extra roots, absolute and canonical. */
  readonly roots: readonly string[];
}

/** What the filesystem tools are built from. */
export interface FsToolDeps {
  guard: PathResolver;
  fs: WorkspaceFs;
  reviewer: EditReviewer;
  /** The calling model's context window in tokens, when known (adaptive read paging). */
  contextTokens?: (ctx: { agentId: string; provider?: string }) => number | undefined;
}

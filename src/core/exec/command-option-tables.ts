// The options the judge knows, one table per program (or git subcommand), shared by every rule that
// parses that program's arguments: a beginning of an option (`--rec`, `--pre`, `--re=`) resolves the
// same way for all of them (see command-options.ts). A table lists the options a rule asks about, and
// the everyday options that share a beginning with them: a beginning two known options share stands
// for both, and a real option whose full name is a beginning of a known one (curl's `--head` and
// `--header`) must be known itself, or it would be taken for the longer one. Each table is registered
// with the command lines it is parsed for, so a test can try every beginning of every option it knows.
import type { OptionSpec } from './command-options';

export interface OptionTable { readonly probes: readonly string[]; readonly spec: OptionSpec }

/** Every table, with the command words before the options it parses (`git push`, `curl`). */
export const OPTION_TABLES: OptionTable[] = [];

function table<const S extends OptionSpec>(probes: readonly string[], spec: S): S {
  OPTION_TABLES.push({ probes, spec });
  return spec;
}

// --- git: the options before the subcommand, then one table per subcommand a rule reads ---
export const GIT = table(['git'], {
  shortValue: 'Cc', posixOrder: true,
  longValue: ['git-dir', 'work-tree', 'namespace', 'exec-path', 'config-env', 'upload-pack', 'receive-pack', 'exec'],
  longFlag: ['no-pager', 'paginate', 'bare', 'no-replace-objects', 'literal-pathspecs', 'glob-pathspecs', 'noglob-pathspecs', 'icase-pathspecs', 'no-optional-locks', 'version', 'help', 'html-path', 'man-path', 'info-path', 'list-cmds'],
});
export const GIT_PUSH = table(['git push', 'git lfs push'], {
  shortValue: 'o', negatable: true,
  longValue: ['repo', 'receive-pack', 'exec', 'push-option', 'recurse-submodules'],
  // `--signed` and `--force-with-lease` take a value only after `=`.
  longFlag: ['force', 'force-with-lease', 'force-if-includes', 'mirror', 'delete', 'dry-run', 'signed', 'all', 'branches', 'tags', 'follow-tags', 'set-upstream', 'verify', 'atomic', 'prune', 'porcelain', 'thin', 'quiet', 'verbose', 'progress', 'ipv4', 'ipv6'],
});
export const GIT_CLONE = table(['git clone'], {
  shortValue: 'cobuj', negatable: true,
  longValue: ['config', 'origin', 'branch', 'upload-pack', 'template', 'reference', 'reference-if-able', 'depth', 'jobs', 'separate-git-dir', 'shallow-since', 'shallow-exclude', 'filter', 'server-option', 'ref-format', 'bundle-uri', 'revision'],
  longFlag: ['bare', 'mirror', 'local', 'no-hardlinks', 'shared', 'recurse-submodules', 'quiet', 'verbose', 'progress', 'no-checkout', 'single-branch', 'dissociate', 'sparse', 'also-filter-submodules', 'remote-submodules', 'shallow-submodules', 'no-tags', 'reject-shallow'],
});
/** The other subcommands whose options can run a program (`fetch --upload-pack`, `archive --exec`, `commit --file`). */
export const GIT_OTHER = table(['git fetch', 'git pull', 'git ls-remote', 'git archive', 'git submodule update', 'git submodule add', 'git submodule set-url', 'git commit'], {
  shortValue: 'ubomc', negatable: true,
  longValue: ['upload-pack', 'receive-pack', 'exec', 'template', 'config', 'origin', 'branch', 'message', 'file', 'author', 'remote'],
});
/** The subcommands that run a command line they are given (`rebase --exec`, `difftool --extcmd`). */
export const GIT_RUNS = table(['git rebase', 'git difftool', 'git mergetool'], {
  // `-S[<keyid>]`, `-O<orderfile>`, `-C<n>` take a value only in the same word here.
  shortValue: 'xtsXo', shortOptional: 'SOC', negatable: true,
  longValue: ['exec', 'extcmd', 'tool-cmd', 'tool', 'onto', 'strategy', 'strategy-option', 'empty'],
  longFlag: ['edit-todo', 'interactive', 'continue', 'abort', 'skip', 'quit', 'autosquash', 'autostash', 'root', 'dir-diff', 'gui', 'no-prompt', 'prompt'],
});
/** `git grep -O[<pager>]` / `--open-files-in-pager[=<pager>]`: a value only in the same word, run through the shell. */
export const GIT_GREP = table(['git grep'], {
  shortValue: 'efABCm', shortOptional: 'O', negatable: true,
  longValue: ['max-depth', 'context', 'after-context', 'before-context', 'threads', 'max-count'],
  longFlag: ['open-files-in-pager', 'only-matching', 'cached', 'untracked', 'no-index', 'recurse-submodules', 'ignore-case', 'line-number', 'column', 'files-with-matches', 'name-only',
    'files-without-match', 'count', 'color', 'break', 'heading', 'show-function', 'function-context', 'all-match', 'quiet', 'extended-regexp', 'basic-regexp', 'fixed-strings',
    'perl-regexp', 'null', 'invert-match', 'word-regexp', 'text', 'full-name', 'textconv', 'exclude-standard', 'and', 'or', 'not'],
});
export const GIT_REMOTE = table(['git remote'], {
  shortValue: 'tm', negatable: true,
  longValue: ['track', 'master'],
  longFlag: ['delete', 'push', 'add', 'fetch', 'mirror', 'tags', 'verbose', 'all', 'auto'],
});
export const GIT_SEND_PACK = table(['git send-pack', 'git http-push'], {
  negatable: true,
  longValue: ['receive-pack', 'exec', 'remote', 'push-option'],
  longFlag: ['signed', 'force-with-lease', 'all', 'mirror', 'dry-run', 'force', 'verbose', 'thin', 'atomic', 'stdin', 'quiet', 'progress', 'helper-status', 'stateless-rpc'],
});
export const GIT_CONFIG = table(['git config'], {
  shortValue: 'ft', negatable: true,
  longValue: ['file', 'blob', 'type', 'default', 'comment', 'value'],
  longFlag: ['global', 'system', 'local', 'worktree', 'get', 'get-all', 'get-regexp', 'get-urlmatch', 'get-color', 'get-colorbool', 'list', 'rename-section', 'remove-section', 'replace-all', 'add', 'unset', 'unset-all', 'edit', 'fixed-value', 'bool', 'int', 'bool-or-int', 'bool-or-str', 'path', 'expiry-date', 'no-type', 'null', 'name-only', 'show-origin', 'show-scope', 'includes', 'all', 'regexp', 'url'],
});
export const GIT_CLEAN = table(['git clean'], { shortValue: 'e', negatable: true, longValue: ['exclude'], longFlag: ['force', 'dry-run', 'quiet', 'interactive'] });
export const GIT_RESET = table(['git reset'], { negatable: true, longFlag: ['hard', 'soft', 'mixed', 'merge', 'keep', 'quiet', 'patch', 'recurse-submodules'] });
export const GIT_WORKTREE = table(['git worktree remove', 'git worktree prune'], { negatable: true, longValue: ['expire'], longFlag: ['force', 'dry-run', 'verbose'] });
export const GIT_SUBMODULE = table(['git submodule set-url', 'git submodule add'], { shortValue: 'b', longValue: ['branch', 'name', 'reference', 'depth'], longFlag: ['quiet', 'force'] });
export const GIT_INIT = table(['git init'], { shortValue: 'b', negatable: true, longValue: ['template', 'separate-git-dir', 'initial-branch', 'object-format', 'ref-format'], longFlag: ['bare', 'quiet', 'shared'] });

// --- files ---
export const RM = table(['rm'], { longFlag: ['recursive', 'no-preserve-root', 'preserve-root', 'force', 'interactive', 'one-file-system', 'dir', 'verbose'] });
export const CHMOD = table(['chmod', 'chown', 'chgrp'], { longValue: ['reference', 'from'], longFlag: ['recursive', 'changes', 'silent', 'quiet', 'verbose', 'dereference', 'no-dereference', 'preserve-root', 'no-preserve-root'] });
export const SHRED = table(['shred'], { shortValue: 'ns', longValue: ['iterations', 'size', 'random-source'], longFlag: ['remove', 'force', 'exact', 'zero', 'verbose'] });
export const TOUCH = table(['touch'], { shortValue: 'rtd', longValue: ['reference', 'date', 'time'], longFlag: ['no-create', 'no-dereference'] });
export const MKDIR = table(['mkdir', 'mkfifo'], { shortValue: 'm', longValue: ['mode', 'context'], longFlag: ['parents', 'verbose'] });
/** rmdir and unlink: no option takes a value. */
export const RMDIR = table(['rmdir', 'unlink'], { longFlag: ['parents', 'verbose', 'ignore-fail-on-non-empty'] });
export const SPLIT = table(['split', 'csplit'], { shortValue: 'abClnf', longValue: ['prefix', 'suffix-length', 'bytes', 'lines', 'line-bytes', 'number'], longFlag: ['numeric-suffixes', 'verbose', 'elide-empty-files'] });
export const TEE = table(['tee'], { longFlag: ['append', 'ignore-interrupts', 'output-error'] });
// cp, install and ln take `--backup[=CONTROL]`, `--reflink[=WHEN]` and `--context[=CTX]` (`-Z` alone: the
// default SELinux context) with a value only after `=`; rsync's -t, -o and -g are flags (times, owner, group).
export const CP = table(['cp', 'gcp'], {
  shortValue: 'tS',
  longValue: ['target-directory', 'suffix', 'sparse'],
  longFlag: ['backup', 'reflink', 'context', 'preserve', 'no-preserve', 'recursive', 'force', 'no-target-directory', 'archive', 'remove-destination', 'symbolic-link', 'link', 'update', 'parents', 'interactive', 'no-clobber'],
});
export const INSTALL = table(['install'], {
  shortValue: 'tSmog',
  longValue: ['target-directory', 'suffix', 'mode', 'owner', 'group', 'strip-program'],
  longFlag: ['backup', 'context', 'directory', 'compare', 'preserve-timestamps', 'preserve-context', 'strip', 'verbose', 'no-target-directory'],
});
export const LN = table(['ln'], {
  shortValue: 'tS',
  longValue: ['target-directory', 'suffix'],
  longFlag: ['backup', 'force', 'symbolic', 'no-dereference', 'relative', 'logical', 'physical', 'interactive', 'verbose', 'no-target-directory'],
});
export const RSYNC = table(['rsync'], {
  shortValue: 'efBTM',
  longValue: ['exclude', 'include', 'filter', 'rsh', 'rsync-path', 'chmod', 'chown', 'suffix', 'backup-dir', 'temp-dir', 'compare-dest', 'copy-dest', 'link-dest', 'exclude-from', 'include-from', 'files-from', 'partial-dir', 'log-file', 'password-file', 'remote-option', 'usermap', 'groupmap', 'out-format'],
  longFlag: ['remove-source-files', 'recursive', 'archive', 'owner', 'group', 'times', 'verbose', 'delete', 'dry-run', 'update', 'compress', 'progress', 'checksum', 'backup', 'force', 'perms', 'links', 'partial', 'inplace', 'append', 'mkpath'],
});
/** The table of a program that copies or links files to the last operand (or `-t DIR`). */
export function copyTable(name: string): typeof CP | typeof INSTALL | typeof LN | typeof RSYNC {
  return name === 'install' ? INSTALL : name === 'ln' ? LN : name === 'rsync' ? RSYNC : CP;
}
export const MV = table(['mv'], { shortValue: 'tS', longValue: ['target-directory', 'suffix', 'backup'], longFlag: ['force', 'no-clobber', 'no-target-directory', 'update'] });
export const TRUNCATE = table(['truncate'], { shortValue: 'sr', longValue: ['size', 'reference'], longFlag: ['no-create', 'io-blocks'] });
export const UNIQ = table(['uniq'], { shortValue: 'fsw', longValue: ['skip-fields', 'skip-chars', 'check-chars', 'group', 'all-repeated'], longFlag: ['count', 'repeated', 'unique', 'ignore-case', 'zero-terminated'] });
export const TAR = table(['tar', 'bsdtar'], {
  shortValue: 'fCTXbgLVNK',
  longValue: ['file', 'directory', 'files-from', 'exclude-from', 'exclude', 'transform', 'xform', 'owner', 'group', 'mode', 'newer', 'after-date', 'listed-incremental', 'label', 'strip-components',
    'to-command', 'checkpoint-action', 'use-compress-program', 'rsh-command', 'info-script', 'new-volume-script', 'rmt-command'],
  longFlag: ['extract', 'get', 'create', 'append', 'update', 'list', 'diff', 'compare', 'delete', 'gzip', 'verbose', 'checkpoint', 'to-stdout', 'totals', 'absolute-names'],
});
export const ZIP = table(['zip'], { shortValue: 'bntxi', longValue: ['suffix', 'output', 'threads', 'unzip-command'] });
export const COMPRESS = table(['gzip', 'xz', 'zstd', 'bzip2', 'brotli'], { shortValue: 'SoT', longValue: ['suffix', 'output', 'threads'], longFlag: ['stdout', 'to-stdout', 'list', 'test', 'decompress', 'keep', 'force'] });
export const PATCH = table(['patch'], { shortValue: 'iopdDrFBVYzg', longValue: ['output', 'input', 'directory', 'reject-file'], longFlag: ['reverse', 'dry-run', 'forward'] });
export const SED = table(['sed', 'gsed'], {
  shortValue: 'efl',
  longValue: ['expression', 'file', 'line-length'],
  // `--in-place` takes its suffix only after `=`.
  longFlag: ['in-place', 'quiet', 'silent', 'debug', 'posix', 'regexp-extended', 'separate', 'sandbox', 'unbuffered', 'null-data', 'zero-terminated', 'follow-symlinks'],
});
export const SORT = table(['sort'], {
  shortValue: 'okStT',
  longValue: ['output', 'key', 'buffer-size', 'field-separator', 'temporary-directory', 'compress-program', 'files0-from', 'parallel', 'sort', 'random-source', 'batch-size'],
  longFlag: ['check', 'unique', 'reverse', 'numeric-sort', 'merge', 'stable', 'debug', 'zero-terminated'],
});

// --- search and pages ---
export const RG = table(['rg'], { shortValue: 'efgtTmABCMjrE', longValue: ['pre', 'pre-glob', 'regexp', 'file', 'glob', 'type', 'type-not', 'replace'] });
export const GREP = table(['grep', 'egrep'], {
  shortValue: 'efmABCdD',
  longValue: ['regexp', 'file', 'max-count', 'include', 'exclude', 'exclude-dir', 'context', 'after-context', 'before-context', 'label', 'binary-files', 'devices', 'directories'],
  // `--color`/`--colour` take their value only after `=`.
  longFlag: ['recursive', 'dereference-recursive', 'color', 'colour', 'count', 'ignore-case', 'invert-match'],
});
export const MAN = table(['man'], { shortValue: 'PHMLmSscCEeKrRp', longValue: ['pager', 'browser', 'preprocessor', 'config-file'], longFlag: ['html'] });

// --- interpreters (the first operand) ---
export const SHELL = table(['bash', 'sh'], { shortValue: 'oO', longValue: ['rcfile', 'init-file'], longFlag: ['version', 'eval'] });
export const PYTHON = table(['python3'], { shortValue: 'mWXQ', longFlag: ['version', 'eval'] });
export const INTERPRETER = table(['ruby', 'perl'], { shortValue: 'I', longFlag: ['version', 'eval'] });
export const SCRIPT_RUNNER = table(['node'], { shortValue: 'oOcmWX' });
export const MAKE = table(['make'], { shortValue: 'fCIjlow', longValue: ['file', 'makefile', 'directory'], longFlag: ['dry-run', 'just-print', 'keep-going'] });

// --- network ---
const CURL_UPLOAD = ['data', 'data-binary', 'data-raw', 'data-ascii', 'data-urlencode', 'form', 'form-string', 'upload-file', 'json', 'post301'] as const;
export { CURL_UPLOAD };
export const CURL = table(['curl'], {
  shortValue: 'dFTXHoeuAbcKrxUwmEQzyYCtDP',
  longValue: [...CURL_UPLOAD, 'request', 'header', 'output', 'output-dir', 'user', 'user-agent', 'cookie', 'cookie-jar', 'config', 'proxy', 'unix-socket',
    'abstract-unix-socket', 'url', 'referer', 'max-time', 'connect-timeout', 'retry', 'dump-header', 'trace', 'trace-ascii', 'stderr', 'write-out', 'resolve', 'connect-to', 'interface', 'cacert', 'cert', 'key', 'range', 'limit-rate'],
  // `--head` is a beginning of `--header`: known, so it is not taken for it.
  longFlag: ['head', 'silent', 'location', 'include', 'verbose', 'fail', 'insecure', 'remote-name', 'compressed', 'get'],
});
export const WGET = table(['wget', 'wget2'], {
  shortValue: 'OoaiePUTtwYBel',
  longValue: ['post-data', 'post-file', 'body-data', 'body-file', 'method', 'output-document', 'output-file', 'append-output', 'input-file', 'header', 'execute', 'directory-prefix', 'user-agent'],
  longFlag: ['use-askpass', 'quiet', 'continue', 'recursive', 'no-check-certificate', 'spider', 'mirror'],
});
export const HTTPIE = table(['http', 'https', 'xh'], { longFlag: ['form', 'multipart', 'json', 'verbose', 'headers', 'body', 'download'] });
export const TCPDUMP = table(['tcpdump', 'tshark'], { shortValue: 'irwcsCGWEFTyBfmzZYjaQ', longValue: ['interface', 'read', 'write', 'count', 'snapshot-length'] });
export const SSH = table(['ssh'], { shortValue: 'bcDEeFIiJLlmOopQRSWw' });

// --- remote services ---
export const AWS = table(['aws'], { longValue: ['region', 'profile', 'output', 'query', 'endpoint-url', 'bucket', 'key', 'cli-input-json'], longFlag: ['recursive', 'delete', 'dryrun'] });
export const GH_API = table(['gh api'], { shortValue: 'XfFH', longValue: ['method', 'field', 'raw-field', 'header'] });
/** Go's flags (one dash, read as two): `-auto-approve`, `-destroy`. */
export const TERRAFORM = table(['terraform'], { longValue: ['chdir', 'var', 'var-file', 'target', 'state', 'out'], longFlag: ['auto-approve', 'destroy', 'refresh-only', 'input', 'lock', 'json', 'no-color'] });
export const KUBECTL = table(['kubectl', 'oc'], {
  shortValue: 'nlfockp',
  longValue: ['namespace', 'context', 'cluster', 'kubeconfig', 'selector', 'filename', 'kustomize', 'output', 'replicas', 'container', 'user', 'server', 'token'],
  longFlag: ['prune', 'force', 'overwrite', 'raw', 'flatten', 'all', 'all-namespaces', 'dry-run', 'recursive'],
});
export const DOCKER_INSPECT = table(['docker inspect'], { shortValue: 'f', longValue: ['format', 'type'], longFlag: ['size'] });
export const PIP = table(['pip'], { shortValue: 'rceit', longValue: ['requirement', 'constraint', 'editable', 'index-url', 'extra-index-url', 'target', 'prefix', 'root', 'upgrade-strategy'] });
export const NPX = table(['npx', 'npm exec'], { shortValue: 'pc', posixOrder: true, longValue: ['package', 'call', 'cache', 'registry', 'userconfig'], longFlag: ['yes', 'no', 'package-lock', 'package-lock-only'] });
export const EDITOR = table(['code', 'cursor'], { longValue: ['install-extension', 'uninstall-extension', 'extensions-dir', 'user-data-dir', 'profile', 'locate-extension'], longFlag: ['list-extensions', 'show-versions', 'force', 'version', 'help'] });

// --- system ---
/** gpg takes any unambiguous beginning of a long option (`--export-secret-k`). */
export const GPG = table(['gpg', 'gpg2'], {
  shortValue: 'oruRf',
  longValue: ['output', 'recipient', 'local-user', 'homedir', 'default-key', 'keyserver', 'export-options', 'export-filter', 'passphrase', 'passphrase-file', 'pinentry-mode'],
  longFlag: ['export', 'export-secret-keys', 'export-secret-subkeys', 'export-ssh-key', 'export-ownertrust', 'armor', 'batch', 'yes', 'list-keys', 'list-secret-keys', 'fingerprint', 'import', 'verify', 'decrypt', 'encrypt', 'sign'],
});
export const JOURNALCTL = table(['journalctl'], {
  // `-b [ID]`, `-n [N]`, `--boot[=ID]`, `--lines[=N]`: a value only in the same word.
  shortValue: 'uptoSUDMg', shortOptional: 'bn',
  longValue: ['vacuum-time', 'vacuum-size', 'vacuum-files', 'unit', 'user-unit', 'priority', 'output', 'since', 'until', 'directory', 'file', 'root', 'identifier', 'grep', 'cursor', 'after-cursor', 'namespace'],
  longFlag: ['boot', 'lines', 'rotate', 'flush', 'relinquish-var', 'follow', 'reverse', 'no-pager', 'pager-end', 'list-boots', 'disk-usage', 'sync', 'verify', 'catalog', 'quiet', 'system', 'user'],
});
export const LASTLOG = table(['lastlog'], { shortValue: 'bRtu', longValue: ['before', 'root', 'time', 'user'], longFlag: ['clear', 'set', 'help'] });
export const SYSCTL = table(['sysctl'], { longValue: ['pattern'], longFlag: ['write', 'all', 'load', 'system', 'names', 'values', 'binary', 'quiet', 'ignore'] });
export const IPTABLES = table(['iptables', 'ip6tables'], {
  shortValue: 'tjmspdioAIDRNXPFZLS',
  longValue: ['table', 'jump', 'match', 'source', 'destination', 'in-interface', 'out-interface', 'protocol'],
  longFlag: ['list', 'list-rules', 'check', 'append', 'delete', 'insert', 'replace', 'flush', 'zero', 'new-chain', 'delete-chain', 'policy', 'rename-chain'],
});

/** The table of a git subcommand's own options (what follows the subcommand). */
export function gitSubcommandTable(sub: string): typeof GIT_PUSH | typeof GIT_CLONE | typeof GIT_OTHER | typeof GIT_RUNS | typeof GIT_CONFIG | typeof GIT_INIT | typeof GIT_REMOTE | typeof GIT_SEND_PACK | typeof GIT_CLEAN | typeof GIT_RESET | typeof GIT_WORKTREE | typeof GIT_GREP {
  switch (sub) {
    case 'grep': return GIT_GREP;
    case 'push': case 'lfs push': return GIT_PUSH;
    case 'clone': return GIT_CLONE;
    case 'config': return GIT_CONFIG;
    case 'init': return GIT_INIT;
    case 'rebase': case 'difftool': case 'mergetool': return GIT_RUNS;
    case 'remote': return GIT_REMOTE;
    case 'send-pack': case 'http-push': return GIT_SEND_PACK;
    case 'clean': return GIT_CLEAN;
    case 'reset': return GIT_RESET;
    case 'worktree': return GIT_WORKTREE;
    default: return GIT_OTHER;
  }
}

/**
 * The long options known for a program (every table parsed for its name alone, merged), for rules that
 * read any program's options by what their names say (`--rsh`, `--pre-hook`): a beginning (`--rs=`)
 * is resolved through it first. Undefined for a program no table is parsed for, or one with tables per subcommand.
 */
export function tableFor(program: string): OptionSpec | undefined {
  if (!BY_PROGRAM) {
    const merged = new Map<string, { longValue: string[]; longFlag: string[] }>();
    // A program with tables per subcommand (git, gh) takes different options after each: none is read for it.
    const bySubcommand = new Set(OPTION_TABLES.flatMap((t) => t.probes.filter((p) => p.includes(' ')).map((p) => p.split(' ')[0])));
    for (const { probes, spec } of OPTION_TABLES) {
      for (const probe of probes) {
        if (probe.includes(' ') || bySubcommand.has(probe)) continue;
        const m = merged.get(probe) ?? { longValue: [], longFlag: [] };
        m.longValue.push(...(spec.longValue ?? []));
        m.longFlag.push(...(spec.longFlag ?? []));
        merged.set(probe, m);
      }
    }
    BY_PROGRAM = merged;
  }
  return BY_PROGRAM.get(program);
}
let BY_PROGRAM: Map<string, OptionSpec> | undefined;

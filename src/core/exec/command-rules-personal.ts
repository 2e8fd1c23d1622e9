// The person's own data outside the workspace, reached through programs no credential rule names:
// what desktop applications keep in the home folder (chat tokens in a leveldb, a password manager's
// vault, remote-desktop profiles, the address book, recently used files, a tool's `~/.x.cfg` with
// an API key), and searches of the home folder or the whole machine for passwords, keys and tokens
// (`rg -uu password ~/.config`, `mdfind -name id_rsa | xargs cat`), and a container image's layers
// searched for them (`docker history --no-trunc IMG | grep -i key`). Listing such a folder changes
// nothing and runs; reading, copying or searching it asks; a search for secrets whose results are
// read or sent on is denied.
import os from 'node:os';
import { ask, deny, type Finding, type SegmentView, before } from './command-view';
import { codeAt, has, replace, slice, startsWith } from './command-strings';

/** An application's data: a file inside its folder under the usual per-user data roots, or a dotfile of settings. */
const APP_DATA = /^((\.config|\.local\/share|\.var\/app|snap|Library\/(Application Support|Containers|Group Containers|Messages|Mail|Calendars|Safari|Cookies|Accounts|Metadata|Suggestions|Preferences)|AppData\/(Roaming|Local))\/[^/]+(\/.+)?|\.local\/share\/[^/]+\.(xbel|db|sqlite3?|json)|\.[\w-]+(\.[\w-]+)*\.(cfg|conf|ini|json|toml|ya?ml|xml|db|sqlite3?))$/;
/** Settings a developer reads and edits as a matter of course: editors, terminals, prompts, shells' plugin managers, formatters. */
const EVERYDAY_CONFIG = /^(\.config\/(nvim|vim|helix|zed|micro|kak|git|alacritty|kitty|wezterm|tmux|starship\.toml|htop|btop|bat|lazygit|fish|zellij|ghostty|yamllint|ruff|black|flake8|pycodestyle|mypy|pylint|prettier|eslint|direnv|mise|rtx|topgrade\.toml|fontconfig|gtk-[\d.]+|Code\/User\/(settings|keybindings)\.json|Cursor\/User\/(settings|keybindings)\.json|VSCodium\/User\/(settings|keybindings)\.json)(\/|$)|\.local\/share\/(fonts|applications|nvim|vim|zsh|fish|mime)(\/|$)|\.(prettierrc|eslintrc|stylelintrc|markdownlint|yamllint|editorconfig|clang-format|jshintrc|babelrc)\b)/;
/** Programs that only list or show a folder, or open a file for the person in an editor. */
const LISTS_OR_EDITS = /^(ls|ll|la|dir|exa|eza|tree|du|df|stat|file|which|type|realpath|readlink|dirname|basename|test|\[|\[\[|cd|pushd|mkdir|touch|code|cursor|codium|vim|vi|nvim|nano|emacs|micro|hx|open|xdg-open|echo|printf|chmod|chown|rm|mv|ln|diff|wc|md5sum|sha256sum|sha1sum)$/;

/** Search tools, and the desktop index searches that cover the whole machine unless told where. */
const SEARCHERS = /^(grep|egrep|fgrep|rg|ag|ack|ugrep|find|fd|fdfind|locate|plocate|mlocate|mdfind|select-string|sls|get-childitem|gci|findstr|es|everything)$/;
const WHOLE_MACHINE = /^(locate|plocate|mlocate|mdfind|es|everything)$/;
/** What a hunt for secrets searches for: password, token and key words, key and vault files. */
const SECRET_TERM = /(passw|secret|token|api[_-]?key|apikey|private[_ ]?key|BEGIN[ \w]*PRIVATE|aws_secret|credential|id_(rsa|dsa|ecdsa|ed25519)|\.(pem|kdbx|kdb|key|p12|pfx|ppk|keystore|ovpn)\b|wallet\.dat|\.env\b|kMDItemTextContent)/i;
/** Programs that read, send or copy what a pipeline hands them. */
const CONSUMERS = /^(xargs|cat|tar|zip|7z|curl|wget|nc|ncat|socat|scp|rsync|base64|xxd|compress-archive|copy-item|get-content|gc|cp|mail|mailx|while|sh|bash)$/;

/** What every form underHome reads has: ~, $, %, a slash, a backslash or a drive letter's colon. */
const PLACE_CHAR = /[~$%/\\:]/;

/** A home-relative path for an argument naming something under the home folder (any user's), else undefined. */
function underHome(a: string, home: string): string | undefined {
  // Every form below starts with ~, $, %, a slash or a drive letter's colon, and the home folder
  // holds a slash: a word with none of them (most words) cannot name a place under it.
  if (!PLACE_CHAR.test(a) && has(home, '/')) return undefined;
  if (!mayStartAtHome(a, home)) return undefined;
  const s = replace(replace(a, /^-[A-Za-z]*(?=[/~])|^--?[\w-]+=/, ''), /\\/g, '/');
  const m = /^(?:~|\$HOME|\$\{HOME\}|\$env:USERPROFILE|%USERPROFILE%|\/home\/[^/]+|\/Users\/[^/]+|\/root|[A-Za-z]:\/Users\/[^/]+)(?:\/(.*))?$/i.exec(s);
  if (m) return m[1] ?? '';
  if (home && startsWith(s, `${home}/`)) return slice(s, home.length + 1);
  return s === home ? '' : undefined;
}

/**
 * Whether `a` can begin (after an option's `-x` or `--name=`) with a form underHome reads: each of
 * those starts with `~`, `$`, `%`, a slash or backslash, a drive letter's colon, or the home path
 * itself. A word that starts with anything else (`src/a.ts`, `out/**`) is settled here, before
 * underHome's rewrites and pattern.
 */
function mayStartAtHome(a: string, home: string): boolean {
  if (home === '') return true; // an empty home: underHome's own comparisons decide
  const c = codeAt(a, 0);
  // ~ $ % / \ and -: an option's prefix is stripped first, so an option is left to underHome.
  if (c === 0x7e || c === 0x24 || c === 0x25 || c === 0x2f || c === 0x5c || c === 0x2d) return true;
  return codeAt(a, 1) === 0x3a || c === codeAt(home, 0);
}

function appData(v: SegmentView, home: string): string | undefined {
  for (const a of v.args) {
    const rel = underHome(a, home);
    if (rel && APP_DATA.test(rel.replace(/\/+$/, '')) && !EVERYDAY_CONFIG.test(rel)) return a;
  }
  return undefined;
}

/** Where the search looks: outside the workspace (home, another user's, the root, system folders) or the whole machine's index. */
function searchesOutside(v: SegmentView, home: string): boolean {
  if (WHOLE_MACHINE.test(v.name)) return !v.args.some((a, i) => /^-onlyin$/.test(before(v.args, i) ?? '') && underHome(a, home) === undefined && !a.startsWith('/'));
  return v.args.some((a) => underHome(a, home) !== undefined || /^(\/|[A-Za-z]:[\\/]?)(etc|var|opt|srv|home|Users|root|mnt|Volumes)?([\\/]|$)/.test(a.replace(/^-[A-Za-z]*(?=\/)|^--?[\w-]+=/, '')));
}

function consumed(v: SegmentView): boolean {
  for (let p = v.pipedTo; p; p = p.pipedTo) if (CONSUMERS.test(p.name) || /^(%|foreach-object)$/.test(p.name)) return true;
  return false;
}

/** Container tools, whose image history and saved layers keep the build's arguments and environment. */
const IMAGE_TOOLS = /^(docker|podman|nerdctl|buildah)$/;
/** What a search of an image for credentials looks for (`key`, `pass` and `auth` alone count here). */
const CREDENTIAL_WORD = /key|token|pass|secret|cred|auth/i;

/** `docker history --no-trunc IMG | grep -i key`, `docker save IMG | tar -xO | grep password`: the image's layers searched for credentials. */
function imageLayersSearched(v: SegmentView): string | undefined {
  if (!IMAGE_TOOLS.test(v.name)) return undefined;
  const words = v.args.filter((a) => !a.startsWith('-'));
  const verb = words[0] === 'image' ? words[1] : words[0];
  const layers = verb === 'history' && v.args.includes('--no-trunc') || verb === 'save' && !v.args.some((a) => /^(-o|--output)(=|$)/.test(a));
  if (!layers) return undefined;
  for (let p = v.pipedTo; p; p = p.pipedTo) if (SEARCHERS.test(p.name) && p.args.some((a) => !a.startsWith('-') && CREDENTIAL_WORD.test(a))) return verb;
  return undefined;
}

/** The programs personalRules looks at by name: image tools and searchers. */
export const personalConcerns = (name: string): boolean => IMAGE_TOOLS.test(name) || SEARCHERS.test(name);

/**
 * What its check without a name (an application's data in the home folder) needs in any other
 * argv: a program that is not only listing or editing, and an argument underHome can read as a place.
 */
export function personalWhen(v: SegmentView): boolean {
  if (LISTS_OR_EDITS.test(v.name)) return false;
  const home = os.homedir();
  const args = v.args;
  for (let i = 0; i < args.length; i++) if (underHome(args[i], home) !== undefined) return true;
  return false;
}

export function personalRules(v: SegmentView): Finding[] {
  const home = os.homedir();
  const searched = imageLayersSearched(v);
  if (searched) return [ask('data_exfiltration', `${v.name} ${searched} is searched for keys, tokens or passwords: the build's arguments and environment stay in an image's layers`)];
  if (SEARCHERS.test(v.name) && v.args.some((a) => SECRET_TERM.test(a)) && searchesOutside(v, home)) {
    return consumed(v)
      ? [deny('data_exfiltration', `${v.name} hunts for passwords, keys or tokens outside the workspace and hands what it finds on`)]
      : [ask('data_exfiltration', `${v.name} searches outside the workspace for passwords, keys or tokens`)];
  }
  if (LISTS_OR_EDITS.test(v.name)) return [];
  const p = appData(v, home);
  return p ? [ask('data_exfiltration', `${v.name} reads an application's own data in the home folder (${p}): tokens, vaults, messages and history live there`)] : [];
}

// The fail-safe for programs no rule knows. Such a program is allowed with ordinary arguments
// (file names, words, numbers), but it may do anything with what it is handed, so it asks — never
// allows — when an argument carries something only a program that reaches out would need: a URL to
// a host outside the default sandbox allowlist, a remote path (`user@host:path`), a Windows drive or
// network-share path, an encoded blob that decodes to text (base64 or hex of a meaningful length),
// or a system file outside the workspace. Shell text in its arguments is judged like a command
// (command-staged.ts, argumentCommandFindings); credential stores and start-up files anywhere in
// its arguments are command-paths.ts. Programs the rules do know judge these arguments themselves.
import { DEFAULT_ALLOWED_DOMAINS } from './run/allowed-domains';
import { takesCode } from './command-code';
import { codeFinding } from './command-rules-code';
import { runnerKnows } from './command-runners';
import { INTERPRETERS, isLoopbackUrl, PACKAGE_MANAGERS, SHELLS, ask, hostOf, type Finding, type SegmentView } from './command-view';
import { secretsConcerns } from './command-rules-secrets';
import { stateConcerns } from './command-rules-state';
import { windowsConcerns } from './command-rules-windows';
import { has } from './command-strings';

/**
 * Programs whose rules judge URLs, remotes, encoded text or system paths in their arguments (network
 * clients, version control, package, container, cluster and cloud tools, editors and viewers, and
 * the core utilities the rules read option by option).
 */
const KNOWN = new Set([
  'curl', 'wget', 'wget2', 'http', 'https', 'xh', 'httpie', 'aria2c', 'axel', 'lftp', 'fetch', 'curlie', 'nc', 'ncat', 'netcat', 'socat', 'telnet', 'openssl', 'ssh', 'scp', 'sftp', 'rsync', 'ftp', 'tftp', 'rclone', 's3cmd',
  'mosh', 'ping', 'ping6', 'dig', 'nslookup', 'host', 'whois', 'traceroute', 'mtr', 'tracepath', 'ab', 'wrk', 'hey', 'k6', 'vegeta', 'siege', 'grpcurl', 'websocat', 'wscat', 'ssh-keyscan', 'ssh-copy-id', 'sshpass',
  'git', 'hg', 'svn', 'gh', 'glab', 'hub', 'tea', 'git-lfs', 'repo', 'docker', 'podman', 'nerdctl', 'buildah', 'skopeo', 'crane', 'oras', 'ctr', 'crictl', 'docker-compose', 'kubectl', 'oc', 'helm', 'kustomize', 'k9s', 'kind', 'minikube', 'k3d', 'stern', 'argocd', 'flux', 'istioctl', 'linkerd', 'skaffold', 'tilt', 'kubeseal', 'vault', 'consul', 'nomad',
  'aws', 'gcloud', 'gsutil', 'bq', 'az', 'azcopy', 'doctl', 'fly', 'flyctl', 'heroku', 'vercel', 'netlify', 'railway', 'render', 'wrangler', 'firebase', 'supabase', 'terraform', 'tofu', 'terragrunt', 'pulumi', 'cdk', 'cdktf', 'packer', 'ansible', 'ansible-playbook', 'ansible-galaxy', 'vagrant', 'serverless', 'sls', 'sam', 'eksctl', 'ibmcloud', 'oci',
  'psql', 'mysql', 'mariadb', 'mongo', 'mongosh', 'redis-cli', 'sqlcmd', 'clickhouse-client', 'cqlsh', 'usql', 'pgcli', 'mycli', 'sqlite3', 'duckdb', 'pg_dump', 'pg_restore', 'mysqldump', 'migrate', 'flyway', 'liquibase', 'prisma',
  'code', 'code-insiders', 'cursor', 'open', 'xdg-open', 'start', 'explorer', 'firefox', 'chromium', 'google-chrome', 'lynx', 'w3m', 'links', 'vim', 'nvim', 'vi', 'emacs', 'nano',
  'pip', 'pip3', 'npm', 'npx', 'pnpm', 'yarn', 'bun', 'deno', 'go', 'cargo', 'rustup', 'gem', 'bundle', 'composer', 'mvn', 'gradle', 'sbt', 'dotnet', 'nuget', 'swift', 'flutter', 'dart', 'conda', 'mamba', 'uv', 'uvx', 'poetry', 'pdm', 'pipx', 'pipenv', 'nix', 'brew', 'apt', 'apt-get', 'snap', 'flatpak', 'winget', 'choco', 'scoop', 'sdk', 'asdf', 'mise', 'nvm', 'fnm', 'volta', 'corepack', 'jsr', 'vcpkg', 'conan', 'bazel', 'buck2', 'pants', 'lerna', 'nx', 'turbo',
  'echo', 'printf', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'sed', 'awk', 'gawk', 'jq', 'yq', 'cat', 'less', 'more', 'head', 'tail', 'ls', 'cd', 'find', 'xargs', 'cp', 'mv', 'rm', 'ln', 'install', 'mkdir', 'touch', 'chmod', 'chown', 'tar', 'zip', 'unzip', 'base64', 'xxd', 'od', 'hexdump', 'gpg', 'age', 'sops', 'tee', 'dd', 'file', 'stat', 'wc', 'sort', 'uniq', 'cut', 'tr', 'diff', 'test', 'env', 'export', 'sudo', 'doas', 'nohup', 'timeout', 'time', 'watch', 'parallel', 'kill', 'ps', 'crontab', 'systemctl', 'journalctl', 'man', 'which', 'type',
  // Windows and macOS administration (command-rules-admin.ts reads these by verb and key).
  'reg', 'bcdedit', 'wevtutil', 'auditpol', 'vssadmin', 'wbadmin', 'wmic', 'sc', 'net', 'takeown', 'icacls', 'cacls', 'cipher', 'schtasks', 'tmutil', 'nvram', 'sysadminctl', 'dscl', 'dseditgroup', 'fdesetup', 'systemsetup', 'xattr', 'profiles', 'defaults', 'plutil', 'launchctl', 'security', 'osascript', 'format', 'choco', 'winget', 'scoop',
  'yt-dlp', 'youtube-dl', 'ffmpeg', 'ffprobe', 'pandoc', 'hugo', 'jekyll', 'mkdocs', 'sphinx-build', 'docusaurus', 'lighthouse', 'playwright', 'cypress', 'puppeteer', 'newman', 'httpx', 'ngrok', 'cloudflared', 'tailscale', 'nmap', 'nikto', 'sqlmap', 'ffuf', 'gobuster', 'hydra', 'nuclei', 'trivy', 'grype', 'syft', 'cosign', 'snyk', 'semgrep', 'gitleaks', 'trufflehog',
]);

/** Hosts a URL may name without a question: this machine, and the registries and git hosts the sandbox admits by default. */
export function isAllowedHost(url: string): boolean {
  if (isLoopbackUrl(url)) return true;
  const host = (hostOf(url) ?? '').toLowerCase();
  return DEFAULT_ALLOWED_DOMAINS.some((d) => host === d || host.endsWith(`.${d}`));
}

/** The text a base64 or hex word decodes to, when it is printable text (a hash or a random token is not). */
export function decodedText(word: string): string | undefined {
  let bytes: Buffer | undefined;
  if (/^(0x)?[0-9a-f]{32,}$/i.test(word) && word.replace(/^0x/i, '').length % 2 === 0) bytes = Buffer.from(word.replace(/^0x/i, ''), 'hex');
  else if (word.length >= 24 && /^[A-Za-z0-9+/]+={0,2}$/.test(word) && word.length % 4 === 0 && /[0-9+/]/.test(word) && /[a-z]/.test(word) && /[A-Z]/.test(word)) bytes = Buffer.from(word, 'base64');
  else if (word.length >= 24 && /^[A-Za-z0-9_-]+$/.test(word) && /[a-z]/.test(word) && /[A-Z]/.test(word) && /\d/.test(word)) bytes = Buffer.from(word, 'base64url');
  if (!bytes || bytes.length < 12) return undefined;
  // PowerShell's encoded commands are UTF-16: every other byte is zero.
  const utf16 = bytes.length % 2 === 0 && bytes.every((b, i) => i % 2 === 0 || b === 0);
  const text = utf16 ? bytes.toString('utf16le') : bytes.toString('latin1');
  const printable = [...text].filter((c) => /[\x09\x0a\x0d\x20-\x7e]/.test(c)).length;
  return printable / text.length >= 0.95 && /[a-z]{3}|[\s;|&/]/i.test(text) ? text : undefined;
}

/** System files and folders outside any workspace: configuration, programs, boot and kernel. */
const SYSTEM_FILE = /^\/(etc|boot|bin|sbin|lib|lib32|lib64|usr\/(bin|sbin|lib|libexec|share\/(polkit|dbus)|local\/(bin|sbin|lib))|var\/(lib|spool|log|run|db)|System|Library|private\/(etc|var))(\/|$)/;

/** Answers per program name: the rule below runs on every argv, and the answer depends on the name alone. */
const UNKNOWN = new Map<string, boolean>();

/** Whether no rule judges `name` by its arguments. */
export function isUnknownProgram(name: string): boolean {
  let unknown = UNKNOWN.get(name);
  if (unknown === undefined) {
    if (UNKNOWN.size >= 2000) UNKNOWN.clear(); // names come from commands: keep the table bounded
    UNKNOWN.set(name, unknown = lookedUp(name));
  }
  return unknown;
}

function lookedUp(name: string): boolean {
  return !KNOWN.has(name) && !INTERPRETERS.has(name) && !PACKAGE_MANAGERS.has(name) && !SHELLS.has(name) && !runnerKnows(name) && !windowsConcerns(name)
    && !secretsConcerns(name) && !stateConcerns(name) && !takesCode(name);
}

/** What one argument of an unknown program carries that only a program reaching out would need. */
function carried(a: string): string | undefined {
  const value = /^--?[\w.-]+=(.+)$/.exec(a)?.[1] ?? a;
  const url = /\b([a-z][\w+.-]*:\/\/[^\s'"]+)/i.exec(value)?.[1];
  if (url && !/^file:/i.test(url) && !isAllowedHost(url)) return `a URL to another host (${url.slice(0, 80)})`;
  if (/^(javascript|vbscript|data):/i.test(value)) return `a ${value.split(':')[0]}: address that runs code`;
  if (/^[\w.-]+@[\w.-]+:(?!\d+$)/.test(value) || /^[a-z][\w-]*(\.[\w-]+)+:\/(?!\/)/i.test(value)) return `a path on another machine (${value.slice(0, 80)})`;
  if (/^\\\\[^\\\s]+\\/.test(value) || /^[a-z]:[\\/]/i.test(value) || /%(userprofile|appdata|localappdata|temp|tmp|systemroot|windir|programdata|public)%/i.test(value)) return `a Windows drive or network-share path (${value.slice(0, 80)})`;
  if (value.length >= 24 && !value.includes('/') && decodedText(value) !== undefined) return `an encoded blob (${value.slice(0, 24)}…) that decodes to text`;
  if (SYSTEM_FILE.test(value)) return `a system file (${value})`;
  return undefined;
}

/** Options that hand a program code to evaluate, in most languages and tools (`-e`, `-c`, `--eval`, `--exec` …). */
const CODE_OPTION = /^(-e|-c|-x|-r|-E|--eval|--exec|--execute|--command|--run|--script|--code|--expr|--expression)$/;

/** A program no rule knows asks when one of its arguments carries what `carried` names, or code to evaluate. */
export function unknownProgramRules(v: SegmentView): Finding[] {
  if (!isUnknownProgram(v.name)) return [];
  for (let i = 0; i < v.args.length; i++) {
    const w = v.words[i];
    if (w?.dynamic && !/:\/\//.test(v.args[i])) continue;
    // An unquoted Windows path keeps its backslashes in the source (`C:\Temp\x` reaches the program as `C:Tempx` only in a POSIX shell).
    const what = carried(w && has(w.raw, '\\') && !/['"$`]/.test(w.raw) ? w.raw : v.args[i]);
    if (what) return [ask(/URL|another machine/.test(what) ? 'data_exfiltration' : 'code_injection', `${v.name}, a program the rules do not know, is handed ${what}`)];
    const opt = /^(--[\w-]+)=([\s\S]+)$/.exec(v.args[i]);
    const code = opt && CODE_OPTION.test(opt[1]) ? opt[2] : CODE_OPTION.test(v.args[i]) ? v.args[i + 1] : undefined;
    if (code && /[\s(;{}%$`]/.test(code.trim())) {
      const found = codeFinding(v.name, 'generic', code);
      return [found ?? ask('inline-code', `${v.name}, a program the rules do not know, is handed code to evaluate`)];
    }
  }
  return [];
}

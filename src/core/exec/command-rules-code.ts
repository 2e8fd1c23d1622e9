// The judge's view of inline code (see command-code.ts for where it is found): the recognisably
// hostile is denied, the recognisably harmless runs, the rest asks. What such code hands to a shell
// has already become segments of its own (the parser lifts literal command lines out), so this file
// judges what the code does by itself.
import { findsCode, inlineCode, stdinLanguage, type InlineCode } from './command-code';
import { hugeAllocation } from './command-code-size';
import { SECRET_VAR } from './command-rules-secrets';
import { ask, deny, type Finding, type SegmentView } from './command-view';

const SOCKET = /socket|\/dev\/tcp|\/dev\/udp|fsockopen|TCPSocket|UDPSocket|IO::Socket|net\.connect|net\.Socket|createConnection|createServer|\bpty\b|dup2|websocket|Net::Telnet|stream_socket_client|connectTCP|listen\s*\(/i;
const FORK_LOOP = /((?:\b|_)fork\b[\s\S]*\b(while|for|loop|until|repeat)\b|\b(while|for|loop|until|repeat)\b[\s\S]*(?:\b|_)fork\b|for\s*\(\s*;\s*;\s*\)[\s\S]*fork|fork\(\)\s*while|fork\s+while|fork\s+until|(spawn|Popen|child_process|exec)[\s\S]*\b(while\s*\(?\s*(true|1|True)|for\s*\(\s*;\s*;\s*\))|setInterval\s*\([\s\S]*(spawn|fork|exec)|(while\s*\(?\s*(true|1|True)\s*\)?|for\s*\(\s*;\s*;\s*\))[\s\S]{0,120}?(\bspawn\w*\s*\(|\bPopen\s*\(|\bsystem\s*\(|\bfork\s*\(|\bexec(Sync|File)?\s*\(|Process\.Start))/;
/** Memory or disk filled on purpose: an endless loop that keeps appending, or a buffer, string or write of 10^11 bytes and more. */
const MEMORY_BOMB = /(while\s*\(?\s*(1|true|True)\s*\)?\s*[:{]?|for\s*\(\s*;\s*;\s*\)|\bloop\s*\{|while\s+1\b)[\s\S]{0,80}?(\.(append|push|extend|concat)\s*\(|\+=|alloc)|(bytearray|alloc|allocUnsafe|Array|zeros|ones|b?["'][^"']{0,4}["']\s*\*|\bx)\s*\(?\s*(10\s*\*\*\s*(1[1-9]|[2-9]\d)|1e(1[1-9]|[2-9]\d)|2\s*\*\*\s*([4-9]\d))/;

/** The whole environment, not one variable of it. */
const ENV_DUMP = /(^\s*\$?env\s*$|[(,]\s*ENV\s*[),]|%\*ENV\b|\$ENV\b(?!\.\w*(PATH|HOME|USER|SHELL|LANG|TERM|PWD)\b)|\benv\s*\(\s*\w*(TOKEN|SECRET|KEY|PASS)|for\s*\(\s*\w+\s*,\s*\w+\s*\)\s*in\s*ENV|System\.getenv\s*\(\s*\)|System\.get_env\s*\(\s*\)|os:getenv\s*\(\s*\)|getenv\s*\)|environment\s*\(\s*\)|os\.environ(?!\s*(\.get\s*\(|\[|\.setdefault|\.pop|\.update))|os\.getenv\s*\(\s*\)|dict\s*\(\s*os\.environ|process\.env(?!\s*(\.[A-Za-z_]|\[))|Deno\.env\.toObject|Bun\.env(?!\s*(\.[A-Za-z_]|\[))|%ENV|keys\s+%ENV|\bENV\.(to_h|to_a|each|inspect|keys|values|map|select|sort|filter)|\b(p|puts|pp|print)\s+ENV\b|getenv\s*\(\s*\)|\$_ENV(?!\s*\[)|\$_SERVER(?!\s*\[)|Sys\.getenv\s*\(\s*\)|for\s*\(\s*\w+\s+in\s+ENVIRON\s*\)|\bENVIRON\s*\)|environ\s*\)|os\.environ\.(items|keys|values|copy)|Object\.(keys|entries|values)\s*\(\s*process\.env)/;
const DELETE = /(\.(rmSync|rmdirSync|unlinkSync|rm|rmdir|unlink)\s*\(|\b(rmSync|rmdirSync|unlinkSync|remove_tree|rmtree|remove_dir|remove_dir_all|rm_rf|rm_r)\s*\(|\bunlink\b[^;]*\bglob\s*\(|shutil\.rmtree|os\.(remove|unlink|rmdir|removedirs)|\.unlink\s*\(|\.rmdir\s*\(|rmtree|fs\.(rm|rmSync|rmdir|rmdirSync|unlink|unlinkSync)|\brimraf\b|FileUtils\.(rm|rm_r|rm_rf|remove_dir|remove_entry)|File\.delete|Dir\.(delete|rmdir)|\bunlink\b|remove_tree|rmtree|\bunlink\s*\(|file\.remove|Deno\.remove|\bos\.remove|rm\s+-r|RemoveAll|REMOVE_RECURSE|delete-directory|removeDir|rm\s*\(|rm_rf|Remove-Item|rmdir\s*\(|deleteRecursively|delete_dir)/;
/** Places outside the workspace a deletion must not reach: the root, the home folder, system folders, parents. */
const OUTSIDE = /(['"`]\s*(\/|~|\/(etc|usr|bin|var|home|root|boot|opt|Users|System|Library)\b[^'"`]*|\/(?!tmp\/|var\/tmp\/|dev\/shm\/)[^'"`]*|\.\.(\/[^'"`]*)?)\s*['"`]|expanduser|Path\.home|homedir\s*\(|os\.homedir|\$HOME|Getenv\(\s*"HOME|getHomeDir|user_home|\{homedir\}|homedir|HOME\)|\$ENV\{HOME\}|ENV\[['"]HOME|getenv\s*\(\s*['"]HOME|Dir\.home|\benv\.HOME\b|HOMEPATH|USERPROFILE|['"]HOME['"]|path\.expand\(\s*['"]~)/;
const UPLOAD = /(requests\.(post|put|patch)|httpx\.(post|put|patch)|urlopen\s*\([^)]*data\s*=|urllib\.request\.Request\([^)]*data|method\s*[:=]\s*['"](POST|PUT|PATCH)['"]|axios\.(post|put|patch)|\.post\s*\(|Net::HTTP\.post|Net::HTTP::Post|LWP::UserAgent|HTTP::Request::Common|curl_exec|smtplib|ftplib|paramiko|sendmail|nodemailer|http\.client|https?\.request\s*\(|file_put_contents\s*\(\s*['"]https?:|fetch\s*\([^)]*(POST|PUT|body)|XMLHttpRequest|upload|dns\.resolve|gethostbyname\s*\([^)]*(\+|\$|%|format|\{))/i;
const NETWORK = /(urllib|requests\.|httpx|http\.client|http\.get|https\.get|fetch\s*\(|axios|Net::HTTP|LWP::|open-uri|URI\.open|file_get_contents\s*\(\s*['"]https?:|curl_init|download\.file|url\s*\(|HTTP\.jl|Downloads\.download|socket)/i;
const CREDENTIAL = /(\.ssh\/(id_|.*_key\b|authorized_keys)|\.aws\/(credentials|config)|\.config\/gh\/|\.docker\/config\.json|\.kube\/config|\.netrc|\.npmrc|\.pypirc|\.git-credentials|\.gnupg|\/etc\/(shadow|gshadow|sudoers)|\/proc\/[^'"`\s]*\/environ|\.password-store|Keychains|keyring|Cookies|Login Data|\.mozilla\/firefox|google-chrome|\.vault-token|\.pgpass|['"/\s]\.env(\.[\w-]+)?['"\s])/;
const PERSIST = /(\.bashrc|\.bash_profile|\.profile|\.zshrc|\.zprofile|\.zshenv|config\.fish|crontab|\/etc\/cron|\/var\/spool\/cron|authorized_keys|LaunchAgents|\.config\/autostart|systemd\/user|\.git\/hooks)/;
/** A system file named in code: configuration, programs, libraries, boot files. */
const SYSTEM_FILE = /['"`]\/(etc|usr|boot|bin|sbin|lib|lib64|var\/lib|System|Library)\//;
/** Records of what was typed: the shells', REPLs' and PowerShell's history files. */
const HISTORY = /(\.(bash|zsh|sh|python|node_repl|psql|mysql|sqlite|lesshst|irb|rediscli)_history|fish_history|ConsoleHost_history)/;
const TRUNCATE = /\b(truncate(Sync)?|ftruncate|File\.truncate|os\.truncate)\s*\(/;
const WRITE = /(open\s*\([^)]*,\s*['"][wax+]|write_text|write_bytes|writeFile|appendFile|createWriteStream|File\.(write|open\([^)]*['"][wa])|IO\.write|file_put_contents|>>|print\s*\{?\s*\$?\w+\s*\}?|fwrite|writeLines|\bprintf?\b[^;{}\n]*?[^>=<!]>(?![=>])|cat\s*\([^)]*file\s*=|\bwrite\s*\()/;
const EXEC = /\b(os\.system|os\.popen|os\.exec\w*|os\.spawn\w*|subprocess|child_process|execSync|spawnSync|execFileSync|exec[lv]p?e?\s*\(|system2?\s*\(|popen|Runtime\.getRuntime|qx\s*[{(]|\bexec\s*\(|shell_exec|passthru|proc_open|pcntl_exec|os\.execute|io\.popen|Kernel\.|IO\.popen|Open3|Deno\.(run|Command)|Bun\.spawn|\brun\s*\(\s*`|pty\.spawn|ctypes|cffi|dlopen|ffi\b|getline)|`[^`]+`|%x[{([]/;
const DYNAMIC_CODE = /\b(eval|exec|compile|__import__|importlib|getattr|globals|locals|vars|Function\s*\(|new\s+Function|vm\.run|require\s*\(\s*[^'"`)]|import\s*\(|(?<![.\w])load\s*\(|loadstring|dofile|instance_eval|class_eval|send\s*\(|public_send|const_get|create_function|assert\s*\(|preg_replace.*\/e|base64|b64decode|fromCharCode|unescape|decode\s*\(|marshal|pickle|\\x[0-9a-f]{2})/i;
/** Modules whose import alone does nothing outside the process. */
const SAFE_IMPORT = /^(sys|json|math|cmath|platform|re|datetime|time|random|string|collections|itertools|functools|decimal|fractions|statistics|textwrap|pprint|uuid|hashlib|struct|keyword|sysconfig|site|operator|enum|typing|dataclasses|calendar|locale|unicodedata|html|difflib|bisect|heapq|array|copy|numbers|zlib|binascii|secrets|csv|tomllib|yaml|toml|numpy|pandas|np|pd|sklearn|scipy|torch|tensorflow|matplotlib|django|flask|fastapi|pydantic|requests_toolbelt|certifi|ssl|sqlite3|importlib\.metadata|pkg_resources|setuptools|pip|wheel|Data::Dumper|JSON|JSON::PP|List::Util|POSIX|strict|warnings|utf8|Time::HiRes|Digest::MD5|Digest::SHA|Scalar::Util|openssl|securerandom|digest|date|time|set|pp|bigdecimal|benchmark|os\.path)$/;

/** Node: `require('x')`/`import('x')` of modules that only compute; `fs` reads are judged by path below. */
const SAFE_REQUIRE = /^(path|util|os|crypto|assert|url|querystring|string_decoder|buffer|events|zlib|semver|\.\/package\.json|\.\.?\/[\w./-]+\.json|typescript|esbuild|lodash|chalk|node:path|node:util|node:os|node:crypto|node:assert|node:url|node:buffer|node:events|node:zlib)$/;

/** codeRules finds code only for a program whose family takes some (see RULES in command-dispatch.ts). */
export const codeConcerns = findsCode;

export function codeRules(v: SegmentView): Finding[] {
  const codes: InlineCode[] = inlineCode(v.name, v.args);
  const lang = stdinLanguage(v.name, v.args);
  if (lang) for (const h of v.seg.heredocs) codes.push({ lang, code: h });
  for (const r of v.seg.redirects) if (lang && r.op === '<<<') codes.push({ lang, code: r.target.text });
  const f: Finding[] = [];
  for (const c of codes) f.push(...classify(v.name, c));
  return f;
}

/** The verdict on code in a file a command wrote and then runs (command-staged.ts). */
export function codeFinding(name: string, lang: string, code: string): Finding | undefined {
  return classify(name, { lang, code })[0];
}

function classify(name: string, c: InlineCode): Finding[] {
  const code = c.code;
  if (code === '\0file') return [ask('code_injection', `${name} reads commands from a file the policy does not read`)];
  if (SOCKET.test(code) && c.lang !== 'sqlite' && c.lang !== 'tex') return [deny('reverse_shell', `${name} code opens a socket, a listener or a pty`)];
  if (FORK_LOOP.test(code)) return [deny('destructive_ops', `${name} code starts processes in a loop (fork bomb)`)];
  if (MEMORY_BOMB.test(code) || hugeAllocation(code)) return [deny('destructive_ops', `${name} code fills the memory or the disk (an endless loop that keeps what it makes, or a size of terabytes)`)];
  if (ENV_DUMP.test(code) || secretEnvRead(code)) return [deny('env_dump', `${name} code prints or collects environment secrets`)];
  if (CREDENTIAL.test(code)) return [deny('data_exfiltration', `${name} code reads credentials (keys, tokens, keychains, system secrets)`)];
  if (DELETE.test(code) && OUTSIDE.test(code)) return [deny('destructive_ops', `${name} code deletes files outside the workspace`)];
  if (UPLOAD.test(code) && !/localhost|127\.0\.0\.1/.test(code)) return [deny('data_exfiltration', `${name} code sends data to another host`)];
  if (PERSIST.test(code) && WRITE.test(code)) return [deny('persistence', `${name} code writes a start-up file, a scheduled job or login keys`)];
  if (SYSTEM_FILE.test(code) && (WRITE.test(code) || TRUNCATE.test(code))) return [deny('destructive_ops', `${name} code writes or empties a system file`)];
  if (HISTORY.test(code) && (WRITE.test(code) || TRUNCATE.test(code) || DELETE.test(code))) return [deny('destructive_ops', `${name} code erases or rewrites the shell history`)];
  if (c.lang === 'tex' && code.startsWith('\0escape')) return [ask('code_injection', `${name} --shell-escape lets the document run commands`)];
  if (harmless(c)) return [];
  if (EXEC.test(code)) return [ask('code_injection', `${name} code runs other programs`)];
  if (DELETE.test(code)) return [ask('destructive_ops', `${name} code deletes files`)];
  if (NETWORK.test(code)) return [ask('data_exfiltration', `${name} code talks to the network`)];
  return [ask('inline-code', `${name} runs inline code that does more than the judge recognises as harmless`)];
}

function secretEnvRead(code: string): boolean {
  const names = [...code.matchAll(/(?:environ(?:\.get)?\s*[[(]\s*|getenv\s*\(\s*|process\.env\.|process\.env\[\s*|ENV\[\s*|\$ENV\{\s*|Sys\.getenv\(\s*|ENVIRON\[\s*)['"]?([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]);
  return names.some((n) => SECRET_VAR.test(n));
}

/**
 * Recognisably harmless: awk without commands, pipes or file output; python/node/ruby/perl/php that
 * imports only computing modules, reads no file but through stdin, runs nothing and builds no code.
 */
function harmless(c: InlineCode): boolean {
  const code = c.code;
  if (c.lang === 'awk') {
    const bare = code.replace(/"(?:\\.|[^"\\])*"/g, '""').replace(/\/(?:\\.|[^/\\\n])*\//g, '//');
    return !/\bsystem\s*\(|getline|ENVIRON|PROCINFO|@load|\|&/.test(bare) && !/\bprintf?\b[^;{}]*?(>>?|\|)\s*["\w$(]/.test(bare) && !/(^|[^|])\|(?!\|)/.test(bare);
  }
  if (c.lang === 'sqlite') return !/^\s*\.(shell|system|load|output|once|import|save|backup|restore|open|read|cd|log|excel)\b/m.test(code) && !/\b(load_extension|writefile|edit|readfile|fts3_tokenizer|ATTACH)\b/i.test(code);
  if (c.lang === 'gdb') return !/^\s*(shell|!|pipe|python|py|pi|source|guile|call|print\s.*system|dump|restore|generate-core-file|gcore|attach|target)\b/.test(code);
  // TeX that neither runs programs nor opens a file outside the workspace (`\input{chapter1}`).
  if (c.lang === 'tex') return !code.startsWith('\0escape') && !/\\(write18|immediate|openout|openin\d*\s*=?\s*[/~.])/.test(code) && !/\\(input|include|openin\d*|verbatiminput|lstinputlisting|includegraphics)\s*(\[[^\]]*\])?\s*[{=]?\s*(\/|~|\.\.)/.test(code);
  if (c.lang === 'powershell') return readOnlyPowerShell(code);
  if (c.lang === 'generic' || c.lang === 'make' || c.lang === 'm4' || c.lang === 'tex' || c.lang === 'applescript' || c.lang === 'tcl') return false;
  if (EXEC.test(code) || DYNAMIC_CODE.test(code) || NETWORK.test(code) || DELETE.test(code)) return false;
  if (/\b(open|fopen|File\.|IO\.|Dir\.|readFile|readFileSync|writeFile|createReadStream|Path\s*\(|pathlib|shutil|glob|os\.(listdir|walk|scandir|chmod|chown|rename|replace|makedirs|mkdir|symlink|link|kill|setuid)|fs\.|Deno\.|Bun\.(file|write)|io\.open|readlines|file_get_contents|file\(|opendir|unlink|rename|chmod|mkdir|symlink|socket|kill|signal|setuid|ctypes|mmap|resource|threading|multiprocessing|asyncio|while\s+(True|1)|for\s*\(\s*;\s*;)/.test(code) || /iter\s*\(\s*int\s*,|\*\*\s*\d{2,}|\*\s*10\s*\*\*|itertools\.count|repeat\s*\(\s*\)/.test(code) && /append|extend|\*/.test(code)) {
    if (/iter\s*\(\s*int\s*,|itertools\.count|\*\*\s*\d{2,}/.test(code)) return false;
    // Reading one named file inside the workspace (`json.load(open('package.json'))`) is fine.
    const paths = [...code.matchAll(/\b(?:open|readFileSync|readFile|File\.read|IO\.read|file_get_contents|io\.open)\s*\(\s*(['"])([^'"]+)\1\s*\)/g)].map((m) => m[2]);
    const other = code.replace(/\b(?:open|readFileSync|readFile|File\.read|IO\.read|file_get_contents|io\.open)\s*\(\s*(['"])([^'"]+)\1\s*\)/g, '').replace(/\b(require|import)\s*\(\s*['"](node:)?fs['"]\s*\)/g, '');
    if (!paths.length || paths.some((p) => /^(\/|~|\.\.)/.test(p) || /\.\.\//.test(p)) || /\b(open|fopen|File\.|IO\.|Dir\.|readFile|writeFile|fs\.|pathlib|shutil|os\.\w+\(|unlink|rename|chmod|mkdir|symlink|socket|kill|while\s+(True|1))/.test(other)) return false;
  }
  for (const m of code.matchAll(/\b(?:import|from)\s+([\w.]+(?:\s*,\s*[\w.]+)*)/g)) {
    if (c.lang !== 'python') continue;
    if (m[1].split(/\s*,\s*/).some((x) => !SAFE_IMPORT.test(x))) return false;
  }
  // ES imports as require(): `fs` only for the reads of named workspace files checked above.
  for (const m of code.matchAll(/\bimport\s[^;'"]*?\bfrom\s*['"]([^'"]+)['"]/g)) if (!SAFE_REQUIRE.test(m[1]) && !SAFE_IMPORT.test(m[1]) && !/^(node:)?fs$/.test(m[1])) return false;
  for (const m of code.matchAll(/\b(?:require|import)\s*\(?\s*['"]([^'"]+)['"]/g)) if (!SAFE_REQUIRE.test(m[1]) && !SAFE_IMPORT.test(m[1])) return false;
  for (const m of code.matchAll(/\buse\s+([\w:]+)/g)) if (c.lang === 'perl' && !SAFE_IMPORT.test(m[1])) return false;
  if (c.lang === 'perl' && /<\s*[A-Z$]\w*\s*>|\bopen\b|-[rwxedfs]\s+['"$]/.test(code.replace(/<STDIN>|<>/g, ''))) return false;
  if (c.lang === 'node' && /process\.(kill|exit\s*\(\s*[^0)]|chdir|setuid|dlopen|binding|mainModule)|module\.constructor|global\s*\[/.test(code)) return false;
  return true;
}

/** PowerShell commands that only read and format (`Get-Date`, `Get-ChildItem | Sort-Object Name`), and their common aliases. */
const PS_READ = /^(get|select|where|sort|format|measure|test|compare|group|convertto|convertfrom|resolve|split|join)-[a-z]+$|^(out-string|out-host|write-output|write-host|foreach-object)$|^(ls|dir|gci|cat|gc|pwd|echo|gl|gps|gsv|ft|fl|%|\?)$/i;

/** Read-only PowerShell: every statement starts with a reading cmdlet, and nothing is evaluated, created or called through .NET. */
function readOnlyPowerShell(code: string): boolean {
  if (/\benv:|\biex\b|invoke-|\$\(|::|\[[a-z.]+\]|-comobject|new-object|add-type|\bstart-|&\s*["'$({]|(^|[;|])\s*\.\s+\S/i.test(code)) return false;
  return code.split(/[;|\n]/).every((st) => PS_READ.test(st.trim().split(/\s+/)[0] ?? '') || !st.trim());
}

// Scrub rules recognised by the secret's own shape (vendor prefixes, PEM armour, URL userinfo),
// plus the ordered list of every static rule.
//
// Linear time on hostile input is a design constraint of every rule here and in scrub-keywords.ts:
// a rule can only start at its anchor and only after its left boundary holds (so it cannot start
// at every position of a long run), and each of its runs is either bounded ({0,128}, {8,512},
// {0,16384}) or comes last with nothing after it that can fail, so a started match never
// backtracks over a long run. test/unit/guard/scrub-hostile.test.ts holds each rule to that.
import { KEYWORD_GUARD, KEYWORD_RULES } from './scrub-keywords';
import { escapeRegExp, type ScrubRule } from './scrub-rule';

/** Not preceded by a token character: `sk-` inside `task-`, `AIza` inside a base64 digest are not keys. */
const TOKEN_CHAR = '[A-Za-z0-9_+/-]';

/**
 * A vendor token shape. The match starts at `anchor`, a character of the prefix chosen so that a
 * literal follows it (`k` then `-` for `sk-`, `g` then `h[pousr]_` for `ghp_`): V8 turns away an
 * anchor hit by that preloaded comparison for ~4 ns, where an attempt that reaches a lookaround
 * costs ~30 ns (measured). Only then does a lookbehind check the whole prefix and its boundary.
 * The prefix stays visible (`ghp_[REDACTED]`, `AKIA[REDACTED]`): it names the kind of key, not the key.
 */
function shape(name: string, prefix: string, anchor: string, anchorRest: string, rest: string, notBefore = TOKEN_CHAR): ScrubRule {
  const boundary = notBefore ? `(?<!${notBefore})` : '';
  return { name, anchor, source: `(?<${name}L>${anchorRest})(?<=${boundary}${prefix})${rest}` };
}

const SHAPES: readonly ScrubRule[] = [
  // OpenAI (sk-…, sk-proj-…) and Anthropic (sk-ant-api03-…).
  shape('openai', 'sk-', 'k', '-', '[A-Za-z0-9_-]{20,}'),
  // Slack webhook URLs: the host and path prefix stay, the secret path goes.
  shape('hook', 'hooks\\.slack\\.com/services/', 'k', '\\.com/services/', '[A-Za-z0-9/_-]{8,}', ''),
  // GitLab personal access tokens.
  shape('gitlab', 'glpat-', 'g', 'lpat-', '[A-Za-z0-9_-]{20,}'),
  // Google OAuth client secrets, access tokens and API keys; JWTs (base64url of a JSON header
  // `{"…` always starts `eyJ`; header.payload.signature, the signature may be empty).
  shape('gcsecret', 'GOCSPX-', 'X', '-', '[0-9A-Za-z_-]{20,}'),
  shape('goauth', 'ya29\\.', 'y', 'a29\\.', '[0-9A-Za-z_-]{20,}'),
  shape('jwt', 'eyJ', 'y', 'J', '[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]*', '[A-Za-z0-9_-]'),
  shape('gapi', 'AIza', 'z', 'a', '[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])'),
  // Slack bot/user/app tokens.
  shape('slack', '(?:xox[abposer]|xapp)-', 'x', '(?:ox[abposer]|app)-', '[0-9A-Za-z-]{10,}'),
  // AWS access key ids (long-term AKIA, STS ASIA); SendGrid SG.<22>.<43>.
  shape('aws', 'A[KS]IA', '[KS]', 'IA', '[A-Z0-9]{16}(?![A-Za-z0-9])'),
  shape('sendgrid', 'SG\\.', '[KS]', 'G\\.', '[0-9A-Za-z_-]{16,32}\\.[0-9A-Za-z_-]{16,64}'),
  // Stripe secret and restricted keys (live and test).
  shape('stripe', '[rs]k_(?:live|test)_', '_', '(?:live|test)_', '[A-Za-z0-9]{16,}'),
  // The rest of the `_` group behind one guard: `_` is rare, so here a lookbehind attempt at each
  // `_` (~30 ns) costs less than quick checks at each of five lowercase anchor letters.
  // Stripe webhook secrets; GitHub classic (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained tokens;
  // npm; Hugging Face.
  ...[
    shape('whsec', 'whsec_', '_', '', '[A-Za-z0-9+/=]{24,}'),
    shape('github', 'gh[pousr]_', '_', '', '[A-Za-z0-9]{36,}'),
    shape('ghpat', 'github_pat_', '_', 'pat_', '[A-Za-z0-9_]{22,}'),
    shape('npm', 'npm_', '_', '', '[A-Za-z0-9]{36}(?![A-Za-z0-9])'),
    shape('hf', 'hf_', '_', '', '[A-Za-z0-9]{30,}'),
  ].map((r) => ({ ...r, guard: '(?<=(?:ec|h[pousr]|ub|pm|hf)_)' })),
];

/** Azure storage / service bus connection strings. */
const azureRule: ScrubRule = {
  name: 'azure',
  anchor: '[:=]',
  guard: KEYWORD_GUARD,
  source: '(?<=(?<![A-Za-z0-9])(?:AccountKey|SharedAccessKey)=)[A-Za-z0-9+/=]{16,}',
};

/**
 * `scheme://user:password@host`: scheme, user and host stay. The last `@` before the path wins, so
 * a raw `@` in a password does not leak its tail. Documentation placeholders stay (`user:pass@`,
 * `username:password@`, `:xxx@`), as do references (`$PGPASS`, `${pass}`, `<password>`).
 */
const uriRule: ScrubRule = {
  name: 'uri',
  anchor: '[:=]',
  source: String.raw`(?<uriL>//(?<=://)[^\s:/@{}<>"'\x60\\]{0,128}:)(?!\$|(?:pass(?:word|wd)?|PASS(?:WORD)?|pwd|secret|x{3,}|\*{3,})@)` +
    String.raw`[^\s/{}<>"'\x60\\]{1,256}(?<uriR>@)`,
};

/** A bare `Bearer <token>` anywhere (prose excluded by requiring a digit early in the token). */
const bearerRule: ScrubRule = {
  name: 'bearer',
  anchor: 'B',
  source: '(?<bearerL>earer[ \\t]+)(?<=(?<![A-Za-z0-9])Bearer[ \\t]+)(?=[A-Za-z._~+/-]{0,64}[0-9])[A-Za-z0-9._~+/-]{8,}=*',
};

function trailingSpaceStart(s: string): number {
  let i = s.length;
  while (i > 0) {
    if (/\s/.test(s[i - 1])) i -= 1;
    else if (i > 1 && s[i - 2] === '\\' && (s[i - 1] === 'n' || s[i - 1] === 'r')) i -= 2;
    else break;
  }
  return i;
}

function leadingSpaceEnd(s: string): number {
  let i = 0;
  while (i < s.length) {
    if (/\s/.test(s[i])) i += 1;
    else if (s[i] === '\\' && (s[i + 1] === 'n' || s[i + 1] === 'r')) i += 2;
    else break;
  }
  return i;
}

/** Private-key armour; a BEGIN without END (truncated output) loses at most PEM_MAX characters of body. */
export const PEM_MAX = 16384;

function pemRule(placeholder: string): ScrubRule {
  const armour = '[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----';
  const ph = placeholder ? `${escapeRegExp(placeholder)}|` : '';
  // The body is greedy and the END optional, so once BEGIN matched nothing can fail and force a rescan.
  const body = String.raw`(?:${ph}[A-Za-z0-9+/=\s:,\\]|-(?!----)){0,${PEM_MAX}}`;
  return {
    name: 'pem',
    anchor: '-',
    // At least one key character (or an earlier placeholder) must follow, or it is prose about PEM.
    source: `(?<pemL>----BEGIN${armour})(?=(?:\\s|\\\\[nr])*(?:${ph}[A-Za-z0-9+/]))(?<pemB>${body})(?<pemR>-----END${armour})?`,
    render: (g, ph2) => {
      const b = g.pemB ?? '';
      const lead = leadingSpaceEnd(b);
      const trail = Math.max(lead, trailingSpaceStart(b));
      return `${g.pemL}${b.slice(0, lead)}${ph2}${b.slice(trail)}${g.pemR ?? ''}`;
    },
  };
}

/** Every static rule, in the order they are tried at one text position. */
export function staticRules(placeholder: string): ScrubRule[] {
  return [uriRule, azureRule, ...KEYWORD_RULES, pemRule(placeholder), ...SHAPES, bearerRule];
}

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
import { tokenRules } from './scrub-tokens';
import { ASSIGN_RULES } from './scrub-assign';
import { CLI_RULES } from './scrub-cli';
import { DIRECTIVE_RULES } from './scrub-directives';
import { TOKEN_SHAPE_RULES } from './scrub-token-shapes';

/**
 * JWTs (base64url of a JSON header `{"…` always starts `eyJ`; header.payload.signature, the signature
 * may be empty). Anchored at `y` followed by the literal `J`, which V8 rejects with one comparison.
 */
const jwtRule: ScrubRule = {
  name: 'jwt',
  anchor: 'y',
  source: '(?<jwtL>J)(?<=(?<![A-Za-z0-9_-])eyJ)[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]*',
};

/** Azure storage / service bus connection strings. */
const azureRule: ScrubRule = {
  name: 'azure',
  anchor: '[:=]',
  guard: KEYWORD_GUARD,
  // The first value character is consumed before the lookbehind: a cheap test turns away `= x`.
  source: '[A-Za-z0-9+/=](?<=(?<![A-Za-z0-9])(?:AccountKey|SharedAccessKey)=[A-Za-z0-9+/=])[A-Za-z0-9+/=]{15,}',
};

/**
 * `scheme://user:password@host`: scheme, user and host stay. The last `@` before the path wins, so
 * a raw `@` in a password does not leak its tail; the user may be an e-mail address, as SMTP URLs
 * often have it (`smtp://alerts@example.com:…@smtp.example.com`). Documentation placeholders stay (`user:pass@`,
 * `username:password@`, `:xxx@`), as do references (`$PGPASS`, `${pass}`, `<password>`).
 */
const uriRule: ScrubRule = {
  name: 'uri',
  anchor: '[:=]',
  source: String.raw`(?<uriL>//(?<=://)[^\s:/{}<>"'\x60\\]{0,128}:)(?!\$|(?:pass(?:word|wd)?|PASS(?:WORD)?|pwd|secret|x{3,}|\*{3,})@)` +
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
  return [uriRule, azureRule, ...KEYWORD_RULES, pemRule(placeholder), jwtRule, ...tokenRules(), ...TOKEN_SHAPE_RULES, ...ASSIGN_RULES, ...CLI_RULES,
    ...DIRECTIVE_RULES, bearerRule];
}

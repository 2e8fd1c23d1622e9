// Vendor tokens whose documented shape is not "literal prefix + body", so they cannot be rows of the
// token tables: the distinctive part sits inside the token (`…:APA91b…`, `…Q~…`, `.atlasv1.`), or
// the kind is only known after decoding (a base64-wrapped PEM key). Each rule is anchored at that
// distinctive character and redacts what follows it — the secret half of the token; the part
// before it is an id (a bot or sender id, a token id) or a fixed header.
//
// Linear time: one literal or a short bounded check after the anchor, bounded lookbehinds, then a
// single bounded run.
import { type ScrubRule } from './scrub-rule';
import { tokenBodyOk } from './scrub-value';

/**
 * Discord, Airtable and Terraform tokens all have 14 or more letters and digits right before the
 * `.` they are anchored at (each rule's own lookbehind demands it). Said once as their shared guard,
 * which combine() tries together with the vendor prefixes' guard of the same anchor: one lookbehind
 * at each `.` of the text instead of three rules' first steps.
 */
const DOT_SHAPE_GUARD = String.raw`(?<=[A-Za-z0-9]{14}\.)`;

/** Base64 of `-----BEGIN ` (kubeconfig `client-key-data`, Kubernetes secrets, CI variables). */
const B64_BEGIN = 'LS0tLS1CRUdJTi';

/** Whether the base64 text (from its start) decodes to PEM armour of a private key. */
function isBase64PrivateKey(body: string): boolean {
  const head = Buffer.from(B64_BEGIN + body.slice(0, 80), 'base64').toString('latin1');
  return /^-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY/.test(head);
}

const b64pem: ScrubRule = {
  name: 'b64pem',
  anchor: 'S',
  source: String.raw`(?<b64pemL>0tLS1CRUdJTi)(?<=(?<![A-Za-z0-9+/])${B64_BEGIN})[A-Za-z0-9+/]{40,16384}={0,2}`,
  accept: isBase64PrivateKey,
};

/** Telegram bot tokens: `<bot id>:AA<33 characters>` (Telegram Bot API docs). */
const telegram: ScrubRule = {
  name: 'telegram',
  // Anchored with the keyword rules at `:` and `=` (one more anchor character would slow every scan).
  anchor: '[:=]',
  source: String.raw`(?<telegramL>AA)(?<=(?<![\w:])[0-9]{8,10}:AA)[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])`,
  accept: tokenBodyOk,
};

/** Firebase Cloud Messaging legacy server keys: `AAAA<7>:APA91b<134>` (Firebase docs; gitleaks gcp/fcm rules). */
const fcm: ScrubRule = {
  name: 'fcm',
  anchor: '[:=]',
  source: String.raw`(?<fcmL>APA91b)(?<=[A-Za-z0-9_-]{7}:APA91b)[A-Za-z0-9_-]{100,1024}`,
  accept: tokenBodyOk,
};

/** The base64 run just before `start` decodes to a Discord user id (a snowflake: 17-20 digits). */
function afterDiscordUserId(text: string, start: number): boolean {
  const id = /[A-Za-z0-9]{23,26}$/.exec(text.slice(Math.max(0, start - 26), start))?.[0] ?? '';
  return /^[0-9]{17,20}$/.test(Buffer.from(id, 'base64').toString('latin1'));
}

/**
 * Discord bot tokens: `<base64 user id>.<6 timestamp>.<27-38 HMAC>` (Discord docs; trufflehog
 * discordbottoken). A dotted identifier path has the same outline; the first part decoding to digits
 * tells them apart.
 */
const discord: ScrubRule = {
  name: 'discord',
  anchor: '\\.',
  guard: DOT_SHAPE_GUARD,
  source: String.raw`[A-Za-z0-9_-]{6}\.(?<=(?<![\w.-])[MNO][A-Za-z0-9]{23,25}\.[A-Za-z0-9_-]{6}\.)[A-Za-z0-9_-]{27,38}(?![A-Za-z0-9_-])`,
  render: (_g, ph) => ph,
  accept: (v, text, start) => afterDiscordUserId(text, start) && tokenBodyOk(v),
};

/** Airtable personal access tokens: `pat<14>.<64 hex>` (Airtable docs; gitleaks airtable-personal-access-token). */
const airtable: ScrubRule = {
  name: 'airtable',
  anchor: '\\.',
  guard: DOT_SHAPE_GUARD,
  // The hex run is checked first: a lookbehind entered at every `.` of the text would cost more.
  source: String.raw`(?=[a-f0-9]{64}(?![A-Za-z0-9]))(?<=(?<![\w.-])pat[A-Za-z0-9]{14}\.)[a-f0-9]{64}`,
  accept: tokenBodyOk,
};

/** Terraform Cloud / HCP Terraform API tokens: `<14>.atlasv1.<60-70>` (gitleaks hashicorp-tf-api-token). */
const atlas: ScrubRule = {
  name: 'atlas',
  anchor: '\\.',
  guard: DOT_SHAPE_GUARD,
  source: String.raw`(?<atlasL>atlasv1\.)(?<=[A-Za-z0-9]{14}\.atlasv1\.)[A-Za-z0-9_=-]{60,1024}`,
  accept: tokenBodyOk,
};

/** Microsoft Entra ID (Azure AD) client secrets: `<3><digit>Q~<31-34>` (Microsoft docs; gitleaks azure-ad-client-secret). */
const entra: ScrubRule = {
  name: 'entra',
  anchor: 'Q',
  source: String.raw`(?<entraL>~)(?<=(?<![\w~.-])[A-Za-z0-9_~.-]{3}[0-9]Q~)[A-Za-z0-9_~.-]{31,34}(?![\w~.-])`,
  accept: tokenBodyOk,
};

/** Asana personal access tokens: `1/<user id>:<32 hex>`, `2/<user id>/<app id>:<32 hex>` (Asana docs; trufflehog asanapersonalaccesstoken). */
const asana: ScrubRule = {
  name: 'asana',
  anchor: '/',
  source: String.raw`(?<=(?<![\w/.:-])[12]/)[0-9]{10,20}(?:/[0-9]{10,20})?:[a-f0-9]{32}(?![A-Za-z0-9])`,
};

export const TOKEN_SHAPE_RULES: readonly ScrubRule[] = [b64pem, telegram, fcm, discord, airtable, atlas, entra, asana];

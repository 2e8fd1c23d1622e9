// Which programs credentialed_exec may run and with which secrets (pincer.exec.credentialed, user
// settings only): built-in profiles for gh, aws, gcloud, kubectl and terraform, overridden or added
// to by name. Each profile names the secret environment variables to inject (values live in the
// user's secret store, never in settings) and deny rules: regular expressions over the arguments
// that refuse the subcommands which print, mint, move or reconfigure credentials. Deny rules are
// defence in depth — injected values are also scrubbed from every result — and aim at what the
// scrubber cannot see: credentials the program mints (aws sts, kubectl create token) or reads from
// its own files (kubeconfig), and ways to run other code with the token in its environment (gh
// extensions and shell aliases). A profile that does not validate is refused whole: fail closed.
import { z } from 'zod';
import { isInjectionVar } from './command-env';

export interface CredentialedBinary {
  /** The bare program name the model asks for and PATH resolves: `gh`. */
  name: string;
  /** Pinned absolute path: the program PATH finds must be this file. */
  path?: string;
  /** Secret environment variables to inject; every one must be set (Pincer: Set Credential…). */
  env: string[];
  /** Injected when set, not required (aws's session token belongs only to temporary credentials). */
  optionalEnv?: string[];
  /**
   * Regular expressions (case-insensitive) over the arguments joined by single spaces, tried also
   * with leading options removed (`--debug configure` is tried as `configure`); a hit refuses the call.
   */
  denyArgs: string[];
  description?: string;
}

/** Options before the subcommand (`aws --profile x configure`) need unanchored rules; see each profile. */
export const DEFAULT_CREDENTIALED: readonly CredentialedBinary[] = Object.freeze([
  {
    name: 'gh',
    env: ['GH_TOKEN'],
    denyArgs: [
      '^auth\\b', // prints (auth token, status -t), replaces or removes the login
      '\\bauth\\s+token\\b',
      '\\bsecret\\b', // repository and organisation secrets
      '\\bssh-key\\b',
      '^(extension|extensions|ext)\\b', // an extension is any program, run with GH_TOKEN in its environment
      '^alias\\s+(set|import)\\b', // `!`-aliases run shell commands
      '^config\\s+set\\b', // editor, pager, browser: programs gh starts later
    ],
    description: 'GitHub CLI with the token in GH_TOKEN',
  },
  {
    name: 'aws',
    env: ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'],
    optionalEnv: ['AWS_SESSION_TOKEN'],
    denyArgs: [
      '(^|\\s)configure(\\s|$)', // reads and writes the credential files (global options may precede it)
      '\\bsts\\b.*\\b(get-session-token|get-federation-token|assume-role\\S*)\\b', // mint new credentials the scrubber does not know
      'export-credentials',
      '\\bget-login-password\\b', // ecr: a registry password
      '\\bget-authorization-token\\b', // ecr, codeartifact
      '\\beks\\b.*\\bget-token\\b',
    ],
    description: 'AWS CLI with an access key (and session token, when set)',
  },
  {
    name: 'gcloud',
    env: ['CLOUDSDK_AUTH_ACCESS_TOKEN'],
    denyArgs: [
      '(^|\\s)auth(\\s|$)', // gcloud takes flags anywhere, so not anchored
      'print-access-token',
      'print-identity-token',
      '\\bconfig-helper\\b', // prints the access token too
      '\\bconfig\\s+set\\s+(\\S*/)?(auth|api_endpoint_overrides|proxy|custom_ca_certs_file)', // send the token elsewhere
    ],
    description: 'Google Cloud CLI with an access token',
  },
  {
    // kubectl reads no token from the environment (only --token, which would put the secret in the
    // process list), so nothing is injected: it runs with the user's kubeconfig. The rules keep the
    // credentials in that kubeconfig and in the cluster's secrets from reaching the model, and keep
    // the kubeconfig's token from being sent to another server.
    name: 'kubectl',
    env: [],
    denyArgs: [
      '\\bconfig\\b.*\\bview\\b.*--(raw|flatten)', // the kubeconfig with its keys and tokens
      '\\bconfig\\s+(set|set-credentials|set-cluster|unset)\\b',
      '\\b(get|describe|edit)\\b.*\\bsecrets?\\b', // cluster secrets
      '\\bcreate\\s+token\\b', // mints a service-account token
      '(^|\\s)(--server|-s)(=|\\s|$)', // the kubeconfig's credentials sent to a server of the caller's choice
      '(^|\\s)proxy(\\s|$)', // opens the API, authenticated, on a local port
    ],
    description: 'Kubernetes CLI with the user\'s kubeconfig (no injected secret)',
  },
  {
    name: 'terraform',
    env: ['TF_TOKEN_app_terraform_io'],
    denyArgs: [
      '^login\\b',
      '^logout\\b',
      '\\bstate\\s+(pull|push)\\b', // the whole state, secrets included; push overwrites the remote state
    ],
    description: 'Terraform with the HCP Terraform (app.terraform.io) token',
  },
].map((b) => Object.freeze(b)));

const envName = () => z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name (letters, digits, _)');

/**
 * One entry of pincer.exec.credentialed: a new program, or fields that replace a built-in profile's.
 * Built when the setting has entries (few windows set it), not when the runtime loads.
 */
const entrySchema = () => z.object({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/, 'a bare program name such as gh (no slashes)'),
  path: z.string().refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p), 'an absolute path').optional(),
  env: z.array(envName()).max(20).optional(),
  optionalEnv: z.array(envName()).max(20).optional(),
  denyArgs: z.array(z.string().min(1).max(1000)).max(100).optional(),
  description: z.string().max(300).optional(),
}).strict();

/** The compiled deny rules, or why the profile must be refused (a bad pattern is never skipped). */
export function compileDenyArgs(b: CredentialedBinary): RegExp[] | string {
  const out: RegExp[] = [];
  for (let i = 0; i < b.denyArgs.length; i++) {
    try {
      out.push(new RegExp(b.denyArgs[i], 'i'));
    } catch (e) {
      // The engine's message repeats the pattern; only its last part says what is wrong.
      return `deny rule ${i + 1} of ${b.name} is not a valid regular expression (${(e as Error).message.split(': ').pop()})`;
    }
  }
  return out;
}

/** Why a profile cannot be used, or undefined. */
export function profileProblem(b: CredentialedBinary): string | undefined {
  const compiled = compileDenyArgs(b);
  if (typeof compiled === 'string') return compiled;
  const injected = [...b.env, ...(b.optionalEnv ?? [])].filter(isInjectionVar);
  if (injected.length) return `${b.name} would inject ${injected.join(', ')}, which makes programs load or run something else`;
  return undefined;
}

/**
 * The profiles in force: the built-ins with pincer.exec.credentialed applied by name. A bad entry
 * is reported through `warn` and its program refused (the built-in of that name too), never
 * replaced by defaults it was meant to change.
 */
export function readCredentialedConfig(get: (key: string) => unknown, warn: (message: string) => void): CredentialedBinary[] {
  const byName = new Map<string, CredentialedBinary>(DEFAULT_CREDENTIALED.map((b) => [b.name, { ...b, env: [...b.env], denyArgs: [...b.denyArgs], ...(b.optionalEnv ? { optionalEnv: [...b.optionalEnv] } : {}) }]));
  const raw = get('exec.credentialed');
  if (raw === undefined || raw === null) return [...byName.values()];
  if (!Array.isArray(raw)) {
    warn('Setting pincer.exec.credentialed must be a list of programs ({ "name": "gh", "env": ["GH_TOKEN"], "denyArgs": [...] }); credentialed_exec runs nothing until it is fixed.');
    return [];
  }
  const refused = new Set<string>();
  const schema = entrySchema();
  for (const [i, item] of raw.entries()) {
    const parsed = schema.safeParse(item);
    const name = (item as { name?: unknown } | null)?.name;
    if (!parsed.success) {
      const why = parsed.error.issues.map((x) => `${x.path.join('.') || '(entry)'}: ${x.message}`).join('; ');
      if (typeof name === 'string' && name) {
        refused.add(name);
        warn(`Setting pincer.exec.credentialed: the entry for ${name} is invalid (${why}); credentialed_exec refuses ${name} until it is fixed.`);
      } else warn(`Setting pincer.exec.credentialed: entry ${i + 1} is invalid (${why}) and is ignored.`);
      continue;
    }
    const e = parsed.data;
    const base = byName.get(e.name);
    const merged: CredentialedBinary = {
      name: e.name,
      env: e.env ?? base?.env ?? [],
      denyArgs: e.denyArgs ?? base?.denyArgs ?? [],
      ...((e.optionalEnv ?? base?.optionalEnv) ? { optionalEnv: e.optionalEnv ?? base?.optionalEnv } : {}),
      ...((e.path ?? base?.path) ? { path: e.path ?? base?.path } : {}),
      ...((e.description ?? base?.description) ? { description: e.description ?? base?.description } : {}),
    };
    const problem = profileProblem(merged);
    if (problem) {
      refused.add(e.name);
      warn(`Setting pincer.exec.credentialed: ${problem}; credentialed_exec refuses ${e.name} until it is fixed.`);
      continue;
    }
    byName.set(e.name, merged);
  }
  for (const n of refused) byName.delete(n);
  return [...byName.values()];
}

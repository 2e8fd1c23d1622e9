// The exec policy: which security mode, when to ask, which of the 15 deny groups are on, and the
// allowlist of approved commands. A requested policy (from a tool call or an agent) can only make
// the configured one stricter, never looser — the caller is the model, the configuration is the user.

/** The 16 groups (GoClaw's 15 names plus remote_destruction), all on by default. */
export const GROUP_NAMES = [
  'destructive_ops', 'data_exfiltration', 'reverse_shell', 'code_injection', 'privilege_escalation',
  'dangerous_paths', 'env_injection', 'container_escape', 'crypto_mining', 'filter_bypass',
  'network_recon', 'package_install', 'persistence', 'process_control', 'env_dump', 'remote_destruction',
] as const;
export type GroupName = (typeof GROUP_NAMES)[number];

/** One sentence per group, for reasons and the approval prompt. */
export const GROUP_TITLES: Record<GroupName, string> = {
  destructive_ops: 'destroys data or stops the machine',
  data_exfiltration: 'can send local data off the machine',
  reverse_shell: 'can open a remote shell',
  code_injection: 'runs code the policy cannot see',
  privilege_escalation: 'gains privileges',
  dangerous_paths: 'changes permissions of system paths',
  env_injection: 'injects code through the environment',
  container_escape: 'can reach the container host',
  crypto_mining: 'mines cryptocurrency',
  filter_bypass: 'makes an ordinary tool run another program',
  network_recon: 'scans or tunnels the network',
  package_install: 'installs packages (their install scripts run)',
  persistence: 'makes something run again later',
  process_control: 'kills processes',
  env_dump: 'prints environment secrets',
  remote_destruction: 'deletes remote resources (cloud, infrastructure, clusters, databases, published packages)',
};

/**
 * What a group's rules do when they object: refuse, or ask the person. Rules state the strict
 * verdict; a group whose action is 'ask' turns its denials into questions. Installing a named package
 * and deleting remote resources are ordinary work a person decides on, so they ask by default.
 */
export type GroupAction = 'deny' | 'ask';

export const DEFAULT_GROUP_ACTIONS: Readonly<Record<GroupName, GroupAction>> = Object.freeze(
  Object.fromEntries(GROUP_NAMES.map((g) => [g, g === 'package_install' || g === 'remote_destruction' ? 'ask' : 'deny'])) as Record<GroupName, GroupAction>,
);

/** Never legitimate for an agent: their action cannot be 'ask' (a setting asking for it is refused). */
export const ALWAYS_DENY_GROUPS: ReadonlySet<GroupName> = new Set(['reverse_shell', 'crypto_mining']);

/**
 * Security, strictest first: 'deny' runs nothing; 'allowlist' runs only approved executables
 * (with their argument patterns); 'full' runs anything the groups, the write checks and the parser
 * let through.
 */
export type Security = 'deny' | 'allowlist' | 'full';
/**
 * Ask, least asking first: 'off' never asks (what would have asked is denied: nobody is there to
 * answer); 'on-miss' asks for an allowlist miss and for what the judge cannot decide; 'always' asks
 * for every command that is not denied.
 */
export type AskMode = 'off' | 'on-miss' | 'always';

export interface AllowlistEntry {
  /** The resolved absolute path of the executable, or a bare name (then only a bare command resolved through PATH matches). */
  executable: string;
  /** A glob over the arguments joined by single spaces (`*` any run, `?` one character); omitted = any arguments. */
  args?: string;
}

export interface CommandPolicy {
  security: Security;
  ask: AskMode;
  /** Which groups are on (false: the group's rules are not applied at all). */
  denyGroups: Record<GroupName, boolean>;
  /** The action of each group that is on; a group not listed has its DEFAULT_GROUP_ACTIONS entry. */
  groupActions?: Partial<Record<GroupName, GroupAction>>;
  allowlist: AllowlistEntry[];
}

/** The action of group `g` under `policy` (never 'ask' for ALWAYS_DENY_GROUPS). */
export function groupAction(policy: CommandPolicy, g: GroupName): GroupAction {
  if (ALWAYS_DENY_GROUPS.has(g)) return 'deny';
  return policy.groupActions?.[g] ?? DEFAULT_GROUP_ACTIONS[g];
}

const SECURITY_ORDER: readonly Security[] = ['deny', 'allowlist', 'full'];
const ASK_ORDER: readonly AskMode[] = ['off', 'on-miss', 'always'];

export function allGroups(on: boolean): Record<GroupName, boolean> {
  return Object.fromEntries(GROUP_NAMES.map((g) => [g, on])) as Record<GroupName, boolean>;
}

/** Full security, ask on what cannot be judged, every group on, an empty allowlist. */
export const DEFAULT_COMMAND_POLICY: Readonly<CommandPolicy> = Object.freeze({
  security: 'full',
  ask: 'on-miss',
  denyGroups: Object.freeze(allGroups(true)),
  allowlist: [],
});

/**
 * The policy a call runs under: security = the stricter of configured and requested (deny <
 * allowlist < full), ask = the more asking (off < on-miss < always). Groups stay the configured
 * ones unless the request turns more on; the allowlist is the configured one.
 */
export function effectivePolicy(configured: CommandPolicy, requested?: Partial<Pick<CommandPolicy, 'security' | 'ask' | 'denyGroups'>>): CommandPolicy {
  const r = requested ?? {};
  const security = r.security && SECURITY_ORDER.indexOf(r.security) < SECURITY_ORDER.indexOf(configured.security) ? r.security : configured.security;
  const ask = r.ask && ASK_ORDER.indexOf(r.ask) > ASK_ORDER.indexOf(configured.ask) ? r.ask : configured.ask;
  const denyGroups = { ...configured.denyGroups };
  for (const g of GROUP_NAMES) if (r.denyGroups?.[g]) denyGroups[g] = true;
  return { security, ask, denyGroups, ...(configured.groupActions ? { groupActions: configured.groupActions } : {}), allowlist: configured.allowlist };
}

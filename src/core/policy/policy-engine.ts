// Which tools a caller may see and call. The order of the steps, and why:
//   1–2  profile: the most specific configured profile wins (request override > agent+provider >
//        agent > provider > global). Unknown profile names fall back to `coding` with a warning —
//        a typo must not silently grant every tool, as GoClaw's fallback to `full` did.
//   3–7  allow lists, each an intersection when non-empty: global, provider, agent, agent+provider,
//        channel (Pincer's "group allow": the entry point — chat, palette, lm, cli, subagent, mcp).
//   8    deny lists (global, provider, agent, agent+provider, channel) remove tools.
//   9    alsoAllow lists add registered tools back — but never one an explicit deny removed:
//        DENY WINS over alsoAllow. A deny is a security statement; alsoAllow only widens a profile.
//        (GoClaw let alsoAllow re-add a denied tool; OpenClaw lets deny win. We side with OpenClaw.)
//   10   the subagent deny list (depth ≥ 1), 11 the leaf deny list (depth ≥ max depth),
//   12   owner-only tools for non-owners, 13 workspace trust (untrusted: read-only tools only),
//   14   the per-request allow list, applied last as an intersection.
// Steps 10–14 come after alsoAllow on purpose: no list can give a subagent, a non-owner or an
// untrusted workspace what those steps take away.
import { EntryMatcher, type PolicyTool } from './entry-matcher';
import { LEAF_DENY, PROFILES, PROFILE_IDS, SUBAGENT_DENY, type ProfileId } from './groups';
import type { PolicyConfig, ToolPolicy } from './policy-config';

export type PolicyStep =
  | 'profile' | 'allow' | 'deny' | 'subagent deny' | 'leaf deny' | 'owner-only' | 'workspace trust' | 'request allow'
  /** Not a policy step: the toolset left the tool out (a virtual workspace has no local folder for it). */
  | 'virtual workspace';

export interface PolicyRequest {
  agentId?: string;
  provider?: string;
  channel?: string;
  depth: number;
  isOwner: boolean;
  trusted: boolean;
  requestAllow?: readonly string[];
  /** Replaces every configured profile (the CLI's --profile, the Show Effective Tools command). */
  profileOverride?: string;
}

export interface Removal { tool: string; step: PolicyStep; detail: string }

export interface PolicyDecision {
  /** Allowed tool names, sorted. */
  allowed: string[];
  /** Every registered tool that is not allowed, with the step that removed it. */
  removed: Removal[];
  /** The profile that applied and where it came from. */
  profile: { id: ProfileId; source: string };
}

export class PolicyEngine {
  private readonly warned = new Set<string>();
  private matcher: EntryMatcher;
  private cache = new Map<string, PolicyDecision>();
  private last: { req: PolicyRequest; decision: PolicyDecision } | undefined;

  constructor(
    private config: PolicyConfig,
    private tools: readonly PolicyTool[] = [],
    private readonly warn: (message: string) => void = () => undefined,
  ) {
    this.matcher = new EntryMatcher(tools, warn, this.warned);
  }

  /** New settings take effect for the next call; no reload. */
  setConfig(config: PolicyConfig): void {
    this.config = config;
    this.matcher = new EntryMatcher(this.tools, this.warn, this.warned);
    this.cache.clear();
    this.last = undefined;
  }

  setTools(tools: readonly PolicyTool[]): void {
    this.tools = tools;
    this.matcher = new EntryMatcher(tools, this.warn, this.warned);
    this.cache.clear();
    this.last = undefined;
  }

  get currentConfig(): PolicyConfig {
    return this.config;
  }

  /**
   * Cached per request shape: the pipeline asks this on every call. The last request's decision is
   * kept beside the cache and found by comparing its fields: a caller's calls nearly always repeat
   * the same request, and joining the key costs more than the rest of this lookup.
   */
  evaluate(req: PolicyRequest): PolicyDecision {
    const last = this.last;
    if (last && sameRequest(last.req, req)) return last.decision;
    const key = [req.agentId, req.provider, req.channel, req.depth, req.isOwner, req.trusted,
      req.requestAllow?.join(','), req.profileOverride].join('\u0000');
    let d = this.cache.get(key);
    if (!d) {
      d = this.compute(req);
      this.cache.set(key, d);
    }
    // A copy: the caller's object (and its list) could be changed after this.
    this.last = { req: { ...req, requestAllow: req.requestAllow && [...req.requestAllow] }, decision: d };
    return d;
  }

  isAllowed(tool: string, req: PolicyRequest): boolean {
    return this.evaluate(req).allowed.includes(tool);
  }

  private compute(req: PolicyRequest): PolicyDecision {
    const c = this.config;
    const agent = req.agentId ? c.agents[req.agentId] : undefined;
    const provider = req.provider ? c.byProvider[req.provider] : undefined;
    const agentProvider = req.provider ? agent?.byProvider?.[req.provider] : undefined;
    const channel = req.channel ? c.byChannel[req.channel] : undefined;
    const names = (p?: string) => `pincer.agents.${req.agentId}.tools${p ? `.byProvider.${p}` : ''}`;

    const removed = new Map<string, Removal>();
    const remove = (tool: string, step: PolicyStep, detail: string) => {
      if (current.delete(tool)) removed.set(tool, { tool, step, detail });
    };

    // 1–2 profile
    const profile = this.pickProfile(req, agent, provider, agentProvider);
    const inProfile = profile.id === 'full'
      ? new Set(this.tools.map((t) => t.name))
      : this.matcher.expandAll(PROFILES[profile.id], `profile "${profile.id}"`);
    const current = new Set(this.tools.map((t) => t.name));
    for (const t of [...current]) if (!inProfile.has(t)) remove(t, 'profile', `not in profile "${profile.id}" (${profile.source})`);

    // Where each kind of list lives, most general first; channels have allow and deny only.
    const lists = (key: 'allow' | 'deny' | 'alsoAllow'): [string[] | undefined, string][] => [
      [c[key], `pincer.tools.${key}`],
      [provider?.[key], `pincer.tools.byProvider.${req.provider}.${key}`],
      [agent?.[key], `${names()}.${key}`],
      [agentProvider?.[key], `${names(req.provider)}.${key}`],
      ...(key === 'alsoAllow' ? [] : [[channel?.[key], `pincer.tools.byChannel.${req.channel}.${key}`] as [string[] | undefined, string]]),
    ];

    // 3–7 allow lists
    for (const [list, where] of lists('allow')) {
      if (!list?.length) continue;
      const keep = this.matcher.expandAll(list, where);
      for (const t of [...current]) if (!keep.has(t)) remove(t, 'allow', `not in ${where}`);
    }

    // 8 deny lists
    const denied = new Map<string, string>();
    for (const [list, where] of lists('deny')) {
      if (!list?.length) continue;
      for (const t of this.matcher.expandAll(list, where)) {
        if (!denied.has(t)) denied.set(t, where);
        remove(t, 'deny', `listed in ${where}`);
      }
    }

    // 9 alsoAllow: union, except what a deny list names
    for (const [list, where] of lists('alsoAllow')) {
      if (!list?.length) continue;
      for (const t of this.matcher.expandAll(list, where)) {
        if (denied.has(t)) {
          removed.set(t, { tool: t, step: 'deny', detail: `listed in ${denied.get(t)} (deny wins over ${where})` });
          continue;
        }
        current.add(t);
        removed.delete(t);
      }
    }

    // 10–14: nothing above can undo these
    const byName = new Map(this.tools.map((t) => [t.name, t]));
    if (req.depth >= 1) {
      for (const t of SUBAGENT_DENY) remove(t, 'subagent deny', `subagents (depth ${req.depth}) may not use it`);
      if (req.depth >= Math.max(1, c.subagentMaxDepth)) {
        for (const t of LEAF_DENY) remove(t, 'leaf deny', `depth ${req.depth} is the maximum (pincer.subagents.maxDepth = ${c.subagentMaxDepth})`);
      }
    }
    if (!req.isOwner) {
      for (const t of [...current]) {
        if (byName.get(t)?.ownerOnly) remove(t, 'owner-only', 'only the owner of this editor may use it');
      }
    }
    if (!req.trusted) {
      for (const t of [...current]) {
        if (byName.get(t)?.capability !== 'read-only') remove(t, 'workspace trust', 'the workspace is not trusted: only read-only tools run');
      }
    }
    if (req.requestAllow) {
      const keep = this.matcher.expandAll(req.requestAllow, 'the request allow list');
      for (const t of [...current]) if (!keep.has(t)) remove(t, 'request allow', 'not in this request\'s allow list');
    }

    // Both in code-point order: localeCompare's first call in a process loads ICU's collation data,
    // milliseconds of the first tool call (the pipeline evaluates the policy on every call).
    return {
      allowed: [...current].sort(),
      removed: [...removed.values()].filter((r) => !current.has(r.tool)).sort((a, b) => (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0)),
      profile,
    };
  }

  private pickProfile(req: PolicyRequest, agent?: ToolPolicy, provider?: ToolPolicy, agentProvider?: ToolPolicy): { id: ProfileId; source: string } {
    const candidates: [string | undefined, string][] = [
      [req.profileOverride, 'requested'],
      [agentProvider?.profile, `pincer.agents.${req.agentId}.tools.byProvider.${req.provider}.profile`],
      [agent?.profile, `pincer.agents.${req.agentId}.tools.profile`],
      [provider?.profile, `pincer.tools.byProvider.${req.provider}.profile`],
      [this.config.profile, 'pincer.tools.profile'],
    ];
    for (const [id, source] of candidates) {
      if (!id) continue;
      if ((PROFILE_IDS as readonly string[]).includes(id)) return { id: id as ProfileId, source };
      this.warnProfile(id, source);
    }
    return { id: 'coding', source: 'default' };
  }

  private readonly warnedProfiles = new Set<string>();
  private warnProfile(id: string, source: string): void {
    if (this.warnedProfiles.has(source + id)) return;
    this.warnedProfiles.add(source + id);
    this.warn(`Unknown tool profile "${id}" in ${source}; known profiles: ${PROFILE_IDS.join(', ')}. Using the next configured profile (or "coding").`);
  }
}

/** The fields evaluate's key is made of, compared one by one (requestAllow by its entries). */
function sameRequest(a: PolicyRequest, b: PolicyRequest): boolean {
  return a.agentId === b.agentId && a.provider === b.provider && a.channel === b.channel && a.depth === b.depth
    && a.isOwner === b.isOwner && a.trusted === b.trusted && a.profileOverride === b.profileOverride
    && sameList(a.requestAllow, b.requestAllow);
}

function sameList(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// "Pincer: Show Effective Tools": which tools a profile / agent / provider / subagent depth gets,
// and for every tool it does not get, the policy step that removed it and the setting behind it.
// Tools the toolset left out of this window (a virtual workspace has no local folder for exec) are
// listed among the removed ones with their reason, though no policy step could add them back.
import * as vscode from 'vscode';
import type { HiddenTool } from '../../core/fs/virtual-hidden-tools';
import { PROFILE_IDS } from '../../core/policy/groups';
import type { PolicyDecision, PolicyRequest } from '../../core/policy/policy-engine';
import type { HostServices } from '../services';

export interface EffectiveToolsQuery {
  profile?: string;
  agent?: string;
  provider?: string;
  depth?: number;
  channel?: string;
  show?: boolean;
}

async function pick(title: string, items: string[], current?: string): Promise<string | undefined> {
  const r = await vscode.window.showQuickPick(items.map((label) => ({ label, picked: label === current })), { title, ignoreFocusOut: true });
  return r?.label;
}

async function ask(s: HostServices): Promise<EffectiveToolsQuery | undefined> {
  const cfg = s.rt.currentConfig.policy;
  const profile = await pick('Profile (1/4)', [`(configured: ${cfg.profile})`, ...PROFILE_IDS]);
  if (!profile) return undefined;
  const agent = await pick('Agent (2/4)', ['default', ...Object.keys(cfg.agents).filter((a) => a !== 'default')]);
  if (!agent) return undefined;
  const providers = new Set(['(none)', 'vscode-lm', 'openai', 'anthropic', ...Object.keys(cfg.byProvider)]);
  const provider = await pick('Model provider (3/4)', [...providers]);
  if (!provider) return undefined;
  const depth = await pick('Subagent depth (4/4)', ['0 — the agent itself', '1 — its subagents', '2 — their subagents']);
  if (!depth) return undefined;
  return {
    profile: profile.startsWith('(') ? undefined : profile, agent,
    provider: provider === '(none)' ? undefined : provider, depth: Number(depth[0]),
  };
}

export function renderDecision(q: EffectiveToolsQuery, d: PolicyDecision, s: HostServices, trusted: boolean): string {
  const row = (n: string) => {
    const t = s.rt.registry.get(n);
    return `| \`${n}\` | ${t?.group ?? ''} | ${t?.capability ?? ''} |`;
  };
  const lines = [
    `# Effective tools`, '',
    `Profile **${d.profile.id}** (${d.profile.source}) · agent **${q.agent ?? 'default'}** · provider **${q.provider ?? '—'}** · ` +
      `entry point **${q.channel ?? 'chat'}** · subagent depth **${q.depth ?? 0}**${trusted ? '' : ' · workspace **not trusted**'}`, '',
    `## Allowed (${d.allowed.length})`, '',
    ...(d.allowed.length ? ['| tool | group | capability |', '| --- | --- | --- |', ...d.allowed.map(row)] : ['None.']), '',
    `## Removed (${d.removed.length})`, '',
    ...(d.removed.length
      ? ['| tool | step | why |', '| --- | --- | --- |', ...d.removed.map((r) => `| \`${r.tool}\` | ${r.step} | ${r.detail} |`)]
      : ['None.']),
    '', 'Deny wins over alsoAllow; subagent, leaf, owner-only, workspace-trust and per-request steps come last and nothing re-adds what they remove.',
  ];
  return lines.join('\n') + '\n';
}

export async function showEffectiveToolsCommand(s: HostServices, query?: EffectiveToolsQuery, hidden: readonly HiddenTool[] = []): Promise<PolicyDecision | undefined> {
  const q = query ?? (await ask(s));
  if (!q) return undefined;
  const trusted = vscode.workspace.isTrusted;
  const req: PolicyRequest = {
    agentId: q.agent ?? 'default', provider: q.provider, channel: q.channel ?? 'chat', depth: q.depth ?? 0,
    isOwner: true, trusted, profileOverride: q.profile,
  };
  const policy = s.rt.effectiveTools(req);
  const d: PolicyDecision = { ...policy, removed: [...policy.removed, ...hidden.map((h) => ({ tool: h.tool, step: 'virtual workspace' as const, detail: h.reason }))] };
  if (q.show !== false) {
    const uri = s.docs.put('effective-tools', 'md', renderDecision(q, d, s, trusted));
    await s.docs.preview(uri);
  }
  return d;
}

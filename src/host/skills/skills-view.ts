// "Skills" (Pincer sidebar): every skill found — name, where it comes from (your skills or the
// workspace's folder), whether it is turned off, how often it was used — and every broken SKILL.md
// with its problem. A click opens the SKILL.md; the context menu turns a skill off or on again for
// the person, everywhere.
import * as path from 'path';
import * as vscode from 'vscode';
import type { SkillCatalog } from '../../core/skills/skill-catalog';
import type { Skill } from '../../core/skills/skill-file';
import { usageLabel, type SkillUsage } from '../../core/skills/skill-usage';

export type SkillNode = { kind: 'skill'; name: string } | { kind: 'problem'; text: string };

export class SkillsView implements vscode.TreeDataProvider<SkillNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<SkillNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly catalog: SkillCatalog, private readonly disabled: () => readonly string[], private readonly usage: () => SkillUsage = () => ({})) {}

  refresh(): void {
    this.changed.fire(undefined);
  }

  getChildren(node?: SkillNode): SkillNode[] {
    if (node) return [];
    const read = this.catalog.current();
    return [
      ...read.skills.map((s): SkillNode => ({ kind: 'skill', name: s.name })),
      ...read.problems.map((text): SkillNode => ({ kind: 'problem', text })),
    ];
  }

  getTreeItem(node: SkillNode): vscode.TreeItem {
    if (node.kind === 'problem') {
      const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
      item.iconPath = new vscode.ThemeIcon('warning');
      item.tooltip = node.text;
      item.contextValue = 'pincer.skill.problem';
      const file = /^(.+?SKILL\.md):/.exec(node.text)?.[1];
      if (file) item.command = { command: 'vscode.open', title: 'Open SKILL.md', arguments: [vscode.Uri.file(file)] };
      return item;
    }
    const skill = this.catalog.current().skills.find((s) => s.name === node.name);
    const off = this.disabled().includes(node.name);
    const item = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.None);
    item.id = `skill:${node.name}`;
    if (!skill) return item;
    const used = usageLabel(this.usage(), node.name);
    item.description = `${off ? 'off · ' : ''}${sourceLabel(skill)}${used ? ` · ${used}` : ''}`;
    item.iconPath = new vscode.ThemeIcon(off ? 'circle-slash' : 'book');
    item.contextValue = off ? 'pincer.skill.disabled' : 'pincer.skill.enabled';
    const tip = new vscode.MarkdownString(undefined, true);
    tip.appendMarkdown(`**${skill.name}**${off ? ' — turned off' : ''}\n\n`);
    const last = this.usage()[node.name]?.lastUsedAt;
    tip.appendText(`${skill.description}\n\n${skill.file}${skill.allowedTools ? `\nallowed-tools: ${skill.allowedTools.join(', ')}` : ''}${last ? `\nlast used ${new Date(last).toLocaleString()}` : ''}`);
    item.tooltip = tip;
    item.command = { command: 'pincer.skills.open', title: 'Open SKILL.md', arguments: [node] };
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** "your skills" or the workspace folder's skills folder, e.g. `.claude/skills`. */
export function sourceLabel(skill: Skill): string {
  if (skill.source === 'user') return 'your skills';
  return path.join(path.basename(path.dirname(skill.from)), path.basename(skill.from));
}

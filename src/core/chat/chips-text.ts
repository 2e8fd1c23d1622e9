// What the person attached to a message (chat-protocol-parts.ts's chips), as the text the model reads
// after the message. Files are named, not pasted: the model reads what it needs with read_file, through
// the path guard. A selection is pasted. An MCP resource is pasted too (the host read it when it was
// attached), inside the untrusted-content markers: it is the server's text, not the person's.
import type { ContextChip } from './chat-protocol';
import { wrapUntrusted } from '../tools/untrusted-content';

/** The longest selection sent with a message; a longer one is cut with a note. */
export const SELECTION_CHARS = 20_000;

export function chipsToText(chips: readonly ContextChip[]): string | undefined {
  if (!chips.length) return undefined;
  const lines = ['Context the user attached:'];
  for (const c of chips) {
    if (c.kind === 'file') lines.push(`- file ${c.path} (read it with read_file when you need its content)`);
    else if (c.kind === 'resource') {
      const server = c.server ?? 'unknown';
      lines.push(`- resource ${c.path} of the MCP server "${server}":\n${wrapUntrusted(`mcp:${server}/${c.path}`, c.text ?? '')}`);
    } else {
      const where = c.range ? `${c.path} lines ${c.range.startLine}-${c.range.endLine}` : c.path;
      const cut = (c.text?.length ?? 0) >= SELECTION_CHARS ? '\n[… the selection was cut here]' : '';
      lines.push(`- selection in ${where}:\n\`\`\`\n${c.text ?? ''}${cut}\n\`\`\``);
    }
  }
  return lines.join('\n');
}

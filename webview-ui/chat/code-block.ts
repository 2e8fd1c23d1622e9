// A fenced code block: the language, the code as text, and three actions (copy, insert at the
// editor's cursor, open in a new editor) that the transcript's one click listener turns into
// `copy-code` / `insert-code` / `open-code` with the block's text. A block with a language is
// highlighted once the highlighter has loaded (highlight.ts).
import { el, toolButton } from './dom';
import { highlightLater } from './highlight';

export function codeLanguage(info: string): string {
  return /^[\w+#.-]{1,30}$/.test(info) ? info.toLowerCase() : '';
}

export function codeBlock(text: string, info: string): HTMLElement {
  const lang = codeLanguage(info);
  const code = el('code', {}, text);
  highlightLater(code, text, lang);
  return el('div', { class: 'code-block', 'data-lang': lang },
    el('div', { class: 'code-head' },
      el('span', { class: 'code-lang' }, lang || 'text'),
      el('span', { class: 'code-actions' },
        toolButton('copy', 'Copy code', 'copy-code'),
        toolButton('insert', 'Insert at cursor', 'insert-code'),
        toolButton('go-to-file', 'Open in editor', 'open-code'))),
    el('pre', {}, code));
}

/** The text and language of the code block around `target`, for the action buttons. */
export function codeOf(target: Element): { text: string; language: string } | undefined {
  const block = target.closest('.code-block');
  const code = block?.querySelector('pre > code');
  if (!block || !code) return undefined;
  return { text: code.textContent ?? '', language: block.getAttribute('data-lang') ?? '' };
}

// Highlighting for code blocks, loaded on first need: the highlighter is a second script next to
// chat.js (chat-highlight.js, same nonce, so the page's CSP needs nothing new). Its output is not
// trusted as markup: it is parsed into an inert document and rebuilt from text nodes and <span>s
// whose only attribute is an `hljs-…` class, so whatever the model wrote stays text.
export interface Highlighter {
  /** The code as highlight.js markup, or undefined for a language it does not know. */
  highlight(code: string, language: string): string | undefined;
}

// Captured while chat.js itself runs: later, document.currentScript is null.
const self = document.currentScript as HTMLScriptElement | null;
let loading: Promise<Highlighter | undefined> | undefined;

function load(): Promise<Highlighter | undefined> {
  return (loading ??= new Promise((resolve) => {
    const found = () => (globalThis as { pincerHighlighter?: Highlighter }).pincerHighlighter;
    if (found() || !self?.src) return resolve(found());
    const script = document.createElement('script');
    script.nonce = self.nonce;
    script.src = new URL('chat-highlight.js', self.src).href;
    script.onload = () => resolve(found());
    script.onerror = () => resolve(undefined); // plain code is still code
    document.head.append(script);
  }));
}

/** Text and hljs spans of `markup`, as new nodes. */
function rebuild(markup: string): DocumentFragment {
  const doc = new DOMParser().parseFromString(`<pre>${markup}</pre>`, 'text/html');
  const out = document.createDocumentFragment();
  const copy = (from: Node, to: Node) => {
    for (const n of from.childNodes) {
      if (n.nodeType === Node.TEXT_NODE) to.appendChild(document.createTextNode(n.textContent ?? ''));
      else if (n.nodeType === Node.ELEMENT_NODE) {
        const cls = ((n as Element).getAttribute('class') ?? '').split(/\s+/).filter((c) => /^hljs-[\w-]+$|^language_$|^function_$|^class_$/.test(c));
        const span = document.createElement('span');
        if (cls.length) span.className = cls.join(' ');
        copy(n, span);
        to.appendChild(span);
      }
    }
  };
  copy(doc.body.firstElementChild ?? doc.body, out);
  return out;
}

/** Highlights `code` (a <code> element holding `text`) once the highlighter is there. */
export function highlightLater(code: HTMLElement, text: string, language: string): void {
  if (!language) return;
  void load().then((h) => {
    const markup = h?.highlight(text, language);
    // The block may have been re-rendered meanwhile (streaming): only a block still showing this text changes.
    if (markup === undefined || code.textContent !== text) return;
    code.replaceChildren(rebuild(markup));
    code.classList.add('hljs');
  });
}

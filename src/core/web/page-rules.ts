// What of a web page is never text for the model, and how an element's name and class say whether it
// is a page's content or its furniture. Shared by the pass that chooses the main content
// (main-content.ts) and the pass that writes it as markdown (markdown-writer.ts), so both leave out
// the same things.

export type Attributes = Record<string, string>;

/** Elements whose insides are code, styling, pictures or controls: never read as text. */
const NEVER_TEXT = new Set([
  'script', 'style', 'noscript', 'template', 'svg', 'math', 'canvas', 'iframe', 'object', 'embed',
  'head', 'title', 'audio', 'video', 'button', 'select', 'textarea', 'input', 'dialog',
]);

/** Only the start of an attribute is looked at: a hostile page's megabyte of class names costs nothing. */
const ATTRIBUTE_PREFIX = 512;

// Each attribute is read by its own name at its own place (attribs.class, not attribs[name] in a
// shared helper): V8 then finds it at once whatever the element's attributes are.
function prefix(v: string | undefined): string {
  return v === undefined ? '' : v.length > ATTRIBUTE_PREFIX ? v.slice(0, ATTRIBUTE_PREFIX) : v;
}

const HIDDEN_STYLE = /display\s*:\s*none|visibility\s*:\s*hidden/i;

/** Script, style and the like, and elements the page hides from its readers. */
export function neverText(name: string, attribs: Attributes): boolean {
  if (NEVER_TEXT.has(name)) return true;
  if (attribs.hidden !== undefined || attribs['aria-hidden'] === 'true') return true;
  return attribs.style !== undefined && HIDDEN_STYLE.test(prefix(attribs.style));
}

/** Parts of a page around its content: menus, sidebars, footers, comment threads, sharing buttons. */
const FURNITURE_TAGS = new Set(['nav', 'aside', 'footer', 'form']);
const FURNITURE_ROLES = /^(navigation|complementary|contentinfo|banner|menu|menubar|search|dialog|alert)$/i;
const FURNITURE_NAMES = /comment|disqus|footer|sidebar|side-bar|menu|(?:^|[\s_-])nav(?:$|[\s_-]|bar|igation)|breadcrumb|pagination|pager|share|social|sponsor|advert|promo|banner|popup|modal|cookie|consent|newsletter|subscribe|related|recommend|masthead|skip-link|widget/i;
/** Names that say "content" win over furniture words in the same name ("article-comments-count" aside). */
const CONTENT_NAMES = /article|content|main|body|post|entry|story|prose|markdown|text|blog/i;

/** An element's class and id together: the names isFurniture and nameWeight read. */
export function namesOf(attribs: Attributes): string {
  const cls = prefix(attribs.class);
  const id = prefix(attribs.id);
  return cls && id ? `${cls} ${id}` : cls || id;
}

/** Furniture is left out of the chosen content (the whole-page fallback keeps it). `names`: namesOf(attribs). */
export function isFurniture(name: string, attribs: Attributes, names: string): boolean {
  if (name === 'body' || name === 'html' || name === 'main' || name === 'article') return false;
  if (FURNITURE_TAGS.has(name)) return true;
  if (attribs.role !== undefined && FURNITURE_ROLES.test(prefix(attribs.role))) return true;
  return names !== '' && FURNITURE_NAMES.test(names) && !CONTENT_NAMES.test(names);
}

/** How much an element's class and id (namesOf) speak for it holding the content (+25) or against it (-25). */
export function nameWeight(n: string): number {
  if (!n) return 0;
  return (CONTENT_NAMES.test(n) ? 25 : 0) - (FURNITURE_NAMES.test(n) ? 25 : 0);
}

/** Elements that start a block of their own (a paragraph break in the markdown). */
export const BLOCK_TAGS = new Set([
  'p', 'div', 'section', 'article', 'main', 'header', 'footer', 'aside', 'nav', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'ul', 'ol', 'li', 'blockquote', 'pre', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'figure', 'figcaption',
  'dl', 'dt', 'dd', 'address', 'details', 'summary', 'hr', 'fieldset', 'center', 'form', 'body', 'html',
]);

/** Every tag name this code compares with, and the elements most pages are made of. */
const KNOWN_TAGS = new Map([...NEVER_TEXT, ...FURNITURE_TAGS, ...BLOCK_TAGS,
  'a', 'em', 'i', 'strong', 'b', 'code', 'br', 'img', 'span', 'base', 'small', 'sup', 'sub', 'time', 'label'].map((n) => [n, n]));

/**
 * A tag name as the constant of the same spelling, when it is one of KNOWN_TAGS. The parser reads
 * every tag into a new string; V8 compares constants by identity and finds them as keys at once, and
 * the page's kept events then hold one string per kind of element instead of one per tag.
 */
export function tagName(name: string): string {
  return KNOWN_TAGS.get(name) ?? name;
}

// The code highlighter, built as its own file (dist/webview/chat-highlight.js) and loaded by
// highlight.ts the first time a code block with a known language is on screen, so the chat's first
// paint never waits for it. highlight.js core with the languages models write most; a fence naming
// another language stays plain text.
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import type { Highlighter } from './highlight';

const languages = { bash, c, cpp, csharp, css, diff, go, java, javascript, json, markdown, python, rust, shell, sql, typescript, xml, yaml };
for (const [name, lang] of Object.entries(languages)) hljs.registerLanguage(name, lang);

const highlighter: Highlighter = {
  // hljs escapes the code it returns; highlight.ts still rebuilds the result from text and class names only.
  highlight: (code, language) => (hljs.getLanguage(language) ? hljs.highlight(code, { language, ignoreIllegals: true }).value : undefined),
};
(globalThis as { pincerHighlighter?: Highlighter }).pincerHighlighter = highlighter;

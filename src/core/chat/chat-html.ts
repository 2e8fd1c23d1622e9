// The chat view's page: a strict Content-Security-Policy (scripts only with this page's nonce, styles
// and the codicon font only from the extension's own files, images only from blob: URLs — the
// thumbnails of images the person pasted, which only this page can mint — nothing else: no remote or
// data: images, no connections, no frames, no inline styles), the stylesheets and the bundle. The host fills in its webview's
// cspSource and the asWebviewUri of dist/webview/{chat.js, chat.css, codicon.css}; the browser tests
// serve the same page, so what they check is what ships.

export interface ChatPageUris {
  /** webview.cspSource */
  cspSource: string;
  /** A fresh random value per page (≥ 128 bits, base64 or alphanumeric). */
  nonce: string;
  script: string;
  style: string;
  /** dist/webview/codicon.css: @vscode-elements/elements finds it by the id `vscode-codicon-stylesheet`. */
  codicons: string;
}

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function chatCsp(cspSource: string, nonce: string): string {
  if (!/^[A-Za-z0-9+/=_-]{16,}$/.test(nonce)) throw new Error('chat page: the nonce must be at least 16 base64 or alphanumeric characters');
  // cspSource may hold several sources separated by spaces; a ; or , would start another directive.
  if (!cspSource.trim() || /[;,"\r\n]/.test(cspSource)) throw new Error('chat page: cspSource must be sources separated by spaces');
  return [
    "default-src 'none'",
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    'img-src blob:',
    `script-src 'nonce-${nonce}'`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

export function chatHtml(u: ChatPageUris): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${attr(chatCsp(u.cspSource, u.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" id="vscode-codicon-stylesheet" href="${attr(u.codicons)}">
<link rel="stylesheet" href="${attr(u.style)}">
<title>Pincer Chat</title></head>
<body><div id="app"></div>
<script nonce="${attr(u.nonce)}" src="${attr(u.script)}"></script></body></html>`;
}

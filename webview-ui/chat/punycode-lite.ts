// What markdown-it needs of punycode.js (2.4 KB minified), from the browser: a host name to its ASCII
// form through the URL parser, which does IDNA itself. Back to Unicode is left undone: a link's text
// shows its host as the model wrote it (an `xn--…` host stays so, and cannot pass for another site's
// name). Every link is made a link only after `new URL()` has parsed it again (markdown.ts).
// webview-ui/chat/build.mjs substitutes this file for the package.
const toASCII = (host: string): string => {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return host;
  }
};

export default { toASCII, toUnicode: (host: string): string => host };

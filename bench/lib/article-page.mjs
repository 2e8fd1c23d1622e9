// The page web-fetch-convert converts: a news-site-shaped article of about `targetBytes`, the same
// for the same seed (bench/lib/web-convert-snapshot.mjs writes its markdown to compare two builds).
/** A news-site-shaped page: menus, a long article with headings, lists, tables, code and links, a footer, scripts. */
export function articlePage(targetBytes, seed0 = 7) {
  const words = 'crab shore estuary tide pool shell claw molt larva plankton kelp rock sand current reef harbour'.split(' ');
  let seed = seed0;
  const word = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return words[seed % words.length]; };
  const sentence = (n) => { const w = Array.from({ length: n }, word); w[0] = w[0][0].toUpperCase() + w[0].slice(1); return `${w.join(' ')}.`; };
  const nav = `<nav>${Array.from({ length: 40 }, (_, i) => `<a href="/section/${i}">Section ${i}</a>`).join(' ')}</nav>`;
  const parts = [];
  let size = 0;
  for (let s = 0; size < targetBytes; s++) {
    const block = [`<h2 id="s${s}">${sentence(5)}</h2>`];
    for (let p = 0; p < 6; p++) block.push(`<p>${sentence(25)} <a href="/ref/${s}/${p}">${sentence(3)}</a> ${sentence(30)} <em>${sentence(4)}</em></p>`);
    block.push(`<ul>${Array.from({ length: 5 }, () => `<li>${sentence(8)}</li>`).join('')}</ul>`);
    if (s % 3 === 0) block.push(`<table><thead><tr><th>Species</th><th>Width</th><th>Depth</th></tr></thead><tbody>${Array.from({ length: 6 }, (_, r) => `<tr><td>${word()}</td><td>${r * 3}</td><td>${r * 7}</td></tr>`).join('')}</tbody></table>`);
    if (s % 4 === 0) block.push(`<pre><code>const crab = { claws: 2, legs: 8, section: ${s} };\nconsole.log(crab);</code></pre>`);
    const html = block.join('\n');
    parts.push(html);
    size += html.length;
  }
  return `<!doctype html><html><head><title>The Crab Survey</title><script>${'window.x=1;'.repeat(2000)}</script><style>${'p{margin:0}'.repeat(1000)}</style></head>`
    + `<body><header>${nav}</header><main><article><h1>The Crab Survey</h1>${parts.join('\n')}</article></main>`
    + `<aside>${nav}</aside><footer>${nav}</footer></body></html>`;
}

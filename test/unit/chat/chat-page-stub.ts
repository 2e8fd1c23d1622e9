// The script the test page runs before the bundle: VS Code's `acquireVsCodeApi` as a recorder, plus
// in-page helpers the tests and the benchmark call (messages in, timings measured with
// performance.now inside the page). Plain JavaScript: it is served as it is.
export const CHAT_STUB = String.raw`(() => {
  const KEY = 'pincer-chat-state';
  const posted = [];
  let state = null;
  try { state = JSON.parse(sessionStorage.getItem(KEY) || 'null'); } catch {}
  const chat = window.__chat = { posted, violations: [], errors: [], acquired: 0 };
  document.addEventListener('securitypolicyviolation', (e) => chat.violations.push(e.violatedDirective + ' ' + e.blockedURI));
  window.addEventListener('error', (e) => chat.errors.push(String(e.message)));
  window.acquireVsCodeApi = () => {
    if (chat.acquired++) throw new Error('acquireVsCodeApi may be called once');
    return {
      postMessage(m) { posted.push(JSON.parse(JSON.stringify(m))); },
      getState() { return state; },
      setState(s) { state = s; sessionStorage.setItem(KEY, JSON.stringify(s)); },
    };
  };
  chat.post = (m) => window.postMessage(m, '*');
  chat.state = () => state;
  // After the next frame has been painted (rAF runs before paint; a message task after it).
  const afterPaint = () => new Promise((r) => requestAnimationFrame(() => { const c = new MessageChannel(); c.port1.onmessage = () => r(); c.port2.postMessage(0); }));
  chat.afterPaint = afterPaint;
  /** Posts a session and times it: rendered (the transcript built and laid out) and painted. */
  chat.measureOpen = (m) => new Promise((resolve) => {
    const key = m.session.key;
    const t0 = performance.now();
    const mo = new MutationObserver(() => {
      if (document.body.dataset.sessionKey !== key) return;
      mo.disconnect();
      const rendered = performance.now() - t0;
      afterPaint().then(() => resolve({ rendered, painted: performance.now() - t0, messagesInDom: document.querySelectorAll('.messages > .msg').length }));
    });
    mo.observe(document.body, { attributes: true, attributeFilter: ['data-session-key'] });
    chat.post(m);
  });
  /** Posts one text delta and times it until its text is in the DOM, then until painted. */
  chat.measureDelta = (m) => new Promise((resolve) => {
    const root = document.querySelector('.transcript');
    const t0 = performance.now();
    const seen = () => { const t = document.querySelector('[data-turn-id="' + CSS.escape(m.turnId) + '"]'); return !!t && t.textContent.includes(m.text.trim()); };
    const mo = new MutationObserver(() => {
      if (!seen()) return;
      mo.disconnect();
      const inDom = performance.now() - t0;
      afterPaint().then(() => resolve({ inDom, painted: performance.now() - t0 }));
    });
    mo.observe(root, { subtree: true, childList: true, characterData: true });
    chat.post(m);
  });
  /** Posts text deltas at a steady rate and reports how long the main thread was ever blocked meanwhile. */
  chat.stream = (turnId, pieces, everyMs) => new Promise((resolve) => {
    const longTasks = [];
    const po = new PerformanceObserver((l) => { for (const e of l.getEntries()) longTasks.push(e.duration); });
    po.observe({ type: 'longtask' });
    const gaps = [];
    const t0 = performance.now();
    let last = t0;
    let i = 0;
    const tick = () => {
      const now = performance.now();
      gaps.push(now - last);
      last = now;
      chat.post({ type: 'text-delta', turnId, text: pieces[i++] });
      if (i < pieces.length) setTimeout(tick, Math.max(0, t0 + i * everyMs - performance.now()));
      else afterPaint().then(() => { po.disconnect(); gaps.sort((a, b) => a - b); resolve({ longTasks, maxGapMs: gaps[gaps.length - 1], p99GapMs: gaps[Math.floor(gaps.length * 0.99)], seconds: (performance.now() - t0) / 1000 }); });
    };
    tick();
  });
})();`;

// Loop detection is kept per run: an agent's turn, or one call a person starts from the palette or
// the sidebar. A person repeating a command is not a model stuck in a loop, and a halt ends with the
// run that earned it instead of blocking every later call of the window.
import assert from 'node:assert/strict';
import type { ToolContext } from '../../../src/core/tools/types';
import { runtimeWith, stubTool } from '../../support/test-tools';

type Rt = ReturnType<typeof runtimeWith>;
let palettes = 0;
/** What the host gives a palette or sidebar call: the window's session, a turn of its own. */
const paletteCall = (rt: Rt): ToolContext => rt.context({ channel: 'palette', sessionKey: 'palette:window-1', turnId: `palette:window-1:${++palettes}` });

describe('loop detection per run', () => {
  it('ten identical Run Tool calls of session_status: none is warned or halted, later calls still run', async () => {
    const rt = runtimeWith({ 'rateLimit.enabled': false });
    for (let i = 0; i < 10; i++) {
      const r = await rt.registry.execute('session_status', {}, paletteCall(rt));
      assert.equal(r.isError, false, r.forLLM);
      assert.equal(r.halt, undefined);
      assert.doesNotMatch(r.forLLM, /Pincer loop warning|Pincer stopped this run/);
    }
    assert.equal((await rt.registry.execute('datetime', {}, paletteCall(rt))).isError, false);
  });

  it('within one run repeats still halt it; the next run of the same session starts clean', async () => {
    const rt = runtimeWith({ 'rateLimit.enabled': false }, [stubTool('look', 'fs', 'read-only')]);
    const turn = rt.context({ channel: 'chat', sessionKey: 'chat-1', turnId: 'chat-1#1' });
    let halted = false;
    for (let i = 0; i < 12 && !halted; i++) halted = !!(await rt.registry.execute('look', { same: true }, turn)).halt;
    assert.ok(halted, 'the looping turn is stopped');
    assert.ok((await rt.registry.execute('datetime', {}, turn)).halt, 'and refuses further calls');
    const next = await rt.registry.execute('datetime', {}, rt.context({ channel: 'chat', sessionKey: 'chat-1', turnId: 'chat-1#2' }));
    assert.equal(next.isError, false);
    assert.equal(next.halt, undefined);
  });
});

// Known errors (a refused path, a memory or session refusal) are turned into error results in one
// place: tools let them propagate, and both a direct call of a defineTool tool and any call through
// the pipeline answer with the error's own message and code.
import assert from 'node:assert/strict';
import { z } from 'zod';
import { PathError } from '../../../src/core/fs/types';
import { MemoryError } from '../../../src/core/memory/types';
import { SessionError } from '../../../src/core/sessions/session-store';
import { defineTool, type Tool } from '../../../src/core/tools/types';
import { runtimeWith } from '../../support/test-tools';

const throwing = (name: string, error: Error): Tool => ({
  name, group: 'fs', capability: 'read-only', description: 'x', parameters: z.object({}),
  execute: async () => { throw error; },
});

describe('known errors are mapped once', () => {
  it('through the pipeline, even for a tool not made with defineTool', async () => {
    const rt = runtimeWith({ 'rateLimit.enabled': false, 'loopDetection.enabled': false }, [
      throwing('path_refused', new PathError('"/etc/passwd" is outside the workspace folders: use a path inside them.', 'outside')),
      throwing('memory_refused', new MemoryError('Memory is not available in this window.', 'unavailable')),
      throwing('session_refused', new SessionError('That session belongs to another agent.', 'not-owner')),
      throwing('plain_bug', new TypeError('x is undefined')),
    ]);
    const ctx = rt.context({ channel: 'test', sessionKey: 'known' });
    const path = await rt.registry.execute('path_refused', {}, ctx);
    assert.deepEqual([path.forLLM, path.isError, path.outcome, path.details], ['"/etc/passwd" is outside the workspace folders: use a path inside them.', true, 'error', { code: 'outside' }]);
    assert.equal((await rt.registry.execute('memory_refused', {}, ctx)).forLLM, 'Memory is not available in this window.');
    assert.equal((await rt.registry.execute('session_refused', {}, ctx)).details?.code, 'not-owner');
    // Anything else is a defect of the tool, reported as such.
    assert.equal((await rt.registry.execute('plain_bug', {}, ctx)).forLLM, 'plain_bug failed: x is undefined');
  });

  it('in a direct call of a defineTool tool; other errors still throw', async () => {
    const refusing = defineTool({ ...throwing('t', new PathError('denied by pincer.fs.denyPaths', 'denied')), parameters: z.object({}) });
    const r = await refusing.execute({}, runtimeWith().context({ channel: 'test' }));
    assert.deepEqual([r.forLLM, r.isError, r.details], ['denied by pincer.fs.denyPaths', true, { code: 'denied' }]);
    const buggy = defineTool({ ...throwing('u', new RangeError('boom')), parameters: z.object({}) });
    await assert.rejects(buggy.execute({}, runtimeWith().context({ channel: 'test' })), RangeError);
  });
});

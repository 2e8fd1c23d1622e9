// Which model a turn runs on: the model its definition names when the provider offers it, else its
// caller's — the model the calling agent itself runs on — down to the person's choice in the picker.
import assert from 'node:assert/strict';
import { callerAgentIds, modelFor, type ModelNaming } from '../../../src/core/subagents/child-model';

const OFFERED = [{ id: 'chosen-model' }, { id: 'big-model' }, { id: 'claude-sonnet-4-20250514' }, { id: 'claude-sonnet-4-5-20250929' }, { id: 'claude-haiku-4-5' }];

/** modelFor with the list above, counting how often the provider is asked for it. */
function choose(agent: ModelNaming, callers: ModelNaming[] = [], offered: () => Promise<{ id: string }[]> = async () => OFFERED) {
  const asked = { n: 0 };
  const model = modelFor({ agent, callers, chosen: 'chosen-model', offered: async () => { asked.n++; return offered(); } });
  return model.then((m) => ({ model: m, asked: asked.n }));
}

describe('the model a turn runs on', () => {
  it('a definition that names a model the provider offers runs on it', async () => {
    assert.equal((await choose({ model: 'big-model' }, [{}])).model, 'big-model');
    // Over a caller that names another one.
    assert.equal((await choose({ model: 'big-model' }, [{ model: 'claude-haiku-4-5' }])).model, 'big-model');
  });

  it('a definition that names a model the provider does not offer runs on its caller\'s', async () => {
    assert.equal((await choose({ model: 'no-such-model' }, [])).model, 'chosen-model', 'a person\'s chat: the chosen model');
    assert.equal((await choose({ model: 'no-such-model' }, [{ model: 'big-model' }])).model, 'big-model', 'a child: its caller\'s own model');
    assert.equal((await choose({ foreignModel: 'gpt-9-ultra' }, [{}])).model, 'chosen-model');
    assert.equal((await choose({ model: 'inherit' }, [{ model: 'big-model' }])).model, 'big-model', '"inherit" names no model');
  });

  it('no model named: the caller\'s, which is its own agent\'s when that names one, else the chosen model', async () => {
    assert.deepEqual(await choose({}, []), { model: 'chosen-model', asked: 0 }, 'nothing named: the provider is not even asked');
    assert.deepEqual(await choose({}, [{}, {}]), { model: 'chosen-model', asked: 0 });
    assert.equal((await choose({}, [{ model: 'big-model' }])).model, 'big-model', 'the caller names its model: the child inherits it, not the picker\'s');
    // A grandchild: its parent names none, the grandparent does.
    assert.equal((await choose({}, [{}, { model: 'big-model' }])).model, 'big-model');
    // A caller whose named model the provider lacks runs on the chosen one, and so does its child.
    assert.equal((await choose({}, [{ model: 'no-such-model' }])).model, 'chosen-model');
  });

  it('foreign names are mapped onto the offered models: "sonnet", a display name, a dated id', async () => {
    assert.equal((await choose({ foreignModel: 'sonnet' })).model, 'claude-sonnet-4-5-20250929', 'the newest of the family');
    assert.equal((await choose({ foreignModel: 'Claude Sonnet 4 (copilot)' })).model, 'claude-sonnet-4-20250514');
    assert.equal((await choose({}, [{ foreignModel: 'haiku' }])).model, 'claude-haiku-4-5', 'a caller\'s foreign model, mapped, is what its child inherits');
    assert.equal((await choose({ model: 'haiku' })).model, 'claude-haiku-4-5', 'a Pincer definition\'s short name is mapped the same way');
  });

  it('a provider that cannot list its models: a Pincer definition\'s model is taken as written, a foreign one is not', async () => {
    const failing = async () => { throw new Error('HTTP 404 /models'); };
    assert.equal((await choose({ model: 'my-local-model' }, [], failing)).model, 'my-local-model');
    assert.equal((await choose({ foreignModel: 'sonnet' }, [], failing)).model, 'chosen-model');
    assert.equal((await choose({}, [{ model: 'my-local-model' }], async () => [])).model, 'my-local-model');
  });
});

describe('a session\'s callers', () => {
  // A person's chat with the lead agent; its child sa-1 (agent "coder") started grandchild sa-2 (agent "tester").
  const records = new Map([
    ['agent:coder:subagent-sa-1', { parentSessionKey: 'agent:lead:abc' }],
    ['agent:tester:subagent-sa-2', { parentSessionKey: 'agent:coder:subagent-sa-1' }],
  ]);
  const childOf = (key: string) => records.get(key);

  it('nearest first, up to the top-level session\'s agent; none for a person\'s own chat', () => {
    assert.deepEqual(callerAgentIds('agent:tester:subagent-sa-2', childOf), ['coder', 'lead']);
    assert.deepEqual(callerAgentIds('agent:coder:subagent-sa-1', childOf), ['lead']);
    assert.deepEqual(callerAgentIds('agent:lead:abc', childOf), []);
  });

  it('a broken chain (a record that is its own ancestor) ends instead of looping', () => {
    const loop = new Map([['agent:a:x', { parentSessionKey: 'agent:b:y' }], ['agent:b:y', { parentSessionKey: 'agent:a:x' }]]);
    assert.deepEqual(callerAgentIds('agent:a:x', (k) => loop.get(k)), ['b']);
  });
});

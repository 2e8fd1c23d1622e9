// The agent loop: one user turn. Ask the model, stream its text to the UI, run the tool calls it
// makes through Registry.execute, feed the results back, and repeat until it answers — or until a
// limit, the loop detector, a cancel or a provider error ends the turn. Whatever ends it, the turn
// returns what was said so far as messages a provider accepts next time (every tool call answered).
import { systemClock } from '../clock';
import { abortableSleep } from './agent-abort';
import { assistantMessage, notRun, repairHistory, systemMessage, toolMessage, userMessage, withCallIds } from './agent-messages';
import { DEFAULT_RETRY_TUNING, requestWithRetry } from './agent-stream';
import { runToolCalls } from './agent-tools';
import { DEFAULT_TURN_LIMITS, type AgentLoopDeps, type TurnEvent, type TurnInput, type TurnLimits, type TurnResult, type TurnStopReason } from './agent-types';
import { addResponseUsage, costOf, emptyTurnUsage } from './agent-usage';
import type { ModelMessage, TokenUsage, ToolCallPart } from './model-types';
import { imagesAsText, MAX_IMAGES_PER_REQUEST } from '../media/images-in-messages';

export { turnTools } from './agent-tools';

function limitsOf(input: TurnInput): TurnLimits {
  const l = { ...DEFAULT_TURN_LIMITS, ...input.limits };
  return { ...l, maxIterations: Math.max(1, Math.floor(l.maxIterations)), maxRetries: Math.max(0, Math.floor(l.maxRetries)) };
}

/** Why the next request must not be sent for lack of tokens, or undefined when it may. */
function budgetStop(limits: TurnLimits, contextTokens: number | undefined, spent: number, last: TokenUsage | undefined): string | undefined {
  if (!last) return undefined;
  // The next prompt repeats the last one plus its reply (and the tool results): at least this big.
  const nextPrompt = (last.inputTokens ?? 0) + (last.outputTokens ?? 0);
  const max = limits.maxTurnTokens;
  if (max !== undefined && spent + nextPrompt > max) {
    return `Stopped: this turn has used ${spent} tokens of its ${max}-token budget, and the next request would go over it. Send another message to let it continue.`;
  }
  if (contextTokens && nextPrompt >= contextTokens) {
    return `Stopped: the conversation (${nextPrompt} tokens) no longer fits the model's ${contextTokens}-token context window. Start a new chat, or continue with a model that has a larger one.`;
  }
  return undefined;
}

export async function runAgentTurn(deps: AgentLoopDeps, input: TurnInput): Promise<TurnResult> {
  const { provider, runtime } = deps;
  const { signal } = input;
  const limits = limitsOf(input);
  const clock = deps.clock ?? systemClock;
  const emit = (e: TurnEvent) => {
    try {
      input.onEvent?.(e);
    } catch {
      // The UI failing to draw an event must not change the turn.
    }
  };
  const usage = emptyTurnUsage();
  const added: ModelMessage[] = [];
  const prefix = [systemMessage(input.system), ...repairHistory(input.history), userMessage(input.user)];
  // Grows during the turn when a search finds deferred tools (ToolResult.offerTools).
  const tools = [...input.tools];
  const offeredTools = new Set(tools.map((t) => t.name));
  // Asked again before each request and each batch of tools: a provider may learn it from a request
  // (VS Code reads the model's capabilities; a server refuses a request over its images).
  const imageInput = () => provider.imageInput?.(deps.model);
  // A model that takes no images reads each one's placeholder line; one that does gets the newest few.
  const withImages = (messages: ModelMessage[]) => (imageInput() === false
    ? imagesAsText(messages, 0, `the model ${deps.model} does not take images`)
    : imagesAsText(messages, MAX_IMAGES_PER_REQUEST));
  let ctx = runtime.context({
    channel: 'chat', ...input.toolContext,
    sessionKey: input.sessionKey, agentId: input.agentId, turnId: input.turnId, provider: provider.id, signal,
    offeredTools,
  });

  let iterations = 0;
  let text = '';
  let lastUsage: TokenUsage | undefined;
  const add = (m: ModelMessage) => {
    added.push(m);
    emit({ type: 'message', message: m });
  };
  const answer = (calls: readonly ToolCallPart[], why: string) => {
    for (const c of calls) add(toolMessage(notRun(c, why)));
  };
  const finish = (stopReason: TurnStopReason, message?: string): TurnResult => {
    // Loop detection is kept per turn (a new turn is new input and starts clean); this one is over.
    runtime.registry.deps.loops.forget(input.turnId);
    const costUsd = costOf(usage, deps.pricing);
    const result: TurnResult = { messages: added, usage: costUsd === undefined ? { ...usage } : { ...usage, costUsd }, iterations, stopReason, text };
    if (message) result.message = message;
    return result;
  };
  const cancelledMessage = 'Stopped: you cancelled the turn.';

  for (;;) {
    if (signal.aborted) return finish('cancelled', cancelledMessage);
    if (iterations >= limits.maxIterations) {
      return finish('max-iterations', `Stopped after ${iterations} model requests without a final answer (the limit for one turn is ${limits.maxIterations}). Send another message to let it continue.`);
    }
    const overBudget = budgetStop(limits, deps.contextTokens, usage.input + usage.output, lastUsage);
    if (overBudget) return finish('budget', overBudget);

    // Added here, not when they arrive: a message between a tool call and its result would break
    // the history every provider checks.
    for (const m of input.inbox?.() ?? []) add(m);
    iterations++;
    const iteration = iterations;
    emit({ type: 'request', iteration });
    let responseUsage: TokenUsage | undefined;
    const r = await requestWithRetry(provider, {
      model: deps.model, messages: withImages([...prefix, ...added]), tools: [...tools], signal,
      ...(limits.maxOutputTokens !== undefined ? { maxOutputTokens: limits.maxOutputTokens } : {}),
      ...(input.temperature !== undefined ? { temperature: input.temperature } : {}),
    }, {
      maxRetries: limits.maxRetries,
      tuning: { ...DEFAULT_RETRY_TUNING, ...deps.retry },
      sleep: deps.sleep ?? abortableSleep,
      random: deps.random ?? Math.random,
      onText: (t) => emit({ type: 'text', iteration, text: t }),
      onUsage: (u) => {
        addResponseUsage(usage, u);
        responseUsage = u;
      },
      onRetry: (attempt, delayMs, message) => emit({ type: 'retry', iteration, attempt, delayMs, message }),
    });
    lastUsage = responseUsage ?? lastUsage;
    // With its cost so far when the model's price is known: a subagent's card shows it as it runs.
    const costSoFar = costOf(usage, deps.pricing);
    emit({ type: 'usage', usage: costSoFar === undefined ? { ...usage } : { ...usage, costUsd: costSoFar } });

    const calls = withCallIds(r.calls, iteration);
    const reply = assistantMessage(r.text, calls);
    if (reply) add(reply);
    text = r.text;

    if (r.stop === 'cancelled') {
      answer(calls, 'the user cancelled the turn before it ran.');
      return finish('cancelled', cancelledMessage);
    }
    if (r.stop === 'error') {
      answer(calls, 'the model provider failed before the reply was complete.');
      return finish('error', r.message ?? 'The model provider failed.');
    }
    if (r.stop === 'content-filter') {
      answer(calls, 'the provider\'s content filter stopped the reply.');
      return finish('content-filter', r.message ?? 'Stopped: the provider\'s content filter blocked the reply.');
    }
    if (calls.length === 0) {
      if (r.stop === 'length') return finish('length', 'The answer was cut off at the model\'s output limit. Ask it to continue.');
      return finish('end');
    }

    const takesImages = imageInput();
    if (takesImages !== undefined) ctx = { ...ctx, imageInput: takesImages };
    const run = await runToolCalls(calls, { runtime, ctx, iteration, now: () => clock.now(), emit });
    for (const result of run.results) add(toolMessage(result));
    if (run.narrow) {
      // A skill's allowed-tools: the rest of the turn offers only these, and the pipeline refuses the
      // others both as not offered and through the request allow list the policy applies at call time.
      const keep = new Set(run.narrow);
      for (let i = tools.length - 1; i >= 0; i--) if (!keep.has(tools[i].name)) tools.splice(i, 1);
      for (const n of [...offeredTools]) if (!keep.has(n)) offeredTools.delete(n);
      ctx = { ...ctx, requestAllow: [...keep] };
    }
    const found = run.offered.filter((n) => !offeredTools.has(n));
    for (const t of runtime.registry.definitionsOf([...new Set(found)], runtime.registry.policyRequest(ctx))) {
      tools.push(t);
      offeredTools.add(t.name);
    }
    if (run.halt) return finish('loop', run.halt);
    if (run.cancelled) return finish('cancelled', cancelledMessage);
  }
}

// VS Code's Language Model API as a model provider: Copilot and any other installed provider, with no
// setup of Pincer's own. The API has no system role, so the system prompt opens the first user turn;
// tool results travel in user turns as the API wants. It reports no token usage: what the loop counts
// for it is an estimate through the model's own countTokens, and says so.
//
// Images go as LanguageModelDataPart.image: inside a LanguageModelToolResultPart beside the result's
// text, and in the user's message for pictures the person pasted. Whether a model reads images is
// only in the proposed `capabilities.supportsImageToText` of the model object: read where VS Code
// gives it (never required), and a model that says false gets each image's placeholder line instead.
import * as vscode from 'vscode';
import { ModelError, type MessagePart, type ModelEvent, type ModelInfo, type ModelMessage, type ModelProvider, type ModelRequest } from '../../core/agent/model-types';
import { normalizeToolsFor } from '../../core/agent/schema-normalize';
import type { ImagePart } from '../../core/media/image-part';
import { imagesAsText } from '../../core/media/images-in-messages';

export const VSCODE_LM_ID = 'vscode-lm';

/** The proposed API's answer, when this VS Code gives it to Pincer; undefined otherwise. */
function readsImages(model: vscode.LanguageModelChat): boolean | undefined {
  try {
    const said = (model as { capabilities?: { supportsImageToText?: unknown } }).capabilities?.supportsImageToText;
    return typeof said === 'boolean' ? said : undefined;
  } catch {
    // A proposed API that is not enabled for this extension throws when read.
    return undefined;
  }
}

export class VscodeLmProvider implements ModelProvider {
  readonly id = VSCODE_LM_ID;
  private readonly imageInputs = new Map<string, boolean>();

  async listModels(): Promise<ModelInfo[]> {
    const models = await vscode.lm.selectChatModels();
    return models
      .map((m) => {
        const imageInput = this.remember(m);
        return { id: m.id, source: `${m.vendor} · ${m.name} (VS Code)`, contextTokens: m.maxInputTokens, ...(imageInput !== undefined ? { imageInput } : {}) };
      })
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  imageInput(model: string): boolean | undefined {
    return this.imageInputs.get(model);
  }

  private remember(model: vscode.LanguageModelChat): boolean | undefined {
    const said = readsImages(model);
    if (said !== undefined) this.imageInputs.set(model.id, said);
    return said;
  }

  async *stream(req: ModelRequest): AsyncIterable<ModelEvent> {
    const [model] = await vscode.lm.selectChatModels({ id: req.model });
    if (!model) throw new ModelError(`The model "${req.model}" is not available in VS Code any more; pick another with "Pincer: Select Model…".`, false);
    const { tools, nameMap } = normalizeToolsFor(this.id, model.family, req.tools);
    const messages = this.remember(model) === false ? imagesAsText(req.messages, 0, `the model ${req.model} does not take images`) : req.messages;
    const wireName = new Map([...nameMap].map(([wire, name]) => [name, wire]));
    const cts = new vscode.CancellationTokenSource();
    const onAbort = () => cts.cancel();
    req.signal.addEventListener('abort', onAbort, { once: true });
    let sawCall = false;
    try {
      const response = await model.sendRequest(toVscodeMessages(messages, (n) => wireName.get(n) ?? n), {
        justification: 'Pincer runs your agent with the tools you allowed.',
        tools: tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.parameters })),
      }, cts.token);
      let output = '';
      for await (const part of response.stream) {
        if (req.signal.aborted) break;
        if (part instanceof vscode.LanguageModelTextPart) {
          output += part.value;
          yield { type: 'text', text: part.value };
        } else if (part instanceof vscode.LanguageModelToolCallPart) {
          sawCall = true;
          yield { type: 'tool-call', call: { type: 'tool-call', id: part.callId, name: nameMap.get(part.name) ?? part.name, args: part.input } };
        }
      }
      if (req.signal.aborted) {
        yield { type: 'stop', reason: 'cancelled' };
        return;
      }
      const [inputTokens, outputTokens] = await Promise.all([
        Promise.all(req.messages.map((m) => model.countTokens(textOf(m), cts.token))).then((xs) => xs.reduce((a, b) => a + b, 0)).catch(() => 0),
        model.countTokens(output, cts.token).then((n) => n, () => 0),
      ]);
      yield { type: 'usage', usage: { inputTokens, outputTokens } };
      yield { type: 'stop', reason: sawCall ? 'tool-calls' : 'end' };
    } catch (e) {
      if (req.signal.aborted) {
        yield { type: 'stop', reason: 'cancelled' };
        return;
      }
      throw toModelError(e);
    } finally {
      req.signal.removeEventListener('abort', onAbort);
      cts.dispose();
    }
  }
}

function textOf(m: ModelMessage): string {
  return m.parts.map((p) => (p.type === 'text' ? p.text : p.type === 'tool-result' ? p.content : p.type === 'tool-call' ? JSON.stringify(p.args) : '')).join('\n');
}

/** Pincer's messages in the API's shape: system text first in a user turn, results in user turns. */
export function toVscodeMessages(messages: readonly ModelMessage[], wire: (name: string) => string): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = [];
  for (const m of messages) {
    if (m.role === 'system') {
      out.push(vscode.LanguageModelChatMessage.User(m.parts.map((p) => (p.type === 'text' ? p.text : '')).join('\n')));
    } else if (m.role === 'assistant') {
      out.push(vscode.LanguageModelChatMessage.Assistant(m.parts.flatMap((p) => assistantPart(p, wire))));
    } else {
      out.push(vscode.LanguageModelChatMessage.User(m.parts.flatMap((p): (vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart | vscode.LanguageModelDataPart)[] => {
        if (p.type === 'text') return [new vscode.LanguageModelTextPart(p.text)];
        if (p.type === 'image') return [dataPart(p)];
        if (p.type === 'tool-result') return [new vscode.LanguageModelToolResultPart(p.id, [new vscode.LanguageModelTextPart(p.content), ...(p.images ?? []).map(dataPart)])];
        return [];
      })));
    }
  }
  return out;
}

function dataPart(image: ImagePart): vscode.LanguageModelDataPart {
  return vscode.LanguageModelDataPart.image(Buffer.from(image.data, 'base64'), image.mimeType);
}

function assistantPart(p: MessagePart, wire: (name: string) => string): (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[] {
  if (p.type === 'text') return [new vscode.LanguageModelTextPart(p.text)];
  if (p.type === 'tool-call') return [new vscode.LanguageModelToolCallPart(p.id, wire(p.name), typeof p.args === 'object' && p.args ? p.args : {})];
  return [];
}

function toModelError(e: unknown): ModelError {
  if (e instanceof ModelError) return e;
  if (e instanceof vscode.LanguageModelError) {
    // NoPermissions, Blocked, NotFound: asking again will not help.
    const fatal = ['NoPermissions', 'Blocked', 'NotFound'].includes(e.code);
    return new ModelError(`VS Code's language model refused: ${e.message} (${e.code})`, !fatal);
  }
  return new ModelError(`VS Code's language model failed: ${(e as Error).message ?? String(e)}`, true);
}

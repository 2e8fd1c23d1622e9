// The chat's palette commands, known to the runtime before the chat bundle loads (chat-lazy.ts
// registers them by these ids; chat-register.ts implements exactly these).
export const CHAT_COMMAND_IDS = [
  'pincer.chat.new', 'pincer.chat.stop', 'pincer.chat.askAboutSelection', 'pincer.chat.explainFile', 'pincer.selectModel', 'pincer.setModelApiKey',
  'pincer.useVscodeModels', 'pincer.connectLocalModel',
] as const;

export type ChatCommandId = (typeof CHAT_COMMAND_IDS)[number];

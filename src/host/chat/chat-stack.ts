// Entry of dist/host-chat.js: the chat and the model SDKs it needs (openai, @anthropic-ai/sdk, the
// agent loop, the chat view and its markdown). The runtime and the tools load without them; this
// bundle is required on the first chat use or the first embeddings request (chat-lazy.ts).
export { registerChat } from './chat-register';
export { createOpenAiCompatibleEmbeddings } from '../../core/memory/embeddings';

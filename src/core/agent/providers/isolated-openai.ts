// The official OpenAI client, minus what it takes from the environment. The SDK merges
// OPENAI_CUSTOM_HEADERS into every request; Pincer's settings name the server and its headers, and a
// person's environment must not add headers (often credentials for some other gateway) to requests
// to whatever server is configured. Used by the chat provider and the embeddings client alike.
import OpenAI, { type ClientOptions } from 'openai';

export class IsolatedOpenAI extends OpenAI {
  constructor(options: ClientOptions) {
    super(options);
    this._options = { ...this._options, defaultHeaders: options.defaultHeaders };
  }
}

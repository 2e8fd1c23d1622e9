// Token formats of AI and model-hosting providers. Each row: the documented prefix and body shape,
// and where the shape is documented (vendor docs; gitleaks rule ids, trufflehog detector names).
import { AN, ANU, B64U, HEX, atLeast, exact, fmt, type TokenFormat } from './scrub-token-format';

export const AI_TOKENS: readonly TokenFormat[] = [
  // One `sk-` row covers OpenAI (sk-…, sk-proj-, sk-svcacct-, sk-admin-), Anthropic (sk-ant-api03-,
  // sk-ant-admin01-), OpenRouter (sk-or-v1-), Langfuse (sk-lf-), DeepSeek and Stability (sk- + hex/alnum).
  fmt('openai-anthropic-openrouter', 'sk-', atLeast(B64U, 20), 'gitleaks openai-api-key, anthropic-api-key; trufflehog openai, anthropic, openrouter'),
  fmt('huggingface', 'hf_', atLeast(AN, 30), 'gitleaks huggingface-access-token; Hugging Face docs (User access tokens)'),
  fmt('huggingface-org', 'api_org_', atLeast(AN, 30), 'gitleaks huggingface-organization-api-token'),
  fmt('groq', 'gsk_', atLeast(AN, 40), 'secretlint groq rule; trufflehog groq'),
  fmt('perplexity', 'pplx-', atLeast(AN, 40), 'gitleaks perplexity-api-key'),
  fmt('xai', 'xai-', atLeast(AN, 60), 'trufflehog xai'),
  fmt('replicate', 'r8_', atLeast(AN, 30), 'trufflehog replicate; Replicate docs (API tokens)'),
  fmt('nvidia', 'nvapi-', atLeast(B64U, 60), 'trufflehog nvapi'),
  fmt('tavily', 'tvly-', atLeast(B64U, 28), 'trufflehog tavily'),
  fmt('langsmith', 'lsv2_pt_', atLeast(ANU, 32), 'trufflehog langsmith'),
  fmt('langsmith-sk', 'lsv2_sk_', atLeast(ANU, 32), 'trufflehog langsmith'),
  fmt('pinecone', 'pcsk_', atLeast(ANU, 40), 'trufflehog pinecone'),
  fmt('jina', 'jina_', atLeast(AN, 40), 'trufflehog jina'),
  fmt('fireworks', 'fw_', atLeast(AN, 20), 'trufflehog fireworksai'),
  fmt('cerebras', 'csk-', atLeast(AN, 40), 'trufflehog cerebras'),
  fmt('elevenlabs', 'sk_', exact(HEX, 48), 'trufflehog elevenlabs (sk_ + 48 hex)'),
  fmt('anyscale', 'esecret_', atLeast(AN, 20), 'trufflehog anyscale'),
  fmt('voyage', 'pa-', atLeast(B64U, 40), 'trufflehog voyageai'),
  fmt('runpod', 'rpa_', atLeast(AN, 40), 'trufflehog runpod'),
];

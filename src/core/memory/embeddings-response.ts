// Turns one /embeddings response into one Float32Array per input, in input order, or says exactly
// what is wrong with it. Servers that speak "OpenAI-compatible" differ: some ignore encoding_format
// and answer floats, some ignore `dimensions`, some answer out of order; a bad answer must never
// reach the index, where it would silently corrupt every later search.

/** Raised for a response that cannot be used; the caller adds which server and model. */
export class EmbeddingResponseError extends Error {}

/**
 * The vectors of `data`, ordered by each item's `index`. `count` is how many inputs were sent;
 * `dims`, when known (asked for, or seen before), is the length every vector must have.
 */
export function decodeEmbeddings(body: unknown, count: number, dims: number | undefined): Float32Array[] {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) throw new EmbeddingResponseError('the response has no "data" list');
  if (data.length !== count) {
    throw new EmbeddingResponseError(`the response has ${data.length} embeddings for ${count} inputs`);
  }
  const out: (Float32Array | undefined)[] = new Array(count);
  for (const item of data as unknown[]) {
    const { index, embedding } = (item ?? {}) as { index?: unknown; embedding?: unknown };
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count) {
      throw new EmbeddingResponseError(`an embedding has index ${JSON.stringify(index)}, expected 0 to ${count - 1}`);
    }
    if (out[index]) throw new EmbeddingResponseError(`two embeddings have index ${index}`);
    const v = toVector(embedding, index);
    dims ??= v.length;
    if (v.length !== dims) {
      throw new EmbeddingResponseError(`embedding ${index} has ${v.length} dimensions, expected ${dims}`);
    }
    out[index] = v;
  }
  return out as Float32Array[];
}

function toVector(embedding: unknown, index: number): Float32Array {
  let v: Float32Array;
  if (typeof embedding === 'string') {
    v = fromBase64(embedding, index);
  } else if (Array.isArray(embedding)) {
    v = new Float32Array(embedding.length);
    for (let j = 0; j < embedding.length; j++) {
      const x: unknown = embedding[j];
      if (typeof x !== 'number') throw new EmbeddingResponseError(`embedding ${index} holds a non-number at ${j}`);
      v[j] = x;
    }
  } else {
    throw new EmbeddingResponseError(`embedding ${index} is neither a list of numbers nor base64`);
  }
  if (v.length === 0) throw new EmbeddingResponseError(`embedding ${index} is empty`);
  for (let j = 0; j < v.length; j++) {
    if (!Number.isFinite(v[j])) throw new EmbeddingResponseError(`embedding ${index} holds ${v[j]} at ${j}`);
  }
  return v;
}

/** base64 of little-endian float32s (what OpenAI sends for encoding_format: 'base64'). */
function fromBase64(text: string, index: number): Float32Array {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length % 4 !== 0) {
    throw new EmbeddingResponseError(`embedding ${index} is ${bytes.length} base64 bytes, not whole float32s`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const v = new Float32Array(bytes.length / 4);
  for (let j = 0; j < v.length; j++) v[j] = view.getFloat32(j * 4, true);
  return v;
}

// The vector side of team memory on the server: chunk embeddings stored in pgvector's `vector`
// column (tagged with the provider's id, so vectors of different models are never compared),
// computed in the background after a write, in order, for the chunks that have none from the
// current model; and the nearest chunks by cosine distance, computed by the server. A search scans
// the chunks the scope allows (one team's agent): exact, with no index to keep (see the README's
// bench note). The store is told where the extension lives; every name of it is written qualified,
// since sessions search only the team's schema.
import type { EmbeddingProvider } from '../../memory/embeddings';
import { EmbeddingJobs, embeddingText } from '../../memory/memory-store-vectors';
import type { PgConnection } from './pg-connection';

const EMBED_BATCH = 64;

const quote = (ident: string) => `"${ident.replace(/"/g, '""')}"`;

/** A vector as pgvector's text form. */
export const vectorLiteral = (v: Float32Array): string => `[${Array.from(v, (x) => (Number.isFinite(x) ? x : 0)).join(',')}]`;

export class PgMemoryVectors extends EmbeddingJobs {
  /** `vector` and its operators, qualified with the extension's schema. */
  readonly type: string;
  readonly distance: string;
  readonly dims: string;

  constructor(private readonly db: PgConnection, private readonly teamId: string, extSchema: string) {
    super();
    this.type = `${quote(extSchema)}.vector`;
    this.distance = `OPERATOR(${quote(extSchema)}.<=>)`;
    this.dims = `${quote(extSchema)}.vector_dims`;
  }

  /** Embeds the team's chunks (of `docIds`, or of every document) with no vector from this provider; returns how many. */
  async embedMissing(provider: EmbeddingProvider, docIds?: number[], signal?: AbortSignal): Promise<number> {
    let after = 0;
    let done = 0;
    for (;;) {
      signal?.throwIfAborted();
      const rows = await this.db.query<{ id: number; hash: string; heading: string; text: string }>(
        `SELECT c.id, c.hash, c.heading, c.text FROM memory_chunks AS c JOIN memory_documents AS d ON d.id = c.doc_id
         WHERE d.team_id = $1 AND ($2::bigint[] IS NULL OR c.doc_id = ANY($2)) AND c.id > $3 AND c.embedding_model IS DISTINCT FROM $4
         ORDER BY c.id LIMIT ${EMBED_BATCH}`, [this.teamId, docIds ?? null, after, provider.id]);
      if (!rows.length) return done;
      after = rows[rows.length - 1]!.id;
      const vectors = await provider.embed(rows.map((r) => embeddingText(r.heading, r.text)), signal);
      if (vectors.length !== rows.length) throw new Error(`the embeddings provider returned ${vectors.length} vectors for ${rows.length} texts`);
      // Stored only where the chunk still has the text it was embedded from.
      await this.db.write({
        text: `UPDATE memory_chunks AS c SET embedding = u.v::${this.type}, embedding_model = $4
         FROM unnest($1::bigint[], $2::text[], $3::text[]) AS u(id, hash, v) WHERE c.id = u.id AND c.hash = u.hash`,
      }, [rows.map((r) => r.id), rows.map((r) => r.hash), vectors.map(vectorLiteral), provider.id]);
      done += rows.length;
    }
  }

  /** Whether any chunk of the team has a vector from this model. */
  async any(model: string): Promise<boolean> {
    const rows = await this.db.query(
      'SELECT 1 FROM memory_chunks AS c JOIN memory_documents AS d ON d.id = c.doc_id WHERE d.team_id = $1 AND c.embedding_model = $2 LIMIT 1', [this.teamId, model]);
    return rows.length > 0;
  }
}

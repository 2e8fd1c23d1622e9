// An exact (brute-force) cosine index over embedding vectors, in memory. Rows are normalised when
// stored, so cosine is a dot product, and all rows are scored per query by the SIMD kernel in
// vector-kernel.ts (plain JS when WebAssembly SIMD is missing). Brute force is exact and, at memory
// sizes (tens of thousands of chunks), a few milliseconds: no approximate structure to keep in sync.
//
// On large indexes with the SIMD kernel, an int8 copy of the rows (vector-quant.ts) is scanned first
// and only its best candidates are scored exactly; that answer is returned only when it is provably
// the exact one (no row left out can reach the k-th exact score within its quantization error),
// else the full float scan runs. Results are therefore always those of the exact scan.
import { createMatrix, strideFor, WasmMatrix, type KernelKind, type VectorMatrix } from './vector-kernel';
import { QuantRows } from './vector-quant';
import { topK, type ScoredId } from './vector-top-k';

export type { ScoredId } from './vector-top-k';

export interface VectorIndexOptions {
  /** 'auto' (default): WebAssembly SIMD when available, else JS. 'wasm' throws when unavailable. */
  kernel?: KernelKind | 'auto';
  /** false: never the int8 pre-scan, always the full float scan (the reference it is tested against). Default true. */
  prescan?: boolean;
}

const MAX_DIMS = 65536;
/** Rows from which the int8 pre-scan pays: below it the float scan takes well under a millisecond. */
const PRESCAN_MIN_ROWS = 4096;
/** Candidates rescored exactly: this many times k, at least PRESCAN_MIN_CANDIDATES. */
const PRESCAN_FACTOR = 4;
const PRESCAN_MIN_CANDIDATES = 256;

export class VectorIndex {
  readonly dims: number;
  private readonly stride: number;
  private readonly kernelChoice: KernelKind | 'auto';
  private readonly usePrescan: boolean;
  private matrix: VectorMatrix;
  /** id of the vector in each slot; slots [0, size) are used, with no holes (swap-remove). */
  private slotIds = new Float64Array(0);
  private readonly slots = new Map<number, number>();
  /** The int8 copy of the rows (wasm kernel only); undefined when it cannot be kept. */
  private quant: QuantRows | undefined;
  /** How the last search was answered, for tests: 'full' scan, or 'prescan' (int8 then exact rescoring). */
  lastSearch: 'full' | 'prescan' | undefined;

  constructor(dims: number, options: VectorIndexOptions = {}) {
    if (!Number.isInteger(dims) || dims < 1 || dims > MAX_DIMS) {
      throw new RangeError(`VectorIndex dims must be an integer from 1 to ${MAX_DIMS}, got ${dims}`);
    }
    this.dims = dims;
    this.stride = strideFor(dims);
    this.kernelChoice = options.kernel ?? 'auto';
    this.usePrescan = options.prescan ?? true;
    this.matrix = createMatrix(this.kernelChoice, this.stride);
    this.quant = this.newQuant();
  }

  get size(): number {
    return this.slots.size;
  }

  /** Which scoring loop runs: 'wasm' (SIMD) or 'js'. */
  get kernel(): KernelKind {
    return this.matrix.kind;
  }

  has(id: number): boolean {
    return this.slots.has(id);
  }

  /**
   * Stores (or replaces) the vector of `id`, normalised to unit length. A zero vector is kept as
   * zeros: it has no direction, so it scores 0 against every query.
   */
  upsert(id: number, v: Float32Array): void {
    if (!Number.isSafeInteger(id)) throw new RangeError(`VectorIndex ids must be integers, got ${id}`);
    const inv = this.inverseNorm(v, `vector for id ${id}`);
    let slot = this.slots.get(id);
    if (slot === undefined) {
      slot = this.slots.size;
      this.ensureCapacity(slot + 1);
      this.slotIds[slot] = id;
      this.slots.set(id, slot);
    }
    const rows = this.matrix.rows();
    const at = slot * this.stride;
    for (let j = 0; j < this.dims; j++) rows[at + j] = v[j] * inv;
    // Padding lanes: after a wasm grow they may hold old scratch scores. The query's padding is zero,
    // so they could not change a score, but a row is kept clean for whoever reads it next.
    rows.fill(0, at + this.dims, at + this.stride);
    this.quant?.set(slot, rows.subarray(at, at + this.dims));
  }

  /** Forgets `id` (no-op when absent). The last row moves into the hole, so storage stays dense. */
  remove(id: number): void {
    const slot = this.slots.get(id);
    if (slot === undefined) return;
    const last = this.slots.size - 1;
    if (slot !== last) {
      const rows = this.matrix.rows();
      rows.copyWithin(slot * this.stride, last * this.stride, (last + 1) * this.stride);
      this.quant?.move(last, slot);
      const moved = this.slotIds[last];
      this.slotIds[slot] = moved;
      this.slots.set(moved, slot);
    }
    this.slots.delete(id);
  }

  /** Forgets everything and releases the storage (wasm memory cannot shrink, so a new instance). */
  clear(): void {
    this.slots.clear();
    this.slotIds = new Float64Array(0);
    this.matrix = createMatrix(this.kernelChoice, this.stride);
    this.quant = this.newQuant();
  }

  private newQuant(): QuantRows | undefined {
    return this.usePrescan && this.matrix.kind === 'wasm' ? QuantRows.create(this.dims) : undefined;
  }

  /**
   * The `k` stored vectors most similar to `q` by cosine, best first (ties: lower id first).
   * `accept` filters ids (asked only about would-be results). A zero query has no direction and
   * finds nothing. k ≤ 0 gives []; k beyond size gives every accepted vector.
   */
  search(q: Float32Array, k: number, accept?: (id: number) => boolean): ScoredId[] {
    if (Number.isNaN(k)) throw new RangeError('VectorIndex.search: k must be a number, got NaN');
    const inv = this.inverseNorm(q, 'query vector');
    const n = this.slots.size;
    if (k <= 0 || n === 0 || inv === 0) return [];
    const query = this.matrix.query();
    for (let j = 0; j < this.dims; j++) query[j] = q[j] * inv;
    query.fill(0, this.dims);
    const want = Math.floor(k);
    const pre = this.quant && n >= PRESCAN_MIN_ROWS ? this.prescanned(query, n, want, accept) : undefined;
    this.lastSearch = pre ? 'prescan' : 'full';
    return pre ?? topK(this.matrix.scores(n), this.slotIds, n, want, accept);
  }

  /** The exact top k through the int8 pre-scan, or undefined when that cannot be proven (then: full scan). */
  private prescanned(query: Float32Array, n: number, k: number, accept?: (id: number) => boolean): ScoredId[] | undefined {
    const m = Math.max(k * PRESCAN_FACTOR, PRESCAN_MIN_CANDIDATES);
    const matrix = this.matrix;
    if (!(matrix instanceof WasmMatrix) || m >= n || 2 * m > matrix.capacity) return undefined;
    const scan = this.quant!.scan(query, n);
    const candidates = topK(scan.approx, this.slotIds, n, m, accept);
    const slots = new Int32Array(candidates.length);
    const ids = new Float64Array(candidates.length);
    candidates.forEach((c, j) => {
      slots[j] = this.slots.get(c.id)!;
      ids[j] = c.id;
    });
    const best = topK(matrix.scoresAt(slots, slots.length), ids, slots.length, k);
    // Fewer candidates than asked for: every accepted row is one of them.
    if (candidates.length < m) return best;
    const kth = best[best.length - 1].score;
    const taken = new Uint8Array(n);
    for (const slot of slots) taken[slot] = 1;
    for (let i = 0; i < n; i++) {
      if (taken[i] || scan.approx[i] + scan.bound(i) < kth) continue;
      // This row might tie or beat the k-th: only a row the filter refuses cannot.
      if (!accept || accept(this.slotIds[i])) return undefined;
    }
    return best;
  }

  /** 1/‖v‖ (0 for a zero vector), after checking the length and that every value is finite. */
  private inverseNorm(v: Float32Array, what: string): number {
    if (!v || typeof v.length !== 'number' || v.length !== this.dims) {
      throw new RangeError(`VectorIndex: ${what} has ${v?.length} dimensions, the index has ${this.dims}`);
    }
    let ss = 0;
    for (let j = 0; j < this.dims; j++) {
      const x = v[j];
      if (!Number.isFinite(x)) {
        throw new RangeError(`VectorIndex: ${what} has a non-finite value (${x}) at position ${j}`);
      }
      ss += x * x;
    }
    return ss > 0 ? 1 / Math.sqrt(ss) : 0;
  }

  private ensureCapacity(rows: number): void {
    if (rows <= this.matrix.capacity) return;
    const used = this.slots.size;
    if (this.quant && !this.quant.grow(rows, used)) this.quant = undefined; // no room: full scans only
    if (!this.matrix.grow(rows, used)) {
      // Past what wasm memory can hold (4 GB): carry on in a plain JS array if the heap allows.
      const fallback = createMatrix('js', this.stride);
      if (this.matrix.kind === 'js' || !fallback.grow(rows, 0)) {
        throw new RangeError(`VectorIndex: no memory for ${rows} vectors of ${this.dims} dimensions`);
      }
      fallback.rows().set(this.matrix.rows().subarray(0, used * this.stride));
      this.matrix = fallback;
      this.quant = undefined;
    }
    if (this.slotIds.length < this.matrix.capacity) {
      const ids = new Float64Array(this.matrix.capacity);
      ids.set(this.slotIds.subarray(0, used));
      this.slotIds = ids;
    }
  }
}

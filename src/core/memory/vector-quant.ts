// The int8 copy of VectorIndex's rows, for a pre-scan: a quarter of the bytes of the float rows, so
// scoring every row against a query reads 19 MB instead of 77 MB at 50,000 × 384, and memory
// bandwidth is what a full scan costs. Each row is scaled by its own largest component (x ≈ s·q,
// q in [-127, 127]), and so is the query.
//
// The pre-scan only picks candidates; VectorIndex rescores them with the exact float kernel and
// keeps the result only when it is provably the exact top k (vector-index.ts): every row left out
// must score below the k-th exact score even with the largest error its quantization allows. The
// error of one row's approximate dot product, for unit vectors x (row) and y (query), is at most
//   |x·y − s_x·s_y·(q_x·q_y)| ≤ (s_x/2)·‖y‖₁ + (s_y/2)·Σ_{i: y_i ≠ 0} |x̂_i|
// (x − x̂ is at most s_x/2 per component; y − ŷ likewise, and exactly 0 where y_i is 0), and the
// last sum is bounded by both ‖x̂‖₁ and nnz(y)·127·s_x. A small slack covers float rounding.
import { dots8Kernel } from './vector-kernel';

/** Added to every error bound: the float kernel's own rounding, far above what 384 products add up to. */
const SLACK = 1e-4;

export interface PreScan {
  /** Approximate score of each of the first n rows. */
  approx: Float64Array;
  /** The bound on |exact − approx| for row i. */
  bound(i: number): number;
}

export class QuantRows {
  /** Bytes a row takes: dims rounded up to 16 (the kernel reads 16 at a time; padding is zero). */
  readonly stride: number;
  private readonly kernel: NonNullable<ReturnType<typeof dots8Kernel>>;
  private cap = 0;
  private scales = new Float32Array(0);
  private l1 = new Float32Array(0);
  private approx = new Float64Array(0);

  private constructor(readonly dims: number, kernel: NonNullable<ReturnType<typeof dots8Kernel>>) {
    this.stride = Math.ceil(dims / 16) * 16;
    this.kernel = kernel;
  }

  /** undefined when this runtime has no WebAssembly SIMD (the index then scans the float rows only). */
  static create(dims: number): QuantRows | undefined {
    const kernel = dots8Kernel();
    return kernel ? new QuantRows(dims, kernel) : undefined;
  }

  /** Makes room for `rows` rows, keeping the first `used`; false when memory runs out. */
  grow(rows: number, used: number): boolean {
    if (rows <= this.cap) return true;
    const cap = Math.max(rows, this.cap * 2, 64);
    if (!this.kernel.reserve(this.stride, cap)) return false;
    const scales = new Float32Array(cap);
    scales.set(this.scales.subarray(0, used));
    const l1 = new Float32Array(cap);
    l1.set(this.l1.subarray(0, used));
    this.scales = scales;
    this.l1 = l1;
    this.approx = new Float64Array(cap);
    this.cap = cap;
    return true;
  }

  /** Stores row `slot` from the unit vector `v` (its first `dims` values). */
  set(slot: number, v: ArrayLike<number>): void {
    const rows = this.kernel.rows(this.stride, this.cap);
    let max = 0;
    for (let j = 0; j < this.dims; j++) max = Math.max(max, Math.abs(v[j]));
    const scale = max / 127;
    const at = slot * this.stride;
    let sum = 0;
    for (let j = 0; j < this.dims; j++) {
      const q = scale > 0 ? Math.round(v[j] / scale) : 0;
      rows[at + j] = q;
      sum += Math.abs(q);
    }
    rows.fill(0, at + this.dims, at + this.stride);
    this.scales[slot] = scale;
    this.l1[slot] = sum * scale;
  }

  /** Copies row `from` over row `to` (VectorIndex's swap-remove). */
  move(from: number, to: number): void {
    const rows = this.kernel.rows(this.stride, this.cap);
    rows.copyWithin(to * this.stride, from * this.stride, (from + 1) * this.stride);
    this.scales[to] = this.scales[from];
    this.l1[to] = this.l1[from];
  }

  /** Approximate scores of rows [0, n) against the unit query `y`, with each row's error bound. */
  scan(y: ArrayLike<number>, n: number): PreScan {
    const query = this.kernel.query(this.stride, this.cap);
    let max = 0;
    let l1y = 0;
    let nnz = 0;
    for (let j = 0; j < this.dims; j++) {
      const a = Math.abs(y[j]);
      max = Math.max(max, a);
      l1y += a;
      if (a > 0) nnz++;
    }
    const sy = max / 127;
    for (let j = 0; j < this.dims; j++) query[j] = sy > 0 ? Math.round(y[j] / sy) : 0;
    query.fill(0, this.dims, this.stride);
    const dots = this.kernel.run(this.stride, this.cap, n);
    const { scales, l1, approx } = this;
    for (let i = 0; i < n; i++) approx[i] = dots[i] * scales[i] * sy;
    return {
      approx,
      bound: (i) => (scales[i] / 2) * l1y + (sy / 2) * Math.min(l1[i], nnz * 127 * scales[i]) + SLACK,
    };
  }
}

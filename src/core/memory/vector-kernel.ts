// Where VectorIndex keeps its rows and how it scores them all against a query: a WebAssembly SIMD
// kernel (vector-kernel.wat) when the runtime has WebAssembly SIMD, else plain JavaScript.
//
// The wasm matrix lives in the wasm instance's own memory from the start rather than in a JS array
// copied in before each query: a copy of 50,000 × 384 floats (77 MB) would cost about as much as the
// scoring itself, and keeping two copies doubles the footprint. Layout, in floats:
//   [query: stride][rows: capacity × stride][scores: capacity]
// The rows start at a fixed offset, so growing (memory.grow keeps the bytes) never moves a row; only
// the scratch scores move to the new end. Memory cannot shrink, so VectorIndex.clear() drops the whole
// instance instead.
import { VECTOR_KERNEL_WASM_BASE64 } from './vector-kernel-wasm';

export type KernelKind = 'wasm' | 'js';

/** Row storage plus the scoring loop. Views returned here are invalid after grow(). */
export interface VectorMatrix {
  readonly kind: KernelKind;
  /** Floats a row takes: dims rounded up to a multiple of 4 (padding lanes are zero). */
  readonly stride: number;
  readonly capacity: number;
  /** The query buffer, `stride` floats; the caller writes the normalised query (and zero padding). */
  query(): Float32Array;
  /** capacity × stride floats. */
  rows(): Float32Array;
  /** Makes room for at least `rows` rows, keeping the first `used`. False when memory runs out. */
  grow(rows: number, used: number): boolean;
  /** dot(query, row i) for i < n, valid until the next call. */
  scores(n: number): ArrayLike<number>;
}

const WASM_PAGE = 65536;
const MIN_CAPACITY = 64;

/** Floats a row takes in either matrix: the kernel reads 4 lanes at a time. */
export function strideFor(dims: number): number {
  return Math.ceil(dims / 4) * 4;
}

function nextCapacity(current: number, wanted: number): number {
  return Math.max(wanted, current * 2, MIN_CAPACITY);
}

// ---- plain JavaScript -------------------------------------------------------------------------

/** The fallback: a Float32Array grown by doubling, and a 4-way unrolled dot product. */
export class JsMatrix implements VectorMatrix {
  readonly kind = 'js';
  private data: Float32Array = new Float32Array(0);
  private readonly q: Float32Array;
  private out = new Float64Array(0);
  private cap = 0;

  constructor(readonly stride: number) {
    this.q = new Float32Array(stride);
  }

  get capacity(): number {
    return this.cap;
  }
  query(): Float32Array {
    return this.q;
  }
  rows(): Float32Array {
    return this.data;
  }

  grow(rows: number, used: number): boolean {
    if (rows <= this.cap) return true;
    const cap = nextCapacity(this.cap, rows);
    let next: Float32Array;
    try {
      next = new Float32Array(cap * this.stride);
    } catch {
      return false;
    }
    next.set(this.data.subarray(0, used * this.stride));
    this.data = next;
    this.out = new Float64Array(cap);
    this.cap = cap;
    return true;
  }

  scores(n: number): Float64Array {
    const { q, data, out, stride } = this;
    // Four partial sums break the dependency chain between additions (stride is a multiple of 4).
    for (let i = 0, o = 0; i < n; i++, o += stride) {
      let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      for (let j = 0; j < stride; j += 4) {
        s0 += q[j] * data[o + j];
        s1 += q[j + 1] * data[o + j + 1];
        s2 += q[j + 2] * data[o + j + 2];
        s3 += q[j + 3] * data[o + j + 3];
      }
      out[i] = s0 + s1 + s2 + s3;
    }
    return out;
  }
}

// ---- WebAssembly SIMD -------------------------------------------------------------------------

// The project compiles against ES2022 + node types, which do not declare WebAssembly; this is the
// little of it used here.
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports?: object) => { exports: Record<string, unknown> };
}
type DotsFn = (query: number, matrix: number, scores: number, rows: number, stride: number) => void;
type DotsAtFn = (query: number, matrix: number, scores: number, slots: number, count: number, stride: number) => void;

let kernelModule: object | null | undefined;

/** The compiled kernel, or null when this runtime has no WebAssembly SIMD (compiled once). */
function compiledKernel(): object | null {
  if (kernelModule !== undefined) return kernelModule;
  const api = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
  try {
    kernelModule = api ? new api.Module(Buffer.from(VECTOR_KERNEL_WASM_BASE64, 'base64')) : null;
  } catch {
    kernelModule = null; // no SIMD: the module does not validate
  }
  return kernelModule;
}

export function wasmSimdAvailable(): boolean {
  return compiledKernel() !== null;
}

function instantiate(): Record<string, unknown> | undefined {
  const module = compiledKernel();
  if (!module) return undefined;
  const api = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
  return new api.Instance(module, {}).exports;
}

/**
 * The int8 pre-scan kernel (dots8) in an instance of its own, for vector-quant.ts; undefined without
 * WebAssembly SIMD. Layout in bytes: [query: stride][rows: capacity × stride][dots: capacity i32].
 * Views are made per call, since growing the memory detaches the old ones.
 */
export function dots8Kernel(): {
  reserve(stride: number, capacity: number): boolean;
  query(stride: number, capacity: number): Int8Array;
  rows(stride: number, capacity: number): Int8Array;
  run(stride: number, capacity: number, n: number): Int32Array;
} | undefined {
  const exports = instantiate();
  if (!exports) return undefined;
  const memory = exports.memory as WasmMemory;
  const dots8 = exports.dots8 as DotsFn;
  return {
    reserve(stride, capacity) {
      const bytes = stride + capacity * stride + capacity * 4;
      if (bytes > 2 ** 32) return false;
      const pages = Math.ceil(bytes / WASM_PAGE) - memory.buffer.byteLength / WASM_PAGE;
      try {
        if (pages > 0) memory.grow(pages);
      } catch {
        return false;
      }
      return true;
    },
    query: (stride) => new Int8Array(memory.buffer, 0, stride),
    rows: (stride, capacity) => new Int8Array(memory.buffer, stride, capacity * stride),
    run(stride, capacity, n) {
      const out = stride + capacity * stride;
      dots8(0, stride, out, n, stride);
      return new Int32Array(memory.buffer, out, n);
    },
  };
}

export class WasmMatrix implements VectorMatrix {
  readonly kind = 'wasm';
  private readonly memory: WasmMemory;
  private readonly dots: DotsFn;
  private readonly dotsAt: DotsAtFn;
  private cap = 0;
  private views!: { query: Float32Array; rows: Float32Array; scores: Float32Array };

  /** Throws when WebAssembly SIMD is unavailable (see wasmSimdAvailable). */
  constructor(readonly stride: number) {
    const exports = instantiate();
    if (!exports) throw new Error('WebAssembly SIMD is not available in this runtime');
    this.memory = exports.memory as WasmMemory;
    this.dots = exports.dots as DotsFn;
    this.dotsAt = exports.dotsAt as DotsAtFn;
    this.refreshViews();
  }

  get capacity(): number {
    return this.cap;
  }
  query(): Float32Array {
    return this.views.query;
  }
  rows(): Float32Array {
    return this.views.rows;
  }

  grow(rows: number, _used: number): boolean {
    if (rows <= this.cap) return true;
    for (const cap of [nextCapacity(this.cap, rows), rows]) {
      const bytes = (this.stride + cap * this.stride + cap) * 4;
      if (bytes > 2 ** 32) continue; // past wasm32's 4 GB address space
      const pages = Math.ceil(bytes / WASM_PAGE) - this.memory.buffer.byteLength / WASM_PAGE;
      try {
        if (pages > 0) this.memory.grow(pages); // keeps the bytes: rows stay where they are
      } catch {
        continue; // RangeError: the engine refused the memory
      }
      this.cap = cap;
      this.refreshViews();
      return true;
    }
    return false;
  }

  scores(n: number): Float32Array {
    const s = this.stride;
    this.dots(0, s * 4, (s + this.cap * s) * 4, n, s);
    return this.views.scores;
  }

  /**
   * Scores of the chosen rows only, by the same arithmetic as scores() (so equal to a full scan's),
   * valid until the next call. The slots are staged in the scratch scores: 2 × count ≤ capacity.
   */
  scoresAt(slots: ArrayLike<number>, count: number): Float32Array {
    const s = this.stride;
    const out = (s + this.cap * s) * 4;
    if (2 * count > this.cap) throw new RangeError(`scoresAt: ${count} rows need a capacity of ${2 * count}, not ${this.cap}`);
    const staged = new Int32Array(this.memory.buffer, out + count * 4, count);
    for (let j = 0; j < count; j++) staged[j] = slots[j];
    this.dotsAt(0, s * 4, out, out + count * 4, count, s);
    return this.views.scores.subarray(0, count);
  }

  private refreshViews(): void {
    const buf = this.memory.buffer;
    const s = this.stride;
    this.views = {
      query: new Float32Array(buf, 0, s),
      rows: new Float32Array(buf, s * 4, this.cap * s),
      scores: new Float32Array(buf, (s + this.cap * s) * 4, this.cap),
    };
  }
}

/** A matrix of the wanted kind; 'auto' picks wasm when available. */
export function createMatrix(kind: KernelKind | 'auto', stride: number): VectorMatrix {
  if (kind === 'js' || (kind === 'auto' && !wasmSimdAvailable())) return new JsMatrix(stride);
  return new WasmMatrix(stride);
}

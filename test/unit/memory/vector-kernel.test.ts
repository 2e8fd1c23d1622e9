import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import wabt from 'wabt';
import { JsMatrix, strideFor, WasmMatrix } from '../../../src/core/memory/vector-kernel';
import { VECTOR_KERNEL_WASM_BASE64 } from '../../../src/core/memory/vector-kernel-wasm';
import { randomVector, rng } from '../../support/vector-fixtures';

const WAT = path.join(__dirname, '..', '..', '..', '..', 'src', 'core', 'memory', 'vector-kernel.wat');

describe('memory vector kernel', () => {
  it('the checked-in wasm bytes are exactly what vector-kernel.wat compiles to', async () => {
    // Same steps as scripts/build-vector-kernel.mjs; rerun it after editing the .wat.
    const mod = (await wabt()).parseWat('vector-kernel.wat', fs.readFileSync(WAT, 'utf8'), { simd: true });
    mod.validate();
    const fresh = Buffer.from(mod.toBinary({}).buffer);
    mod.destroy();
    assert.ok(fresh.length > 100);
    assert.ok(
      fresh.equals(Buffer.from(VECTOR_KERNEL_WASM_BASE64, 'base64')),
      'src/core/memory/vector-kernel-wasm.ts is stale: run `node scripts/build-vector-kernel.mjs`',
    );
  });

  it('the SIMD dot products match plain ones for every tail length (wide steps of 16, then 4s)', () => {
    const next = rng(1);
    for (const dims of [1, 4, 12, 16, 17, 28, 64, 100]) {
      const stride = strideFor(dims);
      assert.equal(stride % 4, 0);
      const wasm = new WasmMatrix(stride);
      const js = new JsMatrix(stride);
      const n = 70; // past the first capacity (64): the wasm memory grows once
      for (const m of [wasm, js]) assert.ok(m.grow(n, 0));
      const q = randomVector(next, dims);
      wasm.query().set(q);
      js.query().set(q);
      for (let i = 0; i < n; i++) {
        const row = randomVector(next, dims);
        wasm.rows().set(row, i * stride);
        js.rows().set(row, i * stride);
      }
      const a = wasm.scores(n);
      const b = js.scores(n);
      for (let i = 0; i < n; i++) {
        let want = 0;
        for (let j = 0; j < dims; j++) want += q[j] * js.rows()[i * stride + j];
        assert.ok(Math.abs(a[i] - want) < 1e-4 && Math.abs(b[i] - want) < 1e-9, `dims ${dims} row ${i}: ${a[i]} ${b[i]} ${want}`);
      }
    }
  });

  it('growing the wasm memory keeps the rows in place', () => {
    const m = new WasmMatrix(8);
    assert.ok(m.grow(10, 0));
    m.rows().set([1, 2, 3, 4, 5, 6, 7, 8], 8 * 9);
    assert.ok(m.grow(100_000, 10));
    assert.ok(m.capacity >= 100_000);
    assert.deepEqual(Array.from(m.rows().subarray(72, 80)), [1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('falls back to JS where the runtime has no WebAssembly (node --jitless), and says so', () => {
    const script = `
      const { VectorIndex } = require(${JSON.stringify(path.join(__dirname, '..', '..', '..', 'src', 'core', 'memory', 'vector-index.js'))});
      const index = new VectorIndex(3);
      index.upsert(7, new Float32Array([0, 2, 0]));
      index.upsert(8, new Float32Array([1, 1, 0]));
      let forced = '';
      try { new VectorIndex(3, { kernel: 'wasm' }); } catch (e) { forced = e.message; }
      console.log(JSON.stringify({ kernel: index.kernel, hits: index.search(new Float32Array([0, 1, 0]), 2).map((h) => h.id), forced }));`;
    const r = spawnSync(process.execPath, ['--jitless', '-e', script], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout.trim().split('\n').at(-1)!), {
      kernel: 'js',
      hits: [7, 8],
      forced: 'WebAssembly SIMD is not available in this runtime',
    });
  });
});

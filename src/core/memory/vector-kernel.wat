;; The scoring kernel of VectorIndex: scores[i] = dot(query, row i) for every stored row, with
;; WebAssembly SIMD (f32x4). Rows are normalised when stored, so a dot product is the cosine.
;;
;; Memory layout (all offsets 16-byte aligned, owned by vector-kernel.ts):
;;   [query: stride floats][matrix: capacity rows x stride floats][scores: capacity floats]
;; `stride` is the dimension count rounded up to a multiple of 4; the padding lanes are zero in both
;; the query and the rows, so they add nothing to a dot product.
;;
;; Compiled to src/core/memory/vector-kernel-wasm.ts by scripts/build-vector-kernel.mjs; a unit test
;; recompiles this file and fails when the checked-in bytes differ.
(module
  (memory (export "memory") 1)

  ;; dots(query, matrix, scores, rows, stride): all pointers are byte offsets; stride is in floats.
  (func (export "dots")
    (param $q i32) (param $m i32) (param $out i32) (param $rows i32) (param $stride i32)
    (local $rowBytes i32) (local $end i32) (local $wideEnd i32) (local $qi i32) (local $mi i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local.set $rowBytes (i32.shl (local.get $stride) (i32.const 2)))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $rows) (i32.const 2))))
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $a0 (v128.const i64x2 0 0))
        (local.set $a1 (v128.const i64x2 0 0))
        (local.set $a2 (v128.const i64x2 0 0))
        (local.set $a3 (v128.const i64x2 0 0))
        (local.set $qi (local.get $q))
        (local.set $mi (local.get $m))
        ;; Four independent accumulators, 16 floats a step: the adds do not wait on each other.
        (local.set $wideEnd (i32.add (local.get $m) (i32.and (local.get $rowBytes) (i32.const -64))))
        (block $wideDone
          (loop $wide
            (br_if $wideDone (i32.ge_u (local.get $mi) (local.get $wideEnd)))
            (local.set $a0 (f32x4.add (local.get $a0)
              (f32x4.mul (v128.load offset=0 (local.get $qi)) (v128.load offset=0 (local.get $mi)))))
            (local.set $a1 (f32x4.add (local.get $a1)
              (f32x4.mul (v128.load offset=16 (local.get $qi)) (v128.load offset=16 (local.get $mi)))))
            (local.set $a2 (f32x4.add (local.get $a2)
              (f32x4.mul (v128.load offset=32 (local.get $qi)) (v128.load offset=32 (local.get $mi)))))
            (local.set $a3 (f32x4.add (local.get $a3)
              (f32x4.mul (v128.load offset=48 (local.get $qi)) (v128.load offset=48 (local.get $mi)))))
            (local.set $qi (i32.add (local.get $qi) (i32.const 64)))
            (local.set $mi (i32.add (local.get $mi) (i32.const 64)))
            (br $wide)))
        ;; The rest of the row, 4 floats a step (stride is a multiple of 4).
        (local.set $wideEnd (i32.add (local.get $m) (local.get $rowBytes)))
        (block $tailDone
          (loop $tail
            (br_if $tailDone (i32.ge_u (local.get $mi) (local.get $wideEnd)))
            (local.set $a0 (f32x4.add (local.get $a0)
              (f32x4.mul (v128.load (local.get $qi)) (v128.load (local.get $mi)))))
            (local.set $qi (i32.add (local.get $qi) (i32.const 16)))
            (local.set $mi (i32.add (local.get $mi) (i32.const 16)))
            (br $tail)))
        (local.set $a0 (f32x4.add (f32x4.add (local.get $a0) (local.get $a1))
                                  (f32x4.add (local.get $a2) (local.get $a3))))
        (f32.store (local.get $out)
          (f32.add
            (f32.add (f32x4.extract_lane 0 (local.get $a0)) (f32x4.extract_lane 1 (local.get $a0)))
            (f32.add (f32x4.extract_lane 2 (local.get $a0)) (f32x4.extract_lane 3 (local.get $a0)))))
        (local.set $m (local.get $mi))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $row)))))

;; The scoring kernel of VectorIndex: scores[i] = dot(query, row i) for every stored row, with
;; WebAssembly SIMD (f32x4). Rows are normalised when stored, so a dot product is the cosine.
;;
;; Memory layout (all offsets 16-byte aligned, owned by vector-kernel.ts):
;;   [query: stride floats][matrix: capacity rows x stride floats][scores: capacity floats]
;; `stride` is the dimension count rounded up to a multiple of 4; the padding lanes are zero in both
;; the query and the rows, so they add nothing to a dot product.
;;
;; dotsAt scores chosen rows with the very same arithmetic as dots, so a rescored candidate has
;; exactly the score a full scan gives it. dots8 is the int8 pre-scan (vector-quant.ts): int8 rows
;; and query, i32 dot products, in an instance of its own with the layout
;;   [query: stride bytes][matrix: capacity rows x stride bytes][dots: capacity i32]
;; where `stride` is the dimension count rounded up to a multiple of 16.
;;
;; Compiled to src/core/memory/vector-kernel-wasm.ts by scripts/build-vector-kernel.mjs; a unit test
;; recompiles this file and fails when the checked-in bytes differ.
(module
  (memory (export "memory") 1)

  ;; dot(query, row) for one f32 row at byte offset $m; stride in floats.
  (func $row (param $q i32) (param $m i32) (param $stride i32) (result f32)
    (local $rowBytes i32) (local $wideEnd i32) (local $qi i32) (local $mi i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local.set $rowBytes (i32.shl (local.get $stride) (i32.const 2)))
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
    (f32.add
      (f32.add (f32x4.extract_lane 0 (local.get $a0)) (f32x4.extract_lane 1 (local.get $a0)))
      (f32.add (f32x4.extract_lane 2 (local.get $a0)) (f32x4.extract_lane 3 (local.get $a0)))))

  ;; dots(query, matrix, scores, rows, stride): all pointers are byte offsets; stride is in floats.
  (func (export "dots")
    (param $q i32) (param $m i32) (param $out i32) (param $rows i32) (param $stride i32)
    (local $rowBytes i32) (local $end i32)
    (local.set $rowBytes (i32.shl (local.get $stride) (i32.const 2)))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $rows) (i32.const 2))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (f32.store (local.get $out) (call $row (local.get $q) (local.get $m) (local.get $stride)))
        (local.set $m (i32.add (local.get $m) (local.get $rowBytes)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $next))))

  ;; dotsAt(query, matrix, scores, slots, count, stride): scores[j] = dot(query, row slots[j]) for
  ;; j < count; slots is an array of i32 row numbers.
  (func (export "dotsAt")
    (param $q i32) (param $m i32) (param $out i32) (param $slots i32) (param $count i32) (param $stride i32)
    (local $rowBytes i32) (local $end i32)
    (local.set $rowBytes (i32.shl (local.get $stride) (i32.const 2)))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $count) (i32.const 2))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (f32.store (local.get $out) (call $row (local.get $q)
          (i32.add (local.get $m) (i32.mul (i32.load (local.get $slots)) (local.get $rowBytes))) (local.get $stride)))
        (local.set $slots (i32.add (local.get $slots) (i32.const 4)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $next))))

  ;; dots8(query, matrix, dots, rows, stride): int8 rows and query, i32 results; stride in bytes
  ;; (a multiple of 16). Products are widened to i16 and summed pairwise into i32 lanes: a lane
  ;; adds at most 2 x 127 x 127 per 16 bytes, far from overflowing at any dimension count here.
  (func (export "dots8")
    (param $q i32) (param $m i32) (param $out i32) (param $rows i32) (param $stride i32)
    (local $end i32) (local $rowEnd i32) (local $qi i32) (local $a v128) (local $b v128) (local $acc v128)
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $rows) (i32.const 2))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $acc (v128.const i64x2 0 0))
        (local.set $qi (local.get $q))
        (local.set $rowEnd (i32.add (local.get $m) (local.get $stride)))
        (block $rowDone
          (loop $step
            (br_if $rowDone (i32.ge_u (local.get $m) (local.get $rowEnd)))
            (local.set $a (v128.load (local.get $qi)))
            (local.set $b (v128.load (local.get $m)))
            (local.set $acc (i32x4.add (local.get $acc)
              (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $a)) (i16x8.extend_low_i8x16_s (local.get $b)))))
            (local.set $acc (i32x4.add (local.get $acc)
              (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $a)) (i16x8.extend_high_i8x16_s (local.get $b)))))
            (local.set $qi (i32.add (local.get $qi) (i32.const 16)))
            (local.set $m (i32.add (local.get $m) (i32.const 16)))
            (br $step)))
        (i32.store (local.get $out)
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
            (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $next)))))

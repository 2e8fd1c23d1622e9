// A seeded shuffle (Fisher–Yates over a linear congruential generator): every round of a board race
// visits the tasks in its own order, the same order in every run.
export function shuffled(ids, seed) {
  const a = [...ids];
  let s = seed;
  for (let i = a.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const j = s % (i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/**
 * Resolves once `cond` holds, checked every 10 ms: for state that has no event of its own to wait
 * for. The calling test's timeout bounds the wait.
 */
export async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 10));
}

// Whole numbers with thousands separators ("12,345") for the messages tools return. Not
// toLocaleString: its first call in a process loads ICU's locale data (~20-50 ms), which a tool's
// first call would pay, and the text the model reads should not depend on the host's locale anyway.
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const [int, frac] = String(Math.abs(n)).split('.');
  const grouped = int.length > 3 && !int.includes('e') ? int.replace(/\B(?=(\d{3})+$)/g, ',') : int;
  return `${n < 0 ? '-' : ''}${grouped}${frac === undefined ? '' : `.${frac}`}`;
}

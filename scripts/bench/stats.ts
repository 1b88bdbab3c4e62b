/** Order statistics of a sample (milliseconds or any unit). */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index]!;
}

export const median = (values: number[]) => quantile(values, 0.5);

export interface Spread {
  min: number;
  median: number;
  max: number;
}

export function spread(values: number[]): Spread {
  return { min: Math.min(...values), median: median(values), max: Math.max(...values) };
}

export const fixed = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

export function formatSpread(s: Spread, digits = 2): string {
  return `${fixed(s.min, digits)} / ${fixed(s.median, digits)} / ${fixed(s.max, digits)}`;
}

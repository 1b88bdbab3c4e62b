import type { EventFilterPattern } from '../../infra/streams.ts';

// Lambda's event filtering (https://docs.aws.amazon.com/lambda/latest/dg/invocation-eventfiltering.html),
// as the stream poller applies it to each record before a batch is built: a record is delivered
// when it matches one of the mapping's patterns (or when there are none). A pattern is an object
// whose leaves are lists of rules; a field matches a list when it matches one rule of it. Only the
// rules the stack uses are played here: an exact string, number or boolean, and `{ "prefix": ... }`. Any
// other rule is an error when the poller starts, not a record silently let through.

type Rule = string | number | boolean | { prefix: string };

function isRule(rule: unknown): rule is Rule {
  if (typeof rule === 'string' || typeof rule === 'number' || typeof rule === 'boolean') return true;
  return typeof rule === 'object' && rule !== null && Object.keys(rule).length === 1 && typeof (rule as { prefix?: unknown }).prefix === 'string';
}

/** Throws unless every leaf of `pattern` is a list of rules this module can play. */
export function checkPattern(pattern: unknown, path = 'pattern'): void {
  if (Array.isArray(pattern)) {
    const unknown = pattern.find((rule) => !isRule(rule));
    if (pattern.length === 0 || unknown !== undefined) throw new Error(`The event filter rule at ${path} is not played locally: ${JSON.stringify(pattern)}`);
    return;
  }
  if (typeof pattern !== 'object' || pattern === null) throw new Error(`The event filter at ${path} is not an object or a list of rules`);
  for (const [key, value] of Object.entries(pattern)) checkPattern(value, `${path}.${key}`);
}

function matches(value: unknown, pattern: unknown): boolean {
  if (Array.isArray(pattern)) {
    return (pattern as Rule[]).some((rule) => (typeof rule === 'object' ? typeof value === 'string' && value.startsWith(rule.prefix) : value === rule));
  }
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(pattern as Record<string, unknown>).every(([key, inner]) => matches((value as Record<string, unknown>)[key], inner));
}

/** Whether Lambda delivers `event` (a record as it would be sent) under these patterns. */
export function passesFilters(event: unknown, patterns: readonly EventFilterPattern[]): boolean {
  return patterns.length === 0 || patterns.some((pattern) => matches(event, pattern));
}

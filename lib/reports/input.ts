import { ValidationError } from '#lib/errors.ts';
import { check, MESSAGES, type Input } from '#lib/validation.ts';
import { REPORT_REASONS, type ReportReason } from './report.ts';

// The bodies of the report routes (docs/api.md, Reports), checked with DRF's messages.

/** A report's note: at most 500 code points; blank is none. */
export const REPORT_NOTE_MAX = 500;

export const RESOLVE_ACTIONS = ['dismiss', 'remove'] as const;
export type ResolveAction = (typeof RESOLVE_ACTIONS)[number];

/** A choice field: required, one of `choices`, as DRF's ChoiceField words its errors. */
function choice<T extends string>(input: Input, field: string, choices: readonly T[]): T | string {
  if (!Object.prototype.hasOwnProperty.call(input.data, field)) return MESSAGES.required;
  const value = input.data[field];
  if (value === null) return MESSAGES.null;
  if ((choices as readonly unknown[]).includes(value)) return value as T;
  return `"${typeof value === 'string' ? value : JSON.stringify(value)}" is not a valid choice.`;
}

export interface ReportInput {
  reason: ReportReason;
  note: string | null;
}

/** The body of a new report, or its field errors (answered only when a report is to be made). */
export function parseReport(input: Input): ReportInput | ValidationError {
  const errors: Record<string, string[]> = {};
  const reason = choice(input, 'reason', REPORT_REASONS);
  if (!(REPORT_REASONS as readonly string[]).includes(reason)) errors.reason = [reason];
  const checked = check(input, { note: { type: 'string', nullable: true, allowBlank: true, maxLength: REPORT_NOTE_MAX } });
  if (checked.errors.note) errors.note = checked.errors.note;
  if (Object.keys(errors).length > 0) return new ValidationError(errors);
  const note = checked.values.note;
  return { reason: reason as ReportReason, note: typeof note === 'string' && note !== '' ? note : null };
}

/** The `action` of a resolve, or its field error. */
export function parseResolve(input: Input): ResolveAction | ValidationError {
  const action = choice(input, 'action', RESOLVE_ACTIONS);
  return (RESOLVE_ACTIONS as readonly string[]).includes(action) ? (action as ResolveAction) : new ValidationError({ action: [action] });
}

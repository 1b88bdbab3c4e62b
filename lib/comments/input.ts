import { check, MESSAGES, type Input } from '#lib/validation.ts';
import { isEntityId } from './comment.ts';

// The bodies of the comment routes (docs/api.md, Comments): what they hold, checked with DRF's
// messages. Nothing here reads the table.

/** A comment's body: 1 to 10,000 code points once trimmed. */
export const COMMENT_BODY_MAX = 10_000;

const BODY_SPEC = { type: 'string', maxLength: COMMENT_BODY_MAX } as const;

/** What a client may set a comment's status to. */
export const SETTABLE_STATUSES = ['published', 'hidden'] as const;
export type SettableStatus = (typeof SETTABLE_STATUSES)[number];

export const NO_SUCH_PARENT = 'No such comment on this post.';
export const NOT_REPLIABLE = 'This comment cannot be replied to.';

export interface CommentCreate {
  /** The trimmed body, or its field's errors. */
  body: string | string[];
  /** The comment answered: null for a top-level comment; `invalid` for a value that can name no comment. */
  parent: string | null | 'invalid';
}

/** `parent` as sent: absent, null or blank is a top-level comment; anything but an id names no comment (no read). */
function parentOf(raw: unknown): string | null | 'invalid' {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string') return 'invalid';
  const value = raw.trim();
  if (value === '') return null;
  return isEntityId(value) ? value : 'invalid';
}

/** The body of POST /posts/detail/{slug}/comments, its problems kept for their turn (docs/api.md gives the order). */
export function parseCommentCreate(input: Input): CommentCreate {
  const checked = check(input, { body: { ...BODY_SPEC, required: true } });
  const body = checked.errors.body ?? String(checked.values.body);
  return { body, parent: parentOf(input.data.parent) };
}

export interface CommentUpdate {
  body?: string;
  status?: SettableStatus;
  /** The `modified` the client read, compared with the stored one when `body` is sent. */
  modified?: string;
  /** Which fields the request names, valid or not: who may send it depends on them. */
  sends: { body: boolean; status: boolean };
  /** Field errors, answered after the 401, 404, 403 and 409 checks. */
  errors: Record<string, string[]>;
}

function statusOf(raw: unknown): SettableStatus | string {
  if (raw === null) return MESSAGES.null;
  if ((SETTABLE_STATUSES as readonly unknown[]).includes(raw)) return raw as SettableStatus;
  const shown = typeof raw === 'string' ? raw : JSON.stringify(raw);
  return `"${shown}" is not a valid choice.`;
}

/** The body of PUT /comments/detail/{id}. */
export function parseCommentUpdate(input: Input): CommentUpdate {
  const has = (name: string) => Object.prototype.hasOwnProperty.call(input.data, name);
  const update: CommentUpdate = { sends: { body: has('body'), status: has('status') }, errors: {} };
  const checked = check(input, { body: BODY_SPEC });
  if (checked.errors.body) update.errors.body = checked.errors.body;
  else if (typeof checked.values.body === 'string') update.body = checked.values.body;
  if (update.sends.status) {
    const status = statusOf(input.data.status);
    if ((SETTABLE_STATUSES as readonly string[]).includes(status)) update.status = status as SettableStatus;
    else update.errors.status = [status];
  }
  const modified = input.data.modified;
  if (modified !== undefined && modified !== null) update.modified = typeof modified === 'string' ? modified : JSON.stringify(modified);
  return update;
}

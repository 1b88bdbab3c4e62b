import { ValidationError } from '#lib/errors.ts';
import { MESSAGES, type Input } from '#lib/validation.ts';
import { VOTE_VALUES, type VoteValue } from './vote.ts';

/** DRF's ChoiceField shows the refused value as Python's str() would. */
function shown(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The `vote` of a POST body: `up` or `down`, with DRF's messages otherwise. */
export function parseVote(body: Input): VoteValue {
  if (!Object.prototype.hasOwnProperty.call(body.data, 'vote')) throw new ValidationError({ vote: [MESSAGES.required] });
  const value = body.data.vote;
  if (value === null) throw new ValidationError({ vote: [MESSAGES.null] });
  if (!(VOTE_VALUES as readonly unknown[]).includes(value)) throw new ValidationError({ vote: [`"${shown(value)}" is not a valid choice.`] });
  return value as VoteValue;
}

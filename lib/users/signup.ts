import { newAccountWrites, nextUserId } from '#lib/auth/create-account.ts';
import { passwordProblems } from '#lib/auth/password-rules.ts';
import { hashPassword } from '#lib/auth/passwords.ts';
import { counterFor, incrementAndCount } from '#lib/auth/rate-limits.ts';
import { newToken, newTokenItem } from '#lib/auth/tokens.ts';
import { signupAttemptLimit, signupClosedByDeployment } from '#lib/config.ts';
import { batchGet } from '#lib/db/batch.ts';
import { keys } from '#lib/db/keys.ts';
import { transactWrite, tx } from '#lib/db/transact.ts';
import { PermissionDenied, Throttled, ValidationError } from '#lib/errors.ts';
import { epochSeconds, isoTimestamp } from '#lib/time.ts';
import { check, type Input } from '#lib/validation.ts';
import { USERNAME_MAX_LENGTH } from '#lib/profiles/profile.ts';
import { signupClosed, signupSettingKey } from './signup-setting.ts';
import { isValidUsername, USERNAME_MESSAGES } from './username.ts';

export interface SignedUp {
  id: number;
  username: string;
  token: string;
}

const closed = () => new PermissionDenied('Sign-up is closed.');
const taken = () => new ValidationError({ username: [USERNAME_MESSAGES.taken] });

/**
 * POST /users: creates an active account with a profile (as the admin CLI does), claims the
 * username case-insensitively, and issues its first token, all in one transaction. Every attempt
 * from the address counts against its limit, whatever its outcome; the count (an atomic ADD), the
 * run-time sign-up setting and the username's claim are read in one round trip. Order of answers:
 * 403 closed, 429 over the limit, then 400 with every field's problems.
 */
export async function signUp(body: Input, address: string): Promise<SignedUp> {
  if (signupClosedByDeployment()) throw closed();
  const now = epochSeconds();
  const attempts = counterFor('signup-address', [address], signupAttemptLimit(), now);
  const { values, errors } = check(body, {
    username: { type: 'string', required: true, maxLength: USERNAME_MAX_LENGTH },
    password: { type: 'string', required: true, trim: false },
  });
  const username = typeof values.username === 'string' ? values.username : undefined;
  if (username !== undefined && !isValidUsername(username)) errors.username = [USERNAME_MESSAGES.invalid];
  const candidate = username !== undefined && !errors.username ? username : undefined;
  const claimKeys = candidate ? [keys.usernameClaim(candidate), keys.userProfile(candidate)] : [];
  const [count, read] = await Promise.all([incrementAndCount(attempts), batchGet([signupSettingKey(), ...claimKeys])]);
  if (signupClosed(read.get(signupSettingKey()))) throw closed();
  if (count > attempts.setting.max) throw new Throttled(attempts.endsAt - now);
  if (claimKeys.some((key) => read.has(key))) errors.username = [USERNAME_MESSAGES.taken];
  if (typeof values.password === 'string') {
    const problems = passwordProblems(values.password, username);
    if (problems.length > 0) errors.password = problems;
  }
  if (Object.keys(errors).length > 0 || !candidate || typeof values.password !== 'string') throw new ValidationError(errors);
  const [hash, id] = await Promise.all([hashPassword(values.password), nextUserId()]);
  const user = { id, username: candidate };
  const token = newToken(id);
  const joined = isoTimestamp();
  // A concurrent sign-up of the same name in any case fails its claim: one 201, one 400.
  await transactWrite([...newAccountWrites(user, hash, joined, { lastLogin: joined, onTaken: taken }), { write: tx.put(newTokenItem(token, user)) }]);
  return { id, username: candidate, token };
}

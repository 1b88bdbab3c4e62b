import { USERNAME_MAX_LENGTH } from '#lib/profiles/profile.ts';

// The username rules of a sign-up, with Django's texts (UnicodeUsernameValidator, unique username).

export const USERNAME_MESSAGES = {
  invalid: 'Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters.',
  taken: 'A user with that username already exists.',
} as const;

const USERNAME_PATTERN = /^[\p{L}\p{N}_.@+-]+$/u;

/** Whether a username has only allowed characters, within the length limit. */
export function isValidUsername(username: string): boolean {
  return username.length > 0 && [...username].length <= USERNAME_MAX_LENGTH && USERNAME_PATTERN.test(username);
}

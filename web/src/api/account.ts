import { api, outcome } from './client.ts';

// Whether the person logged in moderates: `is_moderator` of `GET /auth`, read once per token for
// the page's life (a new login is a new token, read again). A failed read counts as no (the
// moderators' controls stay hidden) and is asked again by the next caller.

const known = new Map<string, Promise<boolean>>();

export function moderates(token: string): Promise<boolean> {
  let answer = known.get(token);
  if (!answer) {
    answer = outcome(() => api.GET('/auth')).then((result) => {
      if (!result.ok) known.delete(token);
      return result.ok && result.data.is_moderator;
    });
    known.set(token, answer);
  }
  return answer;
}

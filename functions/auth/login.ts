import { login } from '#lib/auth/login.ts';
import { endpoint } from '#lib/http/endpoint.ts';
import { sourceAddress } from '#lib/http/request.ts';
import { ok } from '#lib/http/respond.ts';
import { validate } from '#lib/validation.ts';

/** POST /login: username and password (JSON or form) for a new token; failed logins are limited per source address. */
export const handler = endpoint({
  auth: 'none',
  handler: async (request) => {
    const { username, password } = validate(request.body, {
      username: { type: 'string', required: true },
      password: { type: 'string', required: true, trim: false },
    });
    return ok({ token: await login(username as string, password as string, sourceAddress(request)) });
  },
});

import { MethodNotAllowed, NotFound } from '#lib/errors.ts';
import { endpoint } from '#lib/http/endpoint.ts';
import { matchRoute } from '#lib/routes.ts';

/** Every request no route takes: 405 on a known path with another method, else 404. */
export const handler = endpoint({
  auth: 'none',
  parseBody: false,
  handler: async ({ event }) => {
    const method = event.requestContext.http.method;
    const match = matchRoute(method, event.rawPath);
    if (match.kind === 'method-not-allowed') throw new MethodNotAllowed(method, match.allowed);
    throw new NotFound();
  },
});

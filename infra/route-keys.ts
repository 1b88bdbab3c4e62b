import { ROUTES, routeKeys } from '#lib/routes.ts';

// The route keys of the deployed HTTP API, as API Gateway writes them ("POST /api/v1/login"):
// the stack builds its routes from lib/routes.ts, and the settings check per-route throttling
// against the same list and add up the throttles of its routes.

/** The catch-all route whose function answers 404 / 405 (the API's default integration). */
export const DEFAULT_ROUTE_KEY = '$default';

/**
 * Every route of the stack's HTTP API: the keys of each entry of the route table (a GET that
 * does not change state also has a HEAD route), and `$default`. Each gets its own throttle: the
 * stage's default route settings, or its entry of `routeThrottling`.
 */
export function stackRouteKeys(): string[] {
  return [...ROUTES.flatMap(routeKeys), DEFAULT_ROUTE_KEY];
}

import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { stackRouteKeys } from '../../infra/route-keys.ts';
import { DEFAULT_SETTINGS, throttleTotals } from '../../infra/settings.ts';
import { ROUTES } from '#lib/routes.ts';

// The figures the README and docs/api.md give about the code, counted from the code: a route or a
// folder of lib/ added without its docs fails here, not in a reader's hands.

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const API = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');

const documentationRoutes = ROUTES.filter((route) => route.access === 'none').length;
const operations = ROUTES.length - documentationRoutes;
/** Every route's function, the fallback and the table's stream consumer. */
const functions = ROUTES.length + 2;

describe('the README and docs/api.md count what lib/routes.ts and infra/ hold', () => {
  it('routes, operations, documentation routes and functions', () => {
    expect(README).toContain(
      `One Lambda function per route** (${ROUTES.length}: the ${operations} operations and the ${documentationRoutes} documentation routes, plus\n  the fallback, ${ROUTES.length + 1} in all; ${functions} with the stream consumer below)`,
    );
    expect(README).toContain(`today's ${ROUTES.length} routes and ${functions} functions`);
    expect(README).toContain(`not ${functions};`);
    expect(API).toContain(`the ${documentationRoutes} documentation routes`);
  });

  it('the route keys and what their default throttles add up to (MaxRequestRate)', () => {
    const keys = stackRouteKeys().length;
    const total = throttleTotals(DEFAULT_SETTINGS).rateLimit;
    expect(README).toContain(
      `with the defaults: ${keys} route keys, the ${ROUTES.length} routes, their ${keys - ROUTES.length - 1} \`HEAD\` routes and\n\`$default\`; ${keys - 1} at ${DEFAULT_SETTINGS.throttlingRateLimit} and login at 10, ${total} requests/s`,
    );
    expect(README).toContain(`CommunityPosts.MaxRequestRate = ${total}`);
  });

  it('the Layout has a line for every folder of lib/', () => {
    const folders = readdirSync(new URL('../../lib', import.meta.url), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.length).toBeGreaterThan(10);
    for (const folder of folders) expect(README, folder).toContain(`| \`lib/${folder}/\` |`);
  });
});

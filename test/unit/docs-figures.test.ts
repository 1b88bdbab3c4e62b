import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { stackRouteKeys } from '../../infra/route-keys.ts';
import { DEFAULT_SETTINGS, throttleTotals } from '../../infra/settings.ts';
import { ROUTES } from '#lib/routes.ts';

// The figures the docs give about the code, counted from the code: a route or a folder of lib/
// added without its docs fails here, not in a reader's hands. What the stack holds and its settings
// are docs/deploy.md; its alarms docs/operations.md; the Layout docs/architecture.md.

const DEPLOY = readFileSync(new URL('../../docs/deploy.md', import.meta.url), 'utf8');
const OPERATIONS = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
const ARCHITECTURE = readFileSync(new URL('../../docs/architecture.md', import.meta.url), 'utf8');
const API = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');

const documentationRoutes = ROUTES.filter((route) => route.access === 'none').length;
const operations = ROUTES.length - documentationRoutes;
/** Every route's function, the fallback and the table's stream consumer. */
const functions = ROUTES.length + 2;

describe('docs/deploy.md, docs/operations.md, docs/architecture.md and docs/api.md count what lib/routes.ts and infra/ hold', () => {
  it('routes, operations, documentation routes and functions', () => {
    expect(DEPLOY).toContain(
      `One Lambda function per route** (${ROUTES.length}: the ${operations} operations and the ${documentationRoutes} documentation routes, plus\n  the fallback, ${ROUTES.length + 1} in all; ${functions} with the stream consumer below)`,
    );
    expect(OPERATIONS).toContain(`today's ${ROUTES.length} routes and ${functions} functions`);
    expect(OPERATIONS).toContain(`not ${functions};`);
    expect(API).toContain(`the ${documentationRoutes} documentation routes`);
  });

  it('the route keys and what their default throttles add up to (MaxRequestRate)', () => {
    const keys = stackRouteKeys().length;
    const total = throttleTotals(DEFAULT_SETTINGS).rateLimit;
    expect(DEPLOY).toContain(
      `with the defaults: ${keys} route keys, the ${ROUTES.length} routes, their ${keys - ROUTES.length - 1} \`HEAD\` routes and\n\`$default\`; ${keys - 1} at ${DEFAULT_SETTINGS.throttlingRateLimit} and login at 10, ${total} requests/s`,
    );
    expect(DEPLOY).toContain(`CommunityPosts.MaxRequestRate = ${total}`);
  });

  it('the Layout has a line for every folder of lib/', () => {
    const folders = readdirSync(new URL('../../lib', import.meta.url), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.length).toBeGreaterThan(10);
    for (const folder of folders) expect(ARCHITECTURE, folder).toContain(`| \`lib/${folder}/\` |`);
  });
});

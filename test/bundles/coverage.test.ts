import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { templateDeployment } from '../../scripts/local/template-deployment.ts';
import { DEFAULT_ROUTE_KEY } from '../../infra/route-keys.ts';
import { BUNDLE_COVERAGE_DIR } from '../support/api.ts';

// Run last in the bundles' run (`npm run test:bundles`, or `npm test` with WITH_BUNDLES=1), once
// every other suite of the run is done: every route of the synthesized template was answered by its bundle, under its role,
// along a success and along an error path. Each test process of the run recorded the route key and
// status of every answer a bundle gave (test/support/api.ts, BUNDLE_COVERAGE_DIR); this reads them
// all. A suite left out of the bundles' run, or a route added without a call in one, fails here.

/**
 * Routes whose error path is not asked for: the API's documentation, which takes no input but its
 * path; and each HEAD route, whose function is its GET's (the GET's error path runs that bundle).
 */
const noErrorPath = (route: string) => route.startsWith('HEAD ') || ['GET /api/v1', 'GET /api/v1/openapi.json', 'GET /api/v1/docs'].includes(route);
/** The fallback route answers only errors (404, 405): it has no success path. */
const NO_SUCCESS_PATH = new Set([DEFAULT_ROUTE_KEY]);

interface Recorded {
  file: string;
  answers: Record<string, number>;
}

function recorded(): Recorded[] {
  if (!existsSync(BUNDLE_COVERAGE_DIR)) return [];
  return readdirSync(BUNDLE_COVERAGE_DIR)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(readFileSync(join(BUNDLE_COVERAGE_DIR, name), 'utf8')) as Recorded);
}

describe('the bundles of cdk.out, over the whole run', () => {
  const runs = recorded();
  const routes = [
    ...templateDeployment({
      cdkOut: process.env.CDK_OUT ?? 'cdk.out',
      stackName: 'CommunityPosts',
      tableName: 'coverage',
      region: 'us-east-1',
      streamArn: 'arn:aws:dynamodb:us-east-1:000000000000:table/coverage/stream/label',
    }).routes.keys(),
  ].sort();
  /** Route key → the statuses its bundle answered, and the suites that got them. */
  const byRoute = new Map<string, { statuses: Set<number>; files: Set<string> }>();
  for (const run of runs) {
    for (const [answer, count] of Object.entries(run.answers)) {
      if (count <= 0) continue;
      const at = answer.lastIndexOf(' ');
      const [routeKey, status] = [answer.slice(0, at), Number(answer.slice(at + 1))];
      const entry = byRoute.get(routeKey) ?? { statuses: new Set<number>(), files: new Set<string>() };
      entry.statuses.add(status);
      entry.files.add(relative(process.cwd(), run.file));
      byRoute.set(routeKey, entry);
    }
  }

  it('were called by the suites of the run', () => {
    expect(runs.length, `no answer recorded in ${BUNDLE_COVERAGE_DIR}: run this file with the bundles' run (npm run test:bundles)`).toBeGreaterThan(0);
    expect(routes.length).toBeGreaterThan(30);
  });

  it('answered every route of the template with a success (2xx or 304) from its bundle', () => {
    const missing = routes.filter((route) => !NO_SUCCESS_PATH.has(route) && ![...(byRoute.get(route)?.statuses ?? [])].some((s) => s < 400));
    expect(missing).toEqual([]);
  });

  it('answered every route of the template with a client error (4xx) from its bundle, where the route has one', () => {
    const missing = routes.filter((route) => !noErrorPath(route) && ![...(byRoute.get(route)?.statuses ?? [])].some((s) => s >= 400 && s < 500));
    expect(missing).toEqual([]);
  });

  it('lists what each route answered, and from which suites', () => {
    const table = Object.fromEntries(
      routes.map((route) => {
        const entry = byRoute.get(route);
        return [route, entry ? `${[...entry.statuses].sort().join(',')} (${[...entry.files].sort().join(', ')})` : 'none'];
      }),
    );
    console.info('bundle coverage (route: statuses (suites)):', JSON.stringify(table, null, 1));
    expect(Object.keys(table)).toEqual(routes);
  });
});

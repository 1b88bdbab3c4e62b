import { afterAll, beforeAll } from 'vitest';
import { startApi, type ApiOptions, type TestApi, type TestUser } from './api.ts';

// The API of a test file (or of a describe block) and its usual users, in one call:
//
//   const api = useApi({ users: ['alice', 'bob'] });
//   const { alice, bob } = api.users;
//
// registers a beforeAll that starts the API (startApi, with the server options given) and then
// creates and logs in the users, all at once, and an afterAll that closes the API. The handle and
// the user objects exist at once and are filled in by that beforeAll: read their fields in tests
// and hooks, not while the file is collected. Hooks the file registers after useApi run after it
// (and their afterAll before its close), so they can use the API and the users.

/** How a user is made: the username's prefix (default: the user's name) and password (startApi's default). */
export interface UserSpec {
  prefix?: string;
  password?: string;
}

export interface ApiFixtureOptions<Name extends string> extends ApiOptions {
  /** Users by name: `['alice', 'bob']`, or `{ alice: 'fault_a' }` (prefix) or `{ alice: { prefix, password } }`. */
  users?: readonly Name[] | Readonly<Record<Name, string | UserSpec>>;
}

/** The started API (every field of TestApi), and its users by name. */
export interface ApiFixture<Name extends string> extends TestApi {
  readonly users: Readonly<Record<Name, TestUser>>;
}

export function useApi<const Name extends string = never>(options: ApiFixtureOptions<Name> = {}): ApiFixture<Name> {
  const { users = [], ...serverOptions } = options;
  const specs: [Name, UserSpec][] = Array.isArray(users)
    ? (users as readonly Name[]).map((name) => [name, { prefix: name }])
    : (Object.entries(users) as [Name, string | UserSpec][]).map(([name, spec]) => [
        name,
        typeof spec === 'string' ? { prefix: spec } : { prefix: name, ...spec },
      ]);
  const fixture = { users: Object.fromEntries(specs.map(([name]) => [name, {}])) } as ApiFixture<Name>;
  let api: TestApi | undefined;

  beforeAll(async () => {
    const started = await startApi(serverOptions);
    api = started;
    Object.assign(fixture, started);
    const created = await Promise.all(specs.map(([, spec]) => started.user(spec.prefix, spec.password)));
    specs.forEach(([name], i) => Object.assign(fixture.users[name], created[i]));
  });
  afterAll(() => api?.close());

  return fixture;
}

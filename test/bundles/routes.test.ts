import { describe, expect, it } from 'vitest';
import { useApi } from '../support/fixture.ts';

// The paths of a route that no other suite of the bundles' run takes on its bundle (as
// test/bundles/coverage.test.ts finds them), each taken once here. What the route does is checked
// in full by the sources' run (the suite named with each).

const api = useApi();

describe('routes the other bundle suites leave on one path', () => {
  // test/api/feed.test.ts
  it('GET /feed answers an unknown tag with 404 JSON from its bundle', async () => {
    const response = await api.client().get('/feed', { query: { tag: 'no-such-tag' }, headers: { Accept: 'application/rss+xml' } });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.body).toEqual({ detail: 'Not found.' });
  });
});

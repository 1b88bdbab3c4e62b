import { describe, expect, it } from 'vitest';
import { VIEWER_HOST_HEADER } from '#lib/http/request.ts';
import { API_PREFIX } from '#lib/routes.ts';
import { useApi } from '../support/fixture.ts';
import { nextLink } from '../support/link.ts';

// The host the service's links name when a request comes through the stack's CloudFront
// distribution: the viewer's host, which the distribution passes on under VIEWER_HOST_HEADER
// (its viewer-request function overwrites whatever a client sent; test/infra/site.test.ts runs
// it). Here the requests carry the header as the distribution hands them to API Gateway.

const SITE_HOST = 'd111111abcdef8.cloudfront.net';
const api = useApi({ users: ['alice', 'bob', 'carol'] });

const usersPage = (headers: Record<string, string>) => api.users.alice.api.get('/users', { query: { page_size: '1' }, headers });
const linkHost = (link: string | undefined) => new URL(link!).host;

describe('links through the distribution', () => {
  it("name the viewer's host in a paged list's Link", async () => {
    const response = await usersPage({ [VIEWER_HOST_HEADER]: SITE_HOST });
    expect(response.status).toBe(200);
    const link = nextLink(response);
    expect(linkHost(link)).toBe(SITE_HOST);
    expect(new URL(link!).pathname).toBe(`${API_PREFIX}/users`);
    // The link leads on: the next page through the same host.
    const next = await api.users.alice.api.get(link!.replace(/^https?:\/\/[^/]+/, new URL(api.url).origin), { headers: { [VIEWER_HOST_HEADER]: SITE_HOST } });
    expect(next.status).toBe(200);
    expect(linkHost(nextLink(next))).toBe(SITE_HOST);
  });

  it("name the viewer's host in the OpenAPI document's servers", async () => {
    const response = await api.client().get('/openapi.json', { headers: { [VIEWER_HOST_HEADER]: SITE_HOST } });
    expect(response.status).toBe(200);
    expect(new URL(response.body.servers[0].url as string).host).toBe(SITE_HOST);
  });

  it("never take a client's X-Forwarded-Host or Host, with the header or without it", async () => {
    const own = new URL(api.url).host;
    const without = await usersPage({ 'X-Forwarded-Host': 'evil.example' });
    expect(linkHost(nextLink(without))).toBe(own);
    const beside = await usersPage({ [VIEWER_HOST_HEADER]: SITE_HOST, 'X-Forwarded-Host': 'evil.example', Forwarded: 'host=evil.example' });
    expect(linkHost(nextLink(beside))).toBe(SITE_HOST);
  });

  it('ignore a value that is not a host name, and name the host API Gateway reports', async () => {
    const own = new URL(api.url).host;
    for (const value of ['evil.example/path', 'evil.example@other', 'a b', '', 'evil.example:port']) {
      const response = await usersPage({ [VIEWER_HOST_HEADER]: value });
      expect(linkHost(nextLink(response)), JSON.stringify(value)).toBe(own);
    }
  });
});

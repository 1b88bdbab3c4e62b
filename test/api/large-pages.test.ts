import { beforeAll, describe, expect, it } from 'vitest';
import { LAMBDA_RESPONSE_LIMIT_BYTES } from '#lib/http/limits.ts';
import { POST_LIMITS } from '#lib/posts/limits.ts';
import { createPost, unique, type ApiClient, type ApiResponse } from '../support/api.ts';
import { useApi } from '../support/fixture.ts';
import { nextLink } from '../support/link.ts';

// A list page never exceeds what a Lambda function may return (6 MB, the whole result object
// `{statusCode, headers, body}`): over posts of the largest size the service accepts, GET /posts
// cuts its pages short, and following Link still returns every post exactly once, in order.

/**
 * The largest description accepted, as costly as possible once serialized: exactly the byte limit,
 * within the character limit, made of 4-byte characters and as many `"` and `\` (1 byte each, but
 * 2 in the JSON body and 4 once the body is escaped into Lambda's result object) as fit.
 */
function largestDescription(marker: string): string {
  const chars = POST_LIMITS.description;
  const bytes = POST_LIMITS.descriptionBytes;
  const wide = Math.max(0, Math.ceil((bytes - chars) / 3)); // 4-byte characters needed to reach `bytes`
  const narrow = Math.min(chars - wide, bytes - 4 * wide) - marker.length;
  const escaped = '"\\'.repeat(Math.ceil(narrow / 2)).slice(0, narrow);
  const text = `${marker}${'😀'.repeat(wide)}${escaped}`;
  expect(Buffer.byteLength(text, 'utf8')).toBe(bytes);
  expect([...text].length).toBeLessThanOrEqual(chars);
  return text;
}

/** What Lambda would count for this response: the body as an escaped JSON string, plus headers. */
function responseSizes(response: ApiResponse) {
  let headers = 0;
  response.headers.forEach((value, name) => (headers += Buffer.byteLength(`"${name}":"${value}",`, 'utf8')));
  const body = Buffer.byteLength(response.text, 'utf8');
  const escapedBody = Buffer.byteLength(JSON.stringify(response.text), 'utf8');
  return { body, escapedBody, headers, total: escapedBody + headers };
}

async function get(client: ApiClient, path: string, query?: Record<string, string>) {
  const response = await client.get(path, query ? { query } : {});
  expect(response.status, response.text.slice(0, 300)).toBe(200);
  expect(Array.isArray(response.body)).toBe(true);
  return response;
}

/** Follows Link from the first page; every page must fit in a Lambda response. */
async function walk(client: ApiClient, first: ApiResponse) {
  const pages: ApiResponse[] = [first];
  let link = nextLink(first);
  while (link) {
    const response = await get(client, link);
    pages.push(response);
    link = nextLink(response);
    expect(pages.length).toBeLessThan(50);
  }
  for (const page of pages) expect(responseSizes(page).total).toBeLessThan(LAMBDA_RESPONSE_LIMIT_BYTES);
  return pages;
}

const slugs = (pages: ApiResponse[]) => pages.flatMap((page) => (page.body as { slug: string }[]).map((post) => post.slug));

const api = useApi({ users: ['alice'] });
const { alice } = api.users;
let word: string;
/** Slugs of the large posts, newest first. */
let expected: string[];
let postBytes: number;

beforeAll(async () => {
  word = unique('big');
  const description = largestDescription(`${word} `);
  postBytes = Buffer.byteLength(JSON.stringify(description), 'utf8');
  // Enough posts that together they are over the limit even unescaped: one page cannot hold them.
  const count = Math.ceil(LAMBDA_RESPONSE_LIMIT_BYTES / postBytes) + 5;
  const created: { slug: string; created: string }[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      created.push(await createPost(alice.api, { title: `Large ${word} ${i}`, description, publish: 'true' }));
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  expected = created.sort((a, b) => (a.created < b.created ? 1 : -1)).map((post) => post.slug);
}, 120_000);

describe('GET /posts over posts of the largest size', () => {
  it('cuts page_size=100 short, under 6 MB, and Link walks every post once, newest first', async () => {
    const first = await get(alice.api, '/posts', { page_size: '100' });
    const sizes = responseSizes(first);
    console.info(`one post: ${postBytes} bytes of description in JSON; ${expected.length} posts; page 1:`, sizes, `${(first.body as unknown[]).length} posts`);
    expect(sizes.total).toBeLessThan(LAMBDA_RESPONSE_LIMIT_BYTES);
    expect((first.body as unknown[]).length).toBeGreaterThan(0);
    expect((first.body as unknown[]).length).toBeLessThan(expected.length);
    expect(nextLink(first)).toBeDefined();

    const pages = await walk(alice.api, first);
    expect(pages.length).toBeGreaterThan(1);
    expect(slugs(pages)).toEqual(expected);
  });

  it('cuts searched pages (q) the same way', async () => {
    const first = await get(alice.api, '/posts', { page_size: '100', q: word });
    expect((first.body as unknown[]).length).toBeLessThan(expected.length);
    expect(responseSizes(first).total).toBeLessThan(LAMBDA_RESPONSE_LIMIT_BYTES);
    const pages = await walk(alice.api, first);
    expect(slugs(pages)).toEqual(expected);
  });

  it('leaves a small page_size alone', async () => {
    const first = await get(alice.api, '/posts', { page_size: '10' });
    expect(slugs([first])).toEqual(expected.slice(0, 10));
    const pages = await walk(alice.api, first);
    expect(pages.slice(0, -1).every((page) => (page.body as unknown[]).length === 10)).toBe(true);
    expect(slugs(pages)).toEqual(expected);
  });

  it('numbers pages on full page sizes; only the Link of a cut page continues from the cut', async () => {
    // A page size that one page cannot hold, with a second page that can be held whole.
    const size = Math.ceil(expected.length * 0.7);
    const first = await get(alice.api, '/posts', { page_size: String(size) });
    const held = (first.body as unknown[]).length;
    expect(held).toBeLessThan(size);
    const second = await get(alice.api, '/posts', { page_size: String(size), page: '2' });
    expect(slugs([second])).toEqual(expected.slice(size));
    const link = nextLink(first)!;
    expect(new URL(link).searchParams.get('page')).toBe('2');
    const followed = await get(alice.api, link);
    expect(slugs([followed])[0]).toBe(expected[held]);
  });
});

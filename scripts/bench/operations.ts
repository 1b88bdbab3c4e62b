import { randomUUID } from 'node:crypto';
import { fetchInit } from '../local/client-request.ts';
import { attachMeter, type Usage } from './meter.ts';
import type { BenchStack } from './stack.ts';

// Part 1: DynamoDB calls and consumed capacity of one request of each operation.

export interface OperationUsage extends Usage {
  operation: string;
  status: number;
  /** The response body's bytes. */
  bytes: number;
}

type Send = (
  path: string,
  init?: { method?: string; token?: string | null; form?: Record<string, string>; json?: unknown; headers?: Record<string, string> },
) => Promise<Response>;

export async function measureOperations(stack: BenchStack): Promise<OperationUsage[]> {
  await stack.freshTable();
  const alice = await stack.login();
  const bob = await stack.login();
  const send: Send = (path, init = {}) => {
    return fetch(`${stack.server.url}${path}`, fetchInit({ ...init, token: (init.token === undefined ? alice.token : init.token) ?? undefined }));
  };
  const word = () => randomUUID().slice(0, 8);
  // Some data, so that lists and details have something to read.
  const knownTag = `Known ${word()}`;
  for (let i = 0; i < 20; i++) {
    await send('/posts', { method: 'POST', form: { title: `Seed ${i} ${word()}`, description: 'A seed post body.', tags: knownTag, publish: 'true' } });
  }
  const tagSlug = ((await (await send('/tags')).json()) as { slug: string }[])[0]!.slug;
  const detailSlug = ((await (await send('/posts')).json()) as { slug: string }[])[0]!.slug;

  const meter = attachMeter();
  const results: OperationUsage[] = [];
  const measure = async (operation: string, request: () => Promise<Response>) => {
    let status = 0;
    let bytes = 0;
    const usage = await meter.measure(async () => {
      const response = await request();
      status = response.status;
      bytes = (await response.arrayBuffer()).byteLength;
    });
    results.push({ operation, status, bytes, ...usage });
  };
  /** 20 published posts of `characters` characters under a tag of their own: the tag's slug. */
  const twentyPosts = async (characters: number) => {
    const tag = `Sized ${word()}`;
    const sentence = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. ';
    const description = sentence.repeat(Math.ceil(characters / sentence.length)).slice(0, characters);
    for (let i = 0; i < 20; i++)
      await send('/posts', { method: 'POST', form: { title: `Sized ${characters} ${word()}`, description, tags: tag, publish: 'true' } });
    return ((await (await send(`/tags?q=${encodeURIComponent(tag)}`)).json()) as { slug: string }[])[0]!.slug;
  };
  try {
    let token = '';
    await measure('login', async () => {
      const response = await send('/login', { method: 'POST', token: null, json: { username: bob.username, password: 'benchmark password' } });
      token = ((await response.clone().json()) as { token: string }).token;
      return response;
    });
    await measure('logout', () => send('/logout', { token }));
    await measure('auth check', () => send('/auth'));
    await measure('users list', () => send('/users'));
    await measure('tags list', () => send('/tags'));
    await measure('tags list, q', () => send('/tags?q=known'));
    await measure('posts list, newest', () => send('/posts'));
    await measure('posts list, views, q', () => send('/posts?sort=views&q=seed'));
    await measure('tagged list, newest', () => send(`/posts/tagged/${tagSlug}`));
    await measure('tagged list, votes, q', () => send(`/posts/tagged/${tagSlug}?sort=votes&q=seed`));
    await measure('author list, views', () => send(`/posts/author/${alice.username}?sort=views`));
    await measure('own posts, drafts only', () => send('/posts/me?publish=false'));
    await measure('own posts, featured, q', () => send('/posts/me?sort=featured&q=seed'));
    await measure('user detail', () => send(`/users/detail/${bob.username}`));
    await measure('tag detail', () => send(`/tags/detail/${tagSlug}`));
    await measure('profile update', () => send(`/users/detail/${alice.username}`, { method: 'PUT', form: { location: 'Lisbon' } }));
    await measure('tag create', () => send('/tags', { method: 'POST', form: { title: `Tag ${word()}` } }));
    await measure('post create, known tag', () =>
      send('/posts', { method: 'POST', form: { title: `Known ${word()}`, description: 'body', tags: knownTag, publish: 'true' } }),
    );
    await measure('post create, 3 new tags', () =>
      send('/posts', { method: 'POST', form: { title: `New ${word()}`, description: 'body', tags: `A${word()},B${word()},C${word()}`, publish: 'true' } }),
    );
    await measure('post detail, first visit', () => send(`/posts/detail/${detailSlug}`, { token: bob.token }));
    await measure('post detail, repeat visit', () => send(`/posts/detail/${detailSlug}`, { token: bob.token }));
    // The post's one tag holds 20 other posts: its 20 newest entries are read, 5 posts answered.
    await measure('related posts, 1 tag', () => send(`/posts/detail/${detailSlug}/related`, { token: bob.token }));
    await measure('related posts, 1 tag, summaries', () => send(`/posts/detail/${detailSlug}/related?view=summary`, { token: bob.token }));
    // A page of summaries reads each post's summary item, not its text: the same for huge posts.
    const smallTag = await twentyPosts(1_000);
    const hugeTag = await twentyPosts(100_000);
    await measure('summary page, 20 posts of 1,000 characters', () => send(`/posts/tagged/${smallTag}?view=summary`, { token: bob.token }));
    await measure('summary page, 20 posts of 100,000 characters', () => send(`/posts/tagged/${hugeTag}?view=summary`, { token: bob.token }));
    await measure('whole posts page, 20 posts of 100,000 characters', () => send(`/posts/tagged/${hugeTag}`, { token: bob.token }));
    // A revalidation: the post detail again with the ETag it answered (a repeat visit, 304).
    const etag = (await send(`/posts/detail/${detailSlug}`, { token: bob.token })).headers.get('etag') ?? '';
    await measure('post detail, If-None-Match (304)', () => send(`/posts/detail/${detailSlug}`, { token: bob.token, headers: { 'If-None-Match': etag } }));
    const listTag = (await send(`/posts/tagged/${smallTag}?view=summary`, { token: bob.token })).headers.get('etag') ?? '';
    await measure('summary page, If-None-Match (304)', () =>
      send(`/posts/tagged/${smallTag}?view=summary`, { token: bob.token, headers: { 'If-None-Match': listTag } }),
    );
    // A count's write capacity by the post's size: the same first visit on a 1 KB and a 90 KB post
    // (two tags each, so three list entries besides its own).
    for (const kilobytes of [1, 90]) {
      const sized = (await (
        await send('/posts', {
          method: 'POST',
          form: { title: `Sized ${word()}`, description: 'x'.repeat(kilobytes * 1024), tags: `${knownTag}, Size ${word()}`, publish: 'true' },
        })
      ).json()) as { slug: string };
      await measure(`post detail, first visit, ${kilobytes} KB post`, () => send(`/posts/detail/${sized.slug}`, { token: bob.token }));
    }
    // A vote's and a favorite's write capacity by the post's size: a 1 KB and a ~300 KB post (two
    // tags each). Neither rewrites the text: the vote, the stats and the entries whose votes sort
    // key moves; the favorite, the stats and the holder's profile.
    // The larger one is at the description's limits: 100,000 characters of 3 bytes each (300 KB).
    for (const [kilobytes, description] of [
      [1, 'x'.repeat(1000)],
      [300, '€'.repeat(100_000)],
    ] as const) {
      const sized = (await (
        await send('/posts', { method: 'POST', form: { title: `Voted ${word()}`, description, tags: `${knownTag}, Size ${word()}`, publish: 'true' } })
      ).json()) as { slug: string };
      await measure(`vote up, ${kilobytes} KB post`, () =>
        send(`/posts/detail/${sized.slug}/vote`, { method: 'POST', token: bob.token, form: { vote: 'up' } }),
      );
      await measure(`vote switch, ${kilobytes} KB post`, () =>
        send(`/posts/detail/${sized.slug}/vote`, { method: 'POST', token: bob.token, form: { vote: 'down' } }),
      );
      await measure(`favorite, ${kilobytes} KB post`, () => send(`/posts/detail/${sized.slug}/favorite`, { method: 'POST', token: bob.token }));
      await measure(`unfavorite, ${kilobytes} KB post`, () => send(`/posts/detail/${sized.slug}/favorite`, { method: 'DELETE', token: bob.token }));
    }
    await measure("a user's favorites, page 1", () => send(`/users/detail/${bob.username}/favorites`));
    const own = (await (
      await send('/posts', { method: 'POST', form: { title: `Mine ${word()}`, description: 'body', tags: knownTag, publish: 'true' } })
    ).json()) as { slug: string };
    let renamed = '';
    await measure('post update, rename + tag change', async () => {
      const response = await send(`/posts/detail/${own.slug}`, { method: 'PUT', form: { title: `Renamed ${word()}`, tags: `Other ${word()}` } });
      renamed = ((await response.clone().json()) as { slug: string }).slug;
      return response;
    });
    await measure('post delete', () => send(`/posts/detail/${renamed}`, { method: 'DELETE' }));
    await measure('unknown token (GET /auth)', () => send('/auth', { token: 'f'.repeat(40) }));
  } finally {
    meter.detach();
  }
  return results;
}

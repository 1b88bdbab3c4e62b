import { afterAll, describe, expect, it } from 'vitest';
import { countDynamoDbCalls, type CallCounter } from '../../support/dynamodb-calls.ts';
import { createPost, unique } from '../../support/api.ts';
import { useApi } from '../../support/fixture.ts';

// What a page of summaries costs (docs/api.md, "Summaries"): two sequential round trips, and the
// same read capacity and response bytes for 20 posts of 100,000 characters as for 20 of 1,000, as
// the DynamoDB calls of the in-process server report them.

const api = useApi({ users: ['alice', 'bob'] });
const { alice, bob } = api.users;

describe('the cost of a page of summaries', () => {
  let calls: CallCounter;
  afterAll(() => calls?.detach());

  /** 20 published posts of `length` characters under a tag of their own: the tag's slug. */
  async function twentyPosts(length: number): Promise<string> {
    const title = unique(`Size${length}`);
    const sentence = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. ';
    const description = sentence.repeat(Math.ceil(length / sentence.length)).slice(0, length);
    for (let i = 0; i < 20; i += 1) await createPost(alice.api, { title: unique(`Sized ${length} `), description, tags: title, publish: 'true' });
    return (await alice.api.get('/tags', { query: { q: title } })).body[0].slug;
  }

  it('two round trips, and the same capacity and bytes for 100,000-character posts as for 1,000-character ones (ratio at most 1.2)', async () => {
    const small = await twentyPosts(1_000);
    const huge = await twentyPosts(100_000);
    calls = countDynamoDbCalls();
    const measure = async (slug: string) => {
      let bytes = 0;
      const usage = await calls.usage(async () => {
        const response = await bob.api.get(`/posts/tagged/${slug}`, { query: { view: 'summary' } });
        expect(response.status).toBe(200);
        expect(response.body).toHaveLength(20);
        bytes = Buffer.byteLength(response.text);
      });
      return { ...usage, bytes };
    };
    const a = await measure(small);
    const b = await measure(huge);
    expect(a.rounds).toBeLessThanOrEqual(2);
    expect(b.rounds).toBeLessThanOrEqual(2);
    expect(b.rcu / a.rcu).toBeLessThanOrEqual(1.2);
    expect(b.bytes / a.bytes).toBeLessThanOrEqual(1.2);
    // Whole posts are what summaries spare: the same page without view reads every description.
    const whole = await calls.usage(() => bob.api.get(`/posts/tagged/${huge}`));
    expect(whole.rcu).toBeGreaterThan(10 * b.rcu);
  });
});

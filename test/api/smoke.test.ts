import { describe, expect, it } from 'vitest';
import { useApi } from '../support/fixture.ts';

const api = useApi();

describe('smoke', () => {
  it('logs in and creates a post', async () => {
    const alice = await api.user('alice');
    const created = await alice.api.post('/posts', { form: { title: 'Hello', description: 'x', publish: 'true' } });
    expect(created.status).toBe(201);
    const list = await alice.api.get('/posts');
    expect(list.body.map((p: { slug: string }) => p.slug)).toEqual(['hello']);
  });
});

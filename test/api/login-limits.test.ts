import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { counterFor } from '#lib/auth/rate-limits.ts';
import { loginFailureLimits } from '#lib/config.ts';
import { db } from '#lib/db/client.ts';
import { TTL_ATTRIBUTE } from '#lib/db/table.ts';
import { epochSeconds, nowMs } from '#lib/time.ts';
import { unique, type ApiResponse } from '../support/api.ts';
import { useApi } from '../support/fixture.ts';
import { fromAddress } from '../support/source-address.ts';

// Failed logins (docs/api.md, endpoint 1), counted per (username, address), per address and per
// username. Each test logs in from loopback addresses of its own (127.0.2.x): the local gateway
// takes the source address from the connection, as API Gateway does. The per-pair limit is tested
// at its default (10); the others, whose defaults (100) would need 100 requests, with small values
// set through their environment variables.

const api = useApi({ users: ['alice', 'bob', 'carol'] });
const { alice, bob, carol } = api.users;

let nextAddress = 1;
const newAddress = () => `127.0.2.${nextAddress++}`;
const BAD = { non_field_errors: ['Unable to log in with provided credentials.'] };
const SETTINGS = ['LOGIN_FAILURES_PER_PAIR', 'LOGIN_FAILURES_PER_ADDRESS', 'LOGIN_FAILURES_PER_USERNAME'] as const;

// The counters are fixed windows of LOGIN_FAILURE_WINDOW_SECONDS (900) from the epoch: a test that
// ran across a window's end would see its count start again (a CI run failed so). Each test starts
// at least a minute before the end of its window: nearer, the handlers' clock is moved past it.
beforeEach(() => {
  const windowMs = loginFailureLimits().pair.windowSeconds * 1000;
  const left = windowMs - (nowMs() % windowMs);
  if (left < 60_000) api.clock.advance(left + 10);
});

afterEach(() => {
  for (const name of SETTINGS) delete process.env[name];
});

function expectThrottled(response: ApiResponse, maxWait = 900) {
  expect(response.status, response.text).toBe(429);
  const wait = Number(response.headers.get('retry-after'));
  expect(wait).toBeGreaterThanOrEqual(1);
  expect(wait).toBeLessThanOrEqual(maxWait);
  expect(response.body).toEqual({ detail: `Request was throttled. Expected available in ${wait} second${wait === 1 ? '' : 's'}.` });
}

async function failures(from: ReturnType<typeof fromAddress>, username: string, count: number) {
  for (let i = 0; i < count; i++) {
    const response = await from.login(username, 'wrong password');
    expect(response.status, `failure ${i + 1}`).toBe(400);
    expect(response.body).toEqual(BAD);
  }
}

describe('failed logins per username and address (default 10)', () => {
  it('after 10 failures the pair gets 429, even with the right password; other addresses and users do not', async () => {
    const address = newAddress();
    const from = fromAddress(api.url, address);
    await failures(from, alice.username, 10);
    expectThrottled(await from.login(alice.username, alice.password));
    expectThrottled(await from.login(alice.username, 'wrong password'));
    expect((await fromAddress(api.url, newAddress()).login(alice.username, alice.password)).status).toBe(200);
    expect((await from.login(bob.username, bob.password)).status).toBe(200);
  });

  it('a successful login clears the pair count', async () => {
    const from = fromAddress(api.url, newAddress());
    await failures(from, bob.username, 9);
    expect((await from.login(bob.username, bob.password)).status).toBe(200);
    await failures(from, bob.username, 9);
    expect((await from.login(bob.username, bob.password)).status).toBe(200);
  });

  it('treats an unknown username exactly like a known one', async () => {
    const from = fromAddress(api.url, newAddress());
    const nobody = unique('nobody');
    await failures(from, nobody, 10);
    expectThrottled(await from.login(nobody, 'wrong password'));
    // A username too long to exist is counted too (its counters' keys are digests).
    const long = 'x'.repeat(500);
    await failures(from, long, 10);
    expectThrottled(await from.login(long, 'anything'));
  });

  it('does not count a 400 for missing fields, nor a 429', async () => {
    const from = fromAddress(api.url, newAddress());
    for (let i = 0; i < 12; i++) expect((await from.login(carol.username, '')).status).toBe(400);
    await failures(from, carol.username, 9);
    expect((await from.login(carol.username, carol.password)).status).toBe(200);
  });

  it('counts concurrent failures exactly', async () => {
    const from = fromAddress(api.url, newAddress());
    const responses = await Promise.all(Array.from({ length: 10 }, () => from.login(alice.username, 'wrong password')));
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(400));
    expectThrottled(await from.login(alice.username, alice.password));
  });

  it('keeps the counters in items that expire with their window; an expired one counts nothing', async () => {
    const address = newAddress();
    const from = fromAddress(api.url, address);
    await failures(from, alice.username, 1);
    const now = epochSeconds();
    const pair = counterFor('login-pair', [alice.username, address], loginFailureLimits().pair, now);
    const { Item } = await db().send(new GetCommand({ TableName: api.table, Key: pair.key, ConsistentRead: true }));
    expect(Item).toMatchObject({ count: 1, [TTL_ATTRIBUTE]: pair.endsAt });
    expect(pair.endsAt - now).toBeLessThanOrEqual(900);
    // DynamoDB Local never deletes expired items: one past its TTL must not count.
    await db().send(new PutCommand({ TableName: api.table, Item: { ...pair.key, count: 50, [TTL_ATTRIBUTE]: now - 1 } }));
    expect((await from.login(alice.username, alice.password)).status).toBe(200);
  });
});

describe('failed logins per address (LOGIN_FAILURES_PER_ADDRESS)', () => {
  it('after the limit every login from that address gets 429, whatever the username', async () => {
    process.env.LOGIN_FAILURES_PER_ADDRESS = '3';
    const from = fromAddress(api.url, newAddress());
    await failures(from, unique('a'), 1);
    await failures(from, unique('b'), 1);
    await failures(from, bob.username, 1);
    expectThrottled(await from.login(carol.username, carol.password));
    expect((await fromAddress(api.url, newAddress()).login(carol.username, carol.password)).status).toBe(200);
  });
});

describe('failed logins per username (LOGIN_FAILURES_PER_USERNAME)', () => {
  it('after the limit every login for that username gets 429, from any address', async () => {
    process.env.LOGIN_FAILURES_PER_USERNAME = '3';
    const target = await api.user('target');
    for (let i = 0; i < 3; i++) await failures(fromAddress(api.url, newAddress()), target.username, 1);
    expectThrottled(await fromAddress(api.url, newAddress()).login(target.username, target.password));
    const other = await api.user('other');
    expect((await fromAddress(api.url, newAddress()).login(other.username, other.password)).status).toBe(200);
  });
});

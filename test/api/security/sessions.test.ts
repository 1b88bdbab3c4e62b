import { createHash } from 'node:crypto';
import { DescribeTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { createUser } from '#lib/auth/create-account.ts';
import { deactivateUser } from '#lib/auth/deactivate.ts';
import { db, dynamodb } from '#lib/db/client.ts';
import { keys } from '#lib/db/keys.ts';
import { BCRYPT_COST } from '#lib/auth/passwords.ts';
import { unique, type ApiResponse } from '../../support/api.ts';
import { useApi } from '../../support/fixture.ts';
import { fromAddress } from '../../support/source-address.ts';
import { median, recordFigures, scanTable } from '../reliability/table.ts';

// Broken authentication (OWASP API2): tokens are stored only as SHA-256 hashes with a TTL, expire
// after TOKEN_TTL_DAYS even before DynamoDB removes them, passwords are bcrypt hashes (cost >= 10),
// an unknown username costs the same bcrypt work as a wrong password, and nothing in a login's
// answer tells whether the account exists.

const BAD_CREDENTIALS = { non_field_errors: ['Unable to log in with provided credentials.'] };
const TIMING_SAMPLES = 15;

const api = useApi({ users: { alice: { prefix: 'ss_alice', password: 'alice secret pass' } } });
const { alice } = api.users;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const login = (body: Record<string, string>) => api.client().post('/login', { json: body });

describe('tokens', () => {
  it('are stored only as SHA-256 hashes: no copy of a token anywhere in the table', async () => {
    const tokens: string[] = [alice.token];
    for (let i = 0; i < 5; i++) tokens.push((await login({ username: alice.username, password: 'alice secret pass' })).body.token);
    expect(new Set(tokens).size).toBe(tokens.length);
    for (const token of tokens) expect(token).toMatch(/^[0-9a-f]{40}$/);
    const items = await scanTable(api.table);
    const dump = JSON.stringify(items);
    for (const token of tokens) {
      expect(dump).not.toContain(token);
      expect(dump).not.toContain(token.toUpperCase());
      expect(dump).not.toContain(Buffer.from(token, 'hex').toString('base64'));
      const record = items.find((item) => item.PK === `TOKEN#${sha256(token)}`);
      expect(record, 'stored under its SHA-256').toBeDefined();
      // is_moderator (v1.3): a moderator's token says so, so that a moderator's request reads no more.
      expect(Object.keys(record!).sort()).toEqual(['GSI1PK', 'GSI1SK', 'PK', 'SK', 'created', 'expires_at', 'is_moderator', 'user_id', 'username'].sort());
    }
  });

  it("expire TOKEN_TTL_DAYS after login (default 30), on the table's TTL attribute", async () => {
    const ttl = await dynamodb().send(new DescribeTimeToLiveCommand({ TableName: api.table }));
    expect(ttl.TimeToLiveDescription).toMatchObject({ TimeToLiveStatus: 'ENABLED', AttributeName: 'expires_at' });

    const expiry = async (token: string) =>
      Number((await db().send(new GetCommand({ TableName: api.table, Key: keys.token(sha256(token)), ConsistentRead: true }))).Item!.expires_at);
    const previous = process.env.TOKEN_TTL_DAYS;
    try {
      for (const [setting, days] of [
        [undefined, 30],
        ['7', 7],
        ['0.5', 0.5],
        ['-3', 30],
        ['abc', 30],
      ] as const) {
        if (setting === undefined) delete process.env.TOKEN_TTL_DAYS;
        else process.env.TOKEN_TTL_DAYS = setting;
        const now = Math.floor(Date.now() / 1000);
        const token = (await login({ username: alice.username, password: 'alice secret pass' })).body.token;
        const expires = await expiry(token);
        expect(expires - now, `TOKEN_TTL_DAYS=${setting}`).toBeGreaterThanOrEqual(days * 86400 - 2);
        expect(expires - now, `TOKEN_TTL_DAYS=${setting}`).toBeLessThanOrEqual(days * 86400 + 2);
      }
    } finally {
      if (previous === undefined) delete process.env.TOKEN_TTL_DAYS;
      else process.env.TOKEN_TTL_DAYS = previous;
    }
  });
});

describe('passwords', () => {
  it('are bcrypt hashes of cost >= 10, never stored or answered in clear', async () => {
    expect(BCRYPT_COST).toBeGreaterThanOrEqual(10);
    const user = await api.user('ss_hash', 'a clear password 123');
    const { Item } = await db().send(new GetCommand({ TableName: api.table, Key: keys.userCredentials(user.username), ConsistentRead: true }));
    const match = /^\$2[aby]\$(\d{2})\$[./A-Za-z0-9]{53}$/.exec(String(Item!.password));
    expect(match, 'a bcrypt hash').not.toBeNull();
    expect(Number(match![1])).toBeGreaterThanOrEqual(10);
    expect(await bcrypt.compare('a clear password 123', String(Item!.password))).toBe(true);
    expect(JSON.stringify(await scanTable(api.table))).not.toContain('a clear password 123');
  });
});

describe('login gives nothing away', () => {
  /** Everything of an answer but the headers that differ on every response. */
  const shape = (response: ApiResponse<any>) => ({
    status: response.status,
    text: response.text,
    headers: [...response.headers.entries()].filter(([name]) => !['date', 'x-request-id', 'x-amzn-requestid', 'apigw-requestid'].includes(name)).sort(),
  });

  it('answers an unknown user, a wrong password, an inactive account and a password-less account identically', async () => {
    const inactive = unique('ss_off');
    await createUser(inactive, 'right password');
    await deactivateUser(inactive);
    const social = unique('ss_social');
    await createUser(social, null);
    const attempts = [
      { username: alice.username, password: 'wrong password' },
      { username: alice.username.toUpperCase(), password: 'alice secret pass' },
      { username: unique('ss_nobody'), password: 'alice secret pass' },
      { username: `${alice.username} `, password: 'wrong password' },
      { username: inactive, password: 'right password' },
      { username: social, password: 'right password' },
      { username: 'x'.repeat(151), password: 'p' },
    ];
    const answers = [];
    for (const body of attempts) answers.push(shape(await login(body)));
    for (const answer of answers) expect(answer).toEqual({ ...answers[0], text: JSON.stringify(BAD_CREDENTIALS) });
    // The same for form bodies.
    const forms = await Promise.all(attempts.slice(0, 3).map((body) => api.client().post('/login', { form: body })));
    for (const response of forms) expect(shape(response)).toEqual(answers[0]);
  });

  it('answers requests about existing and unknown users identically without a valid token', async () => {
    for (const client of [api.client(), api.client('0'.repeat(40))]) {
      const existing = await Promise.all([
        client.get(`/users/detail/${alice.username}`),
        client.put(`/users/detail/${alice.username}`, { form: { location: 'x' } }),
      ]);
      const unknown = await Promise.all([
        client.get(`/users/detail/${unique('ss_none')}`),
        client.put(`/users/detail/${unique('ss_none')}`, { form: { location: 'x' } }),
      ]);
      for (let i = 0; i < existing.length; i++) expect(shape(unknown[i]!)).toEqual(shape(existing[i]!));
    }
  });

  it(`does the same bcrypt work for an unknown username as for a wrong password (${TIMING_SAMPLES} samples each)`, async () => {
    // The reference: one bcrypt check at the service's cost, in this process.
    const hash = await bcrypt.hash('reference', BCRYPT_COST);
    const reference: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      await bcrypt.compare('not it', hash);
      reference.push(performance.now() - t0);
    }
    const social = unique('ss_tp');
    await createUser(social, null);
    const samples = { wrongPassword: [] as number[], unknownUser: [] as number[], noPassword: [] as number[] };
    // Interleaved, so that load on the machine affects each kind alike. Each round comes from an
    // address of its own: failed logins per username and address are limited to 10.
    for (let i = 0; i < TIMING_SAMPLES; i++) {
      const from = fromAddress(api.url, `127.0.3.${i + 1}`);
      for (const [kind, body] of [
        ['wrongPassword', { username: alice.username, password: `wrong ${i}` }],
        ['unknownUser', { username: unique('ss_ghost'), password: `wrong ${i}` }],
        ['noPassword', { username: social, password: `wrong ${i}` }],
      ] as const) {
        const t0 = performance.now();
        const response = await from.login(body.username, body.password);
        samples[kind].push(performance.now() - t0);
        expect(response.body).toEqual(BAD_CREDENTIALS);
      }
    }
    const medians = Object.fromEntries(Object.entries(samples).map(([kind, values]) => [kind, Math.round(median(values) * 10) / 10]));
    const bcryptMs = Math.round(median(reference) * 10) / 10;
    // The fastest reference check is the work itself, least disturbed by other load.
    const bcryptMinMs = Math.round(Math.min(...reference) * 10) / 10;
    recordFigures('login-timing', {
      samplesEach: TIMING_SAMPLES,
      bcryptCost: BCRYPT_COST,
      bcryptCheckMedianMs: bcryptMs,
      bcryptCheckMinMs: bcryptMinMs,
      loginMedianMs: medians,
      unknownToWrongRatio: Math.round((medians.unknownUser! / medians.wrongPassword!) * 100) / 100,
    });
    // The work is done on every path: each refusal takes at least most of one bcrypt check.
    for (const [kind, value] of Object.entries(medians)) expect(value, `${kind} median vs bcrypt ${bcryptMinMs} ms`).toBeGreaterThan(bcryptMinMs * 0.8);
  }, 120_000);
});

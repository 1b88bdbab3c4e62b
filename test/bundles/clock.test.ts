import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { hashToken } from '#lib/auth/tokens.ts';
import { tokenTtlDays } from '#lib/config.ts';
import { db } from '#lib/db/client.ts';
import { keys } from '#lib/db/keys.ts';
import { CLOCK_NOT_MOVABLE, moveClock, resetClock } from '#lib/time.ts';
import { BUNDLES } from '../support/api.ts';
import { useApi } from '../support/fixture.ts';

// The tests' clock (lib/time.ts, moveClock) never moves a deployed function: no bundle of cdk.out
// holds the code that moves it, and a bundle's clock is the system's whatever the test's process
// does to its own. (moveClock itself refuses to run in a Lambda function: test/unit/time.test.ts.)

const api = useApi({ users: ['alice'] });

describe.runIf(BUNDLES)("the bundles' clock", () => {
  it('no bundle holds moveClock: its code is not in any function of the template', () => {
    // The message is moveClock's own (not vacuous: it is in the source the bundles are built from).
    expect(readFileSync(new URL('../../lib/time.ts', import.meta.url), 'utf8')).toContain("'The clock of a Lambda function is not moved");
    const bundles = [...api.server.deployment.functions.values()].map((fn) => {
      if (fn.code.kind !== 'bundle') throw new Error(`${fn.name} is not run from its bundle`);
      return { name: fn.name, code: readFileSync(join(fn.code.directory, fn.code.file), 'utf8') };
    });
    expect(bundles.length).toBeGreaterThan(30);
    // The functions that write timestamps read the clock of lib/time.ts (nowMicros is in them).
    expect(bundles.filter((bundle) => bundle.code.includes('performance.timeOrigin')).length).toBeGreaterThan(20);
    for (const bundle of bundles) expect(bundle.code.includes(CLOCK_NOT_MOVABLE), bundle.name).toBe(false);
  });

  it("a bundle's clock is the system's when the test's process moves its own", async () => {
    const year = 365 * 86_400_000;
    moveClock(year);
    try {
      const login = await api.client().post('/login', { json: { username: api.users.alice.username, password: api.users.alice.password } });
      expect(login.status).toBe(200);
      const { Item } = await db().send(new GetCommand({ TableName: api.table, Key: keys.token(hashToken(login.body.token)), ConsistentRead: true }));
      // Issued now, by the system's clock: a year ahead it would be past the moved clock's now + TTL - 1 day.
      const expected = Math.floor(Date.now() / 1000) + Math.round(tokenTtlDays() * 86_400);
      expect(Number(Item!.expires_at)).toBeGreaterThan(expected - 120);
      expect(Number(Item!.expires_at)).toBeLessThanOrEqual(expected + 1);
    } finally {
      resetClock();
    }
  });
});

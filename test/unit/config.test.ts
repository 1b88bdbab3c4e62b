import { afterEach, describe, expect, it, vi } from 'vitest';
import { childEnvironment, runConcurrentInvocations } from '../../scripts/local/settings.ts';

describe('childEnvironment', () => {
  afterEach(() => vi.unstubAllEnvs());

  it("passes this process's environment on, without its concurrent invocations", () => {
    // A child that inherited AWS_LAMBDA_MAX_CONCURRENCY without this process's InvokeStore would
    // fail at its first Powertools log line ("InvokeStore is not available").
    vi.stubEnv('AWS_LAMBDA_MAX_CONCURRENCY', undefined);
    vi.stubEnv('TABLE_NAME', 'parent-table');
    runConcurrentInvocations(64);
    expect(process.env.AWS_LAMBDA_MAX_CONCURRENCY).toBe('64');
    const child = childEnvironment({ EXTRA: 'x' });
    expect(child).not.toHaveProperty('AWS_LAMBDA_MAX_CONCURRENCY');
    expect(child).toMatchObject({ TABLE_NAME: 'parent-table', EXTRA: 'x', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' });
  });
});

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, type BuiltApp } from '../../infra/build.ts';
import { ACKNOWLEDGMENT_REASONS, XRAY_WILDCARD_FINDING_ID } from '../../infra/nag.ts';
import { DEFAULT_SETTINGS, readSettings, SettingsError } from '../../infra/settings.ts';
import { TRACING_VARIABLE } from '#lib/config.ts';
import { sourceDeployment } from '../../scripts/local/deployment.ts';
import { templateDeployment, templatePolicies } from '../../scripts/local/template-deployment.ts';
import { isDeployTimeFunction, siteBuildFixture } from '../support/site-build.ts';

// The tracing switch: `cdk deploy -c tracing=true` turns on X-Ray active tracing on every function,
// with the X-Ray permissions CDK adds to its role and the variable that loads the Powertools Tracer
// in the code (lib/tracing.ts). Off by default. Bundling is skipped: only the template is under test.

const CDK_JSON = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as { context: Record<string, unknown> };
const XRAY_ACTIONS = ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'];

type Resource = { Type: string; Properties: Record<string, any> };
type Statement = { Effect: string; Action: string | string[]; Resource: unknown };

interface Synthesized {
  built: BuiltApp;
  outdir: string;
  resources: Record<string, Resource>;
}

const outdirs: string[] = [];
const siteAssets = siteBuildFixture();
afterAll(() => [...outdirs, siteAssets].forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function synthesize(context: Record<string, unknown>): Synthesized {
  const outdir = mkdtempSync(join(tmpdir(), 'community-posts-tracing-'));
  outdirs.push(outdir);
  const built = buildApp(
    { outdir, context: { ...CDK_JSON.context, ...context, 'aws:cdk:bundling-stacks': [], 'aws:cdk:enable-asset-metadata': true } },
    { siteAssets },
  );
  const template = built.app.synth().getStackArtifact(built.stack.artifactId).template as { Resources: Record<string, Resource> };
  return { built, outdir, resources: template.Resources };
}

const ofType = (s: Synthesized, type: string) => Object.entries(s.resources).filter(([, resource]) => resource.Type === type);
/** The stack's own functions, without the ones CDK adds for the site's deployment. */
const functionsOf = (s: Synthesized) => ofType(s, 'AWS::Lambda::Function').filter(([id]) => !isDeployTimeFunction(id));

/** Every statement of the policies attached to a role, by the role's logical id. */
function statementsOf(s: Synthesized, role: string): Statement[] {
  return templatePolicies(s.resources)
    .filter((policy) => policy.roles.includes(role))
    .flatMap((policy) => policy.statements as Statement[]);
}

const xrayStatements = (statements: Statement[]) => statements.filter((statement) => [statement.Action].flat().some((action) => action.startsWith('xray:')));

/**
 * Finding id → the reasons it is acknowledged with, in the whole app (one id can have several: the
 * stream consumer's role acknowledges `*` for its ListStreams, and when traced for X-Ray too).
 */
function acknowledgments(built: BuiltApp): Map<string, Set<string>> {
  const acknowledged = new Map<string, Set<string>>();
  for (const construct of built.app.node.findAll()) {
    for (const entry of construct.node.metadata) {
      if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
      for (const [id, reason] of Object.entries(entry.data as Record<string, string>)) {
        const key = id.replace(/^annotation::/i, '');
        acknowledged.set(key, (acknowledged.get(key) ?? new Set()).add(reason));
      }
    }
  }
  return acknowledged;
}

/** Every (finding id, reason) pair, sorted. */
const pairs = (acknowledged: Map<string, Set<string>>) => [...acknowledged].flatMap(([id, reasons]) => [...reasons].map((reason) => `${id}: ${reason}`)).sort();

describe('the tracing setting', () => {
  const settingsFrom = (context: Record<string, unknown>) => readSettings({ tryGetContext: (key: string) => context[key] });

  it('is off by default, in cdk.json too', () => {
    expect(DEFAULT_SETTINGS.tracing).toBe(false);
    expect(CDK_JSON.context.tracing).toBe(false);
    expect(settingsFrom({}).tracing).toBe(false);
  });

  it('reads true or false, as JSON booleans (cdk.json) or strings (-c)', () => {
    for (const value of [true, 'true', 'TRUE', ' true ']) expect(settingsFrom({ tracing: value }).tracing, String(value)).toBe(true);
    for (const value of [false, 'false', 'False']) expect(settingsFrom({ tracing: value }).tracing, String(value)).toBe(false);
  });

  it.each(['yes', '1', 'on', '', 1])('refuses tracing=%j', (value) => {
    expect(() => settingsFrom({ tracing: value })).toThrow(SettingsError);
    expect(() => settingsFrom({ tracing: value })).toThrow('Context "tracing" must be true or false');
  });
});

describe('tracing off (the default)', () => {
  let off: Synthesized;
  beforeAll(() => {
    off = synthesize({});
  }, 120_000);

  it('leaves every function untraced: no TracingConfig, no X-Ray permission, no Tracer variable', () => {
    const functions = functionsOf(off);
    expect(functions.length).toBeGreaterThan(0);
    for (const [id, fn] of functions) {
      expect(fn.Properties.TracingConfig, id).toBeUndefined();
      expect(fn.Properties.Environment.Variables[TRACING_VARIABLE], id).toBeUndefined();
      expect(xrayStatements(statementsOf(off, fn.Properties.Role['Fn::GetAtt'][0] as string)), id).toEqual([]);
    }
    const all = templatePolicies(off.resources).flatMap((policy) => policy.statements as Statement[]);
    expect(xrayStatements(all)).toEqual([]);
  });

  it('acknowledges no X-Ray finding', () => {
    expect(acknowledgments(off.built).get(XRAY_WILDCARD_FINDING_ID)?.has(ACKNOWLEDGMENT_REASONS.xrayWildcard) ?? false).toBe(false);
  });
});

describe('tracing on (-c tracing=true)', () => {
  let on: Synthesized;
  let off: Synthesized;
  beforeAll(() => {
    on = synthesize({ tracing: 'true' });
    off = synthesize({});
  }, 120_000);

  it('traces every function actively, lets its role send traces, and switches the Tracer on', () => {
    const functions = functionsOf(on);
    expect(functions).toHaveLength(on.built.stack.functions.size);
    for (const [id, fn] of functions) {
      expect(fn.Properties.TracingConfig, id).toEqual({ Mode: 'Active' });
      expect(fn.Properties.Environment.Variables[TRACING_VARIABLE], id).toBe('true');
      const xray = xrayStatements(statementsOf(on, fn.Properties.Role['Fn::GetAtt'][0] as string));
      expect(xray, id).toEqual([{ Effect: 'Allow', Action: XRAY_ACTIONS, Resource: '*' }]);
    }
  });

  it('changes nothing else of the functions: their other variables and their DynamoDB and log permissions', () => {
    const withoutXray = (s: Synthesized) =>
      Object.fromEntries(
        functionsOf(s).map(([id, fn]) => {
          const variables = { ...(fn.Properties.Environment.Variables as Record<string, unknown>) };
          delete variables[TRACING_VARIABLE];
          const statements = statementsOf(s, fn.Properties.Role['Fn::GetAtt'][0] as string).filter((statement) => !xrayStatements([statement]).length);
          return [id, { variables, statements }];
        }),
      );
    expect(withoutXray(on)).toEqual(withoutXray(off));
  });

  it('passes cdk-nag, with the X-Ray wildcard acknowledged on each function role and nothing more', () => {
    const report = new AwsSolutionsChecks(on.built.app).validateScope(on.built.app);
    expect(report.violations).toEqual([]);
    const acknowledged = acknowledgments(on.built);
    expect(acknowledged.get(XRAY_WILDCARD_FINDING_ID)?.has(ACKNOWLEDGMENT_REASONS.xrayWildcard)).toBe(true);
    expect(pairs(acknowledged)).toEqual([...pairs(acknowledgments(off.built)), `${XRAY_WILDCARD_FINDING_ID}: ${ACKNOWLEDGMENT_REASONS.xrayWildcard}`].sort());
    for (const fn of on.built.stack.functions.values()) {
      const ids = fn.role.node.metadata
        .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
        .flatMap((entry) => Object.keys(entry.data as Record<string, string>).map((id) => id.replace(/^annotation::/i, '')));
      expect(ids, fn.node.id).toContain(XRAY_WILDCARD_FINDING_ID);
    }
  });

  it('gives the local gateway the same DynamoDB policies as the sources: the IAM guard ignores the X-Ray statements', () => {
    const options = { tableName: 'local-table', region: 'us-east-1', streamArn: 'arn:aws:dynamodb:us-east-1:000000000000:table/local-table/stream/label' };
    const synthesized = templateDeployment({ ...options, cdkOut: on.outdir, stackName: on.built.stack.stackName });
    const source = sourceDeployment({ ...options, allowedOrigins: String(CDK_JSON.context.allowedOrigins).split(',') });
    expect([...synthesized.functions.keys()].sort()).toEqual([...source.functions.keys()].sort());
    for (const [name, fn] of source.functions) {
      const deployed = synthesized.functions.get(name)!;
      expect(deployed.policy, name).toEqual(fn.policy);
      expect(
        deployed.policy.flatMap((statement) => statement.actions).filter((action) => !action.startsWith('dynamodb:')),
        name,
      ).toEqual([]);
      expect(deployed.environment, name).toEqual({ ...fn.environment, [TRACING_VARIABLE]: 'true' });
    }
  });
});

describe('the Tracer in the code (lib/tracing.ts)', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it('is not loaded while tracing is off', async () => {
    vi.stubEnv(TRACING_VARIABLE, undefined);
    vi.resetModules();
    expect((await import('#lib/tracing.ts')).tracing).toBeUndefined();
  });

  it('is loaded when switched on, and traces only in Lambda', async () => {
    vi.stubEnv(TRACING_VARIABLE, 'true');
    vi.stubEnv('AWS_EXECUTION_ENV', undefined);
    vi.resetModules();
    const outside = (await import('#lib/tracing.ts')).tracing;
    expect(outside).toBeDefined();
    expect(outside!.tracer.isTracingEnabled()).toBe(false);

    vi.stubEnv('AWS_EXECUTION_ENV', 'AWS_Lambda_nodejs22.x');
    vi.resetModules();
    const inLambda = (await import('#lib/tracing.ts')).tracing;
    expect(inLambda!.tracer.isTracingEnabled()).toBe(true);
    expect(inLambda!.middleware).toMatchObject({ before: expect.any(Function), after: expect.any(Function), onError: expect.any(Function) });
  });
});

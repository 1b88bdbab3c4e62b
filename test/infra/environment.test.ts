import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validations } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, type BuiltApp } from '../../infra/build.ts';
import { ACKNOWLEDGMENT_REASONS } from '../../infra/nag.ts';
import { siteBuildFixture } from '../support/site-build.ts';

// `cdk synth` and `cdk deploy` with credentials: the CLI then sets CDK_DEFAULT_ACCOUNT and
// CDK_DEFAULT_REGION, and buildApp() makes the stack environment-specific. The same app, with the
// same settings, is synthesized both ways here, without bundling (the functions' code does not
// depend on the environment): test/infra/stack.test.ts bundles them once, and runs the CLI itself.

const CONTEXT = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context as Record<string, unknown>;
const ACCOUNT = '123456789012';
const REGION = 'eu-west-1';

type Json = Record<string, unknown>;

interface Synthesized {
  built: BuiltApp;
  outdir: string;
  template: Json;
  /** The stack's environment as the assembly states it. */
  environment: string;
}

const dirs: string[] = [];
const siteAssets = siteBuildFixture();
dirs.push(siteAssets);
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** The app `cdk synth` builds, with the CLI's two variables as given (undefined: not set). */
function synthesize(account: string | undefined, region: string | undefined): Synthesized {
  const outdir = mkdtempSync(join(tmpdir(), 'community-posts-environment-'));
  dirs.push(outdir);
  vi.stubEnv('CDK_DEFAULT_ACCOUNT', account);
  vi.stubEnv('CDK_DEFAULT_REGION', region);
  try {
    const built = buildApp({ outdir, context: { ...CONTEXT, 'aws:cdk:bundling-stacks': [] } }, { siteAssets });
    // buildApp registers cdk-nag: this synth fails on any finding not fixed or acknowledged.
    const artifact = built.app.synth().getStackArtifact(built.stack.artifactId);
    return { built, outdir, template: artifact.template as Json, environment: artifact.environment.name };
  } finally {
    vi.unstubAllEnvs();
  }
}

/** The parts of a `Fn::Sub` string: its text, and each `${...}` as the reference it stands for (a pseudo parameter as its placeholder). */
function subParts(text: string): unknown[] {
  return text.split(/(\$\{[^}]+\})/).map((part) => {
    const name = /^\$\{([^}]+)\}$/.exec(part)?.[1];
    if (!name || name.startsWith('AWS::')) return part;
    const [resource, attribute] = name.split('.');
    return attribute ? { 'Fn::GetAtt': [resource, attribute] } : { Ref: resource };
  });
}

/** A `Fn::Join` on '' with adjacent strings merged; a single string when nothing else is left. */
function joined(parts: unknown[]): unknown {
  const merged: unknown[] = [];
  for (const part of parts) {
    if (part === '') continue;
    if (typeof part === 'string' && typeof merged.at(-1) === 'string') merged[merged.length - 1] += part;
    else merged.push(part);
  }
  if (merged.length === 0) return '';
  return merged.length === 1 && typeof merged[0] === 'string' ? merged[0] : { 'Fn::Join': ['', merged] };
}

/**
 * A template with the account and region written one way, whichever way CDK wrote them: the
 * literal ACCOUNT and REGION, `Ref`s to pseudo parameters and `Fn::Sub` placeholders all become
 * `${AWS::AccountId}`, `${AWS::Region}`... inside plain strings, and joins of plain strings become
 * one string. Anything else is kept, so any other difference stays one.
 */
function normalize(value: unknown): unknown {
  if (typeof value === 'string') return value.replaceAll(ACCOUNT, '${AWS::AccountId}').replaceAll(REGION, '${AWS::Region}');
  if (Array.isArray(value)) return value.map(normalize);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Json);
  if (entries.length === 1) {
    const [name, argument] = entries[0]!;
    if (name === 'Ref' && typeof argument === 'string' && argument.startsWith('AWS::')) return `\${${argument}}`;
    if (name === 'Fn::Sub' && typeof argument === 'string') return joined(subParts(argument).map(normalize));
    if (name === 'Fn::Join' && Array.isArray(argument) && argument[0] === '') return joined((argument[1] as unknown[]).map(normalize));
  }
  return Object.fromEntries(entries.map(([key, item]) => [normalize(key) as string, normalize(item)]));
}

/** The file assets of an assembly by id (their content's hash), the template itself left out. */
function assetHashes(outdir: string, stackName: string): string[] {
  const manifest = JSON.parse(readFileSync(join(outdir, `${stackName}.assets.json`), 'utf8')) as { files: Record<string, { source: { path: string } }> };
  return Object.entries(manifest.files)
    .filter(([, asset]) => asset.source.path !== `${stackName}.template.json`)
    .map(([id]) => id)
    .sort();
}

/** Every acknowledged finding id of the app, with its reason. */
function acknowledgments(built: BuiltApp): string[] {
  return built.app.node
    .findAll()
    .flatMap((construct) => construct.node.metadata)
    .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
    .flatMap((entry) => Object.entries(entry.data as Record<string, string>).map(([id, reason]) => `${id.replace(/^annotation::/i, '')}: ${reason}`))
    .sort();
}

describe('the stack synthesized without and with the account and region the CLI sets', () => {
  let agnostic: Synthesized;
  let specific: Synthesized;
  beforeAll(() => {
    agnostic = synthesize(undefined, undefined);
    specific = synthesize(ACCOUNT, REGION);
  }, 240_000);

  it('is environment-agnostic without them (npm run synth without credentials), in that account and region with them', () => {
    expect(agnostic.environment).toBe('aws://unknown-account/unknown-region');
    expect(specific.environment).toBe(`aws://${ACCOUNT}/${REGION}`);
  });

  it('passes cdk-nag both ways (each synth would have stopped on a finding), with no error or warning left', () => {
    for (const { built, outdir } of [agnostic, specific]) {
      const report = JSON.parse(readFileSync(join(outdir, 'validation-report.json'), 'utf8')) as { pluginReports: { violations: unknown[] }[] };
      expect(report.pluginReports.flatMap((plugin) => plugin.violations)).toEqual([]);
      Annotations.fromStack(built.stack).hasNoError('*', Match.anyValue());
      Annotations.fromStack(built.stack).hasNoWarning('*', Match.anyValue());
    }
  });

  it('acknowledges the same findings for the same reasons, the ids naming the account and region where the finding does', () => {
    const ids = acknowledgments(specific.built);
    expect(ids).toContain(
      `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-${ACCOUNT}-${REGION}/*]: ${ACKNOWLEDGMENT_REASONS.bucketDeploymentWildcards}`,
    );
    const normalized = ids.map((id) => id.replaceAll(ACCOUNT, '<AWS::AccountId>').replaceAll(REGION, '<AWS::Region>')).sort();
    expect(normalized).toEqual(acknowledgments(agnostic.built));
  });

  it('differs only where the account and region are written, and has the same assets', () => {
    const text = JSON.stringify(specific.template);
    expect(text).toContain(ACCOUNT);
    expect(text).toContain(REGION);
    expect(JSON.stringify(agnostic.template)).not.toContain(ACCOUNT);
    expect(specific.template).not.toEqual(agnostic.template);
    expect(normalize(specific.template)).toEqual(normalize(agnostic.template));
    const stackName = specific.built.stack.stackName;
    expect(assetHashes(specific.outdir, stackName)).toEqual(assetHashes(agnostic.outdir, stackName));
    expect(assetHashes(agnostic.outdir, stackName).length).toBeGreaterThan(30);
  });
});

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll } from 'vitest';
import { buildApp, type BuiltApp } from '../../infra/build.ts';
import { siteBuildFixture } from './site-build.ts';

// One synthesis per configuration, shared by every test of the process that asks for it:
//
//   const s = synthesizedStack();                                  // cdk.json's context, template only
//   const s = synthesizedStack({ context: { tracing: 'true' } });  // another configuration
//   const s = synthesizedStack({ bundles: true });                 // with each function's esbuild bundle
//   const s = synthesizedStack({ account: '123456789012', region: 'eu-west-1' });  // an environment set
//
// A configuration is its context (over cdk.json's), its environment (account and region, as the
// CLI sets them from the credentials in use), and whether the functions are bundled: the same
// configuration asked for again, in the same file or another test of the process, gets the same
// synthesis. The app is built in this process (infra/build.ts, cdk-nag included), with a stand-in
// for the site's build (site-build.ts) unless `siteAssets` names one.
//
// Bundling is the slow part (an esbuild bundle per function, about a minute on two cores), and
// `npm run synth` does it anyway before the bundles' run: with SYNTHESIZED_CDK_OUT naming the
// cloud assembly `npm run synth` just wrote from this checkout (`.ci/run` sets it), the bundled
// synthesis of cdk.json's configuration is that folder, read, not made again. Its template must
// hold the same resources as the app built here without bundling (else the folder is of another
// configuration or of other sources, and the test stops saying so). Without the variable (a
// developer's `npm test`), it is synthesized here, once per process.

export type StackTemplate = { Resources: Record<string, any>; Outputs?: Record<string, any>; [key: string]: unknown };

export interface Synthesis {
  /** The cloud assembly folder: the template, each function's bundle, the validation report. */
  outdir: string;
  /** The app as built in this process: its constructs (logical ids, annotations, cdk-nag's findings). */
  built: BuiltApp;
  /** The stack's template, as written to `outdir`. */
  template: StackTemplate;
  /** Whether `outdir` is the assembly `npm run synth` wrote (SYNTHESIZED_CDK_OUT), not one made here. */
  prebuilt: boolean;
}

export interface SynthesisOptions {
  /** Context over cdk.json's (`{ tracing: 'true' }`). */
  context?: Record<string, unknown>;
  /** Bundle each function (default false: the template alone, `aws:cdk:bundling-stacks` empty). */
  bundles?: boolean;
  /** The site's build folder; default a stand-in (test/support/site-build.ts). */
  siteAssets?: string;
  /** The environment the CLI would set from the credentials in use (CDK_DEFAULT_ACCOUNT, CDK_DEFAULT_REGION). */
  account?: string;
  region?: string;
}

/** The variable naming a cloud assembly `npm run synth` wrote from this checkout (cdk.json's configuration). */
export const SYNTHESIZED_CDK_OUT = 'SYNTHESIZED_CDK_OUT';

const CDK_JSON = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as { context: Record<string, unknown> };

/** cdk.json's context, as `cdk synth` reads it. */
export const CDK_CONTEXT: Readonly<Record<string, unknown>> = CDK_JSON.context;

const syntheses = new Map<string, Synthesis>();
const scratch: string[] = [];
let cleanupRegistered = false;

function temporary(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(folder);
  if (!cleanupRegistered) {
    cleanupRegistered = true;
    afterAll(() => {
      for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
      syntheses.clear();
    });
  }
  return folder;
}

/** Runs `build` with the CLI's environment variables for this account and region (none: as they are). */
function withEnvironment<T>(options: SynthesisOptions, build: () => T): T {
  const variables: Record<string, string | undefined> = {};
  if (options.account !== undefined) variables.CDK_DEFAULT_ACCOUNT = options.account;
  if (options.region !== undefined) variables.CDK_DEFAULT_REGION = options.region;
  const saved = Object.fromEntries(Object.keys(variables).map((name) => [name, process.env[name]]));
  Object.assign(process.env, variables);
  try {
    return build();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

function build(options: SynthesisOptions, bundles: boolean): { outdir: string; built: BuiltApp; template: StackTemplate } {
  const outdir = temporary('community-posts-cdk-');
  const siteAssets = options.siteAssets ?? temporaryFixture();
  const context = {
    ...CDK_CONTEXT,
    ...options.context,
    // As the CLI does: record in the template where each function's bundle is.
    'aws:cdk:enable-asset-metadata': true,
    ...(bundles ? {} : { 'aws:cdk:bundling-stacks': [] }),
  };
  return withEnvironment(options, () => {
    const built = buildApp({ outdir, context }, { siteAssets });
    // buildApp registers cdk-nag: a synth fails on any finding not fixed or acknowledged.
    const template = built.app.synth().getStackArtifact(built.stack.artifactId).template as StackTemplate;
    return { outdir, built, template };
  });
}

function temporaryFixture(): string {
  const folder = siteBuildFixture();
  scratch.push(folder);
  return folder;
}

/**
 * The resources of a template by logical id and type: what two syntheses of one configuration
 * share, bundles or not; but CDK's version report (AWS::CDK::Metadata), which the CLI adds and an
 * app built in a test does not.
 */
const shape = (template: StackTemplate) =>
  Object.entries(template.Resources)
    .filter(([, resource]) => (resource as { Type: string }).Type !== 'AWS::CDK::Metadata')
    .map(([id, resource]) => `${id} ${(resource as { Type: string }).Type}`)
    .sort();

/** The assembly `npm run synth` wrote, read for cdk.json's bundled configuration, with the app built here for its constructs. */
function prebuilt(folder: string, options: SynthesisOptions): Synthesis {
  const outdir = resolve(folder);
  const here = build(options, false);
  const file = join(outdir, `${here.built.stack.artifactId}.template.json`);
  if (!existsSync(file))
    throw new Error(`${SYNTHESIZED_CDK_OUT}=${folder} has no ${here.built.stack.artifactId}.template.json: run npm run synth, or unset it.`);
  const template = JSON.parse(readFileSync(file, 'utf8')) as StackTemplate;
  const expected = shape(here.template);
  const found = shape(template);
  if (JSON.stringify(found) !== JSON.stringify(expected)) {
    const missing = expected.filter((line) => !found.includes(line));
    const extra = found.filter((line) => !expected.includes(line));
    throw new Error(
      `${SYNTHESIZED_CDK_OUT}=${folder} is not a synthesis of these sources with cdk.json's context ` +
        `(missing ${JSON.stringify(missing.slice(0, 5))}, not expected ${JSON.stringify(extra.slice(0, 5))}): run npm run synth again, or unset it.`,
    );
  }
  return { outdir, built: here.built, template, prebuilt: true };
}

/** Whether these options are cdk.json's configuration as `npm run synth` synthesizes it (bundled, no environment, the site's build). */
function isCdkJsonBundled(options: SynthesisOptions): boolean {
  return options.bundles === true && Object.keys(options.context ?? {}).length === 0 && options.account === undefined && options.region === undefined;
}

/** The synthesis of this configuration: made once per process, or read from SYNTHESIZED_CDK_OUT (see above). */
export function synthesizedStack(options: SynthesisOptions = {}): Synthesis {
  const key = JSON.stringify({ ...options, bundles: options.bundles === true });
  let synthesis = syntheses.get(key);
  if (!synthesis) {
    const folder = process.env[SYNTHESIZED_CDK_OUT];
    synthesis = folder && isCdkJsonBundled(options) ? prebuilt(folder, options) : { ...build(options, options.bundles === true), prebuilt: false };
    syntheses.set(key, synthesis);
  }
  return synthesis;
}

import { App, type AppProps } from 'aws-cdk-lib';
import { applyNagChecks } from './nag.ts';
import { cdkEnvironment, readSettings, type DeploySettings } from './settings.ts';
import { CommunityPostsStack } from './stack.ts';

export interface BuiltApp {
  app: App;
  stack: CommunityPostsStack;
  settings: DeploySettings;
}

export interface BuildOptions {
  /** The site's build folder; default the context's `siteAssets`, else web/dist (infra/site.ts). */
  siteAssets?: string;
  /** The site's server build folder; default the context's `siteServerBuild`, else the one beside the site's build (web/dist-server). */
  siteServerBuild?: string;
}

/** The context key of another site build folder than web/dist: `npx cdk synth -c siteAssets=path`. */
export const SITE_ASSETS_CONTEXT = 'siteAssets';
/** The context key of another server build folder than the one beside the site's build: `-c siteServerBuild=path`. */
export const SITE_SERVER_BUILD_CONTEXT = 'siteServerBuild';

/**
 * The CDK app exactly as `cdk synth` / `cdk deploy` build it (infra/app.ts): settings from the
 * context, the stack, and the cdk-nag AwsSolutions checks that stop a synth on any finding
 * not fixed or acknowledged. Tests build it here with their own outdir and context.
 */
export function buildApp(props: AppProps = {}, options: BuildOptions = {}): BuiltApp {
  const app = new App(props);
  const settings = readSettings(app.node);
  const siteAssets = options.siteAssets ?? (app.node.tryGetContext(SITE_ASSETS_CONTEXT) as string | undefined);
  const siteServerBuild = options.siteServerBuild ?? (app.node.tryGetContext(SITE_SERVER_BUILD_CONTEXT) as string | undefined);
  // Set by the CLI from the credentials in use; without them the stack is environment-agnostic.
  const env = cdkEnvironment();
  const stack = new CommunityPostsStack(app, settings.stackName, {
    settings,
    ...(siteAssets ? { siteAssets } : {}),
    ...(siteServerBuild ? { siteServerBuild } : {}),
    description: 'community-posts: REST API on API Gateway HTTP API, AWS Lambda and one DynamoDB table',
    ...(env ? { env } : {}),
  });
  applyNagChecks(app);
  return { app, stack, settings };
}

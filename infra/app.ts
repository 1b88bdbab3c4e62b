import { buildApp } from './build.ts';

// The CDK app (cdk.json: "app"). Settings come from the context in cdk.json and `-c name=value`
// overrides; account and region from the CLI's credentials when deploying (synth needs none).
// The CLI synthesizes the app when this process exits.
buildApp();

import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { CONTEXT_KEYS, DEFAULT_SETTINGS, readSettings, SettingsError } from '../../infra/settings.ts';
import { CommunityPostsStack } from '../../infra/stack.ts';
import { ROUTES } from '../../lib/routes.ts';

// The deploy settings: cdk.json's context and `-c name=value` overrides (strings).

const CDK_JSON = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as {
  app: string;
  context: Record<string, unknown>;
};

const settingsFrom = (context: Record<string, unknown>) => readSettings(new App({ context }).node);

describe('deploy settings', () => {
  it('cdk.json runs the app with tsx and sets every setting to the built-in default', () => {
    expect(CDK_JSON.app).toBe('npx tsx infra/app.ts');
    for (const key of Object.values(CONTEXT_KEYS)) expect(CDK_JSON.context, key).toHaveProperty(key);
    expect(settingsFrom(CDK_JSON.context)).toEqual(DEFAULT_SETTINGS);
    expect(settingsFrom({})).toEqual(DEFAULT_SETTINGS);
  });

  it('reads -c overrides, which arrive as strings', () => {
    expect(
      settingsFrom({
        stackName: 'PostsStaging',
        allowedOrigins: 'https://a.example, https://b.example:8443',
        throttlingRateLimit: '10',
        throttlingBurstLimit: '20',
        memorySize: '1024',
        logRetentionDays: '7',
      }),
    ).toEqual({
      stackName: 'PostsStaging',
      allowedOrigins: ['https://a.example', 'https://b.example:8443'],
      throttlingRateLimit: 10,
      throttlingBurstLimit: 20,
      memorySize: 1024,
      logRetentionDays: 7,
    });
    expect(settingsFrom({ allowedOrigins: ['https://a.example'] }).allowedOrigins).toEqual(['https://a.example']);
    expect(settingsFrom({ allowedOrigins: 'https://a.example,*' }).allowedOrigins).toEqual(['*']);
  });

  it.each([
    ['allowedOrigins', ''],
    ['allowedOrigins', 'https://a.example/'],
    ['allowedOrigins', 'a.example'],
    ['throttlingRateLimit', 'fast'],
    ['throttlingRateLimit', '0'],
    ['throttlingBurstLimit', '2.5'],
    ['memorySize', '64'],
    ['logRetentionDays', '2'],
    ['stackName', ' '],
  ])('refuses %s=%j', (key, value) => {
    expect(() => settingsFrom({ [key]: value })).toThrow(SettingsError);
  });

  it('puts the overrides into the template', () => {
    // Bundling is skipped here ('aws:cdk:bundling-stacks': []): only the settings are under test.
    const app = new App({
      context: {
        'aws:cdk:bundling-stacks': [],
        allowedOrigins: 'https://a.example,https://b.example',
        throttlingRateLimit: '7',
        throttlingBurstLimit: '9',
        memorySize: '1024',
        logRetentionDays: '14',
      },
    });
    const settings = readSettings(app.node);
    const stack = new CommunityPostsStack(app, settings.stackName, { settings });
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: { AllowOrigins: ['https://a.example', 'https://b.example'] },
    });
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 7, ThrottlingBurstLimit: 9 },
    });
    const functions = Object.values(template.findResources('AWS::Lambda::Function'));
    // One per handler of the route table, plus the fallback.
    expect(functions).toHaveLength(new Set(ROUTES.map((route) => route.handler)).size + 1);
    for (const fn of functions) {
      expect(fn.Properties.MemorySize).toBe(1024);
      expect(fn.Properties.Environment.Variables.CORS_ALLOWED_ORIGINS).toBe('https://a.example,https://b.example');
    }
    for (const logGroup of Object.values(template.findResources('AWS::Logs::LogGroup'))) {
      expect(logGroup.Properties.RetentionInDays).toBe(14);
    }
  });
});

import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { CfnTable, ITable, Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyDocument, PolicyStatement, Role, ServicePrincipal, type AddToPrincipalPolicyResult, type RoleProps } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat, type BundlingOptions, type ICommandHooks } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { TRACING_VARIABLE } from '#lib/config.ts';
import { tableStatements, type TableAccess } from './permissions.ts';
import { acknowledgeIndexWildcard, acknowledgeRuntimeVersion, acknowledgeXrayWildcard } from './nag.ts';

/** The repository root: handlers are bundled from `functions/`, with its package-lock.json. */
export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

export const RUNTIME = Runtime.NODEJS_22_X;
export const ARCHITECTURE = Architecture.ARM_64;
/** The API's functions' timeout: well within API Gateway's 30 s integration timeout. */
export const TIMEOUT = Duration.seconds(10);

/**
 * What esbuild defines for lib/tracing.ts: whether the bundle carries the Powertools Tracer and
 * the X-Ray SDK (only a traced function's does; an untraced one would never load them).
 */
export function tracerDefine(tracing: boolean): Record<string, string> {
  return { TRACER_IN_BUNDLE: String(tracing) };
}

/**
 * esbuild, run locally (never Docker): one ESM file per handler with everything it imports,
 * the AWS SDK included (not the runtime's copy) and tree-shaken through its ES module builds.
 * Without the Tracer: a traced function's bundling defines TRACER_IN_BUNDLE true (ApiFunction).
 */
export const BUNDLING: BundlingOptions = {
  format: OutputFormat.ESM,
  target: 'node22',
  mainFields: ['module', 'main'],
  // CommonJS dependencies inside an ES module bundle call require(): give them one.
  banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
  // jsdom (the page function's DOM for DOMPurify) asks for the optional `canvas` package, which no function has.
  externalModules: ['canvas'],
  bundleAwsSDK: true,
  minify: true,
  sourceMap: true,
  sourcesContent: false,
  logLevel: LogLevel.WARNING,
  forceDockerBundling: false,
  define: tracerDefine(false),
};

/** Files copied next to a function's bundle (its index.mjs), which it reads at run time. */
export interface BundledFiles {
  /** Absolute folder the files are taken from. */
  from: string;
  /** Paths relative to `from`, `/` between folders. */
  files: readonly string[];
  /** Folder inside the bundle they are copied to. */
  to: string;
}

export interface ApiFunctionProps {
  /** The handler module under functions/, e.g. 'posts/list' (it exports `handler`). */
  handler: string;
  /** The table whose name the function gets as TABLE_NAME; none for a function that never uses it. */
  table?: ITable;
  /** Files the function reads at run time, copied into its bundle after esbuild ran. */
  bundledFiles?: BundledFiles | readonly BundledFiles[];
  memorySize: number;
  /** Default TIMEOUT, the API's; the stream consumer has its own (streamTimeoutSeconds). */
  timeout?: Duration;
  logRetention: RetentionDays;
  /** More environment variables. */
  environment?: Record<string, string>;
  /**
   * X-Ray active tracing (CDK grants the role the two X-Ray actions it needs) and the Powertools
   * Tracer switched on in the code (lib/tracing.ts). Default: off.
   */
  tracing?: boolean;
  description?: string;
}

const quote = (path: string) => `'${path.replaceAll("'", "'\\''")}'`;

/** Local bundling runs these shell commands after esbuild: they copy the files into the output. */
export function copyFilesHook(given: BundledFiles | readonly BundledFiles[]): ICommandHooks {
  const all: readonly BundledFiles[] = Array.isArray(given) ? given : [given as BundledFiles];
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (_inputDir: string, outputDir: string) =>
      all.flatMap((bundled) => [
        `mkdir -p ${quote(join(outputDir, bundled.to))}`,
        // A file in a subfolder (the server build's chunks) gets its folder first.
        ...bundled.files.map(
          (file) =>
            `mkdir -p ${quote(dirname(join(outputDir, bundled.to, file)))} && cp ${quote(join(bundled.from, file))} ${quote(join(outputDir, bundled.to, file))}`,
        ),
      ]),
  };
}

/**
 * A role whose every grant lands in one inline policy of the role itself (its `Policies`), not in
 * a separate AWS::IAM::Policy: one resource fewer per function, which keeps the stack under
 * CloudFormation's 500 resources per template (docs/deploy.md). What CDK grants through the role
 * (log writes, X-Ray, the stream and the on-failure queue of an event source) goes there too.
 */
export class InlinePolicyRole extends Role {
  private readonly document: PolicyDocument;

  constructor(scope: Construct, id: string, props: RoleProps) {
    const document = new PolicyDocument();
    super(scope, id, { ...props, inlinePolicies: { ...props.inlinePolicies, access: document } });
    this.document = document;
  }

  override addToPrincipalPolicy(statement: PolicyStatement): AddToPrincipalPolicyResult {
    this.document.addStatements(statement);
    // The policy is part of the role: whatever waits for the grant waits for the role.
    return { statementAdded: true, policyDependable: this };
  }
}

/**
 * One API operation: a NodejsFunction with the project's defaults (Node.js 22 on arm64, the
 * local esbuild bundle, TABLE_NAME, source maps), its own log group with a retention period, and
 * its own role that may write to that log group (and send traces to X-Ray when tracing is on) and
 * do nothing else until granted table access, all in the role's one inline policy (InlinePolicyRole).
 */
export class ApiFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    super(scope, id);
    this.logGroup = new LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.role = new InlinePolicyRole(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Runs functions/${props.handler}`,
    });
    this.logGroup.grantWrite(this.role);
    this.function = new NodejsFunction(this, 'Function', {
      entry: join(PROJECT_ROOT, 'functions', `${props.handler}.ts`),
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      runtime: RUNTIME,
      architecture: ARCHITECTURE,
      memorySize: props.memorySize,
      timeout: props.timeout ?? TIMEOUT,
      role: this.role,
      logGroup: this.logGroup,
      ...(props.description ? { description: props.description } : {}),
      environment: {
        ...(props.table ? { TABLE_NAME: props.table.tableName } : {}),
        NODE_OPTIONS: '--enable-source-maps',
        ...props.environment,
        ...(props.tracing ? { [TRACING_VARIABLE]: 'true' } : {}),
      },
      ...(props.tracing ? { tracing: Tracing.ACTIVE } : {}),
      bundling: {
        ...BUNDLING,
        define: tracerDefine(props.tracing === true),
        ...(props.bundledFiles ? { commandHooks: copyFilesHook(props.bundledFiles) } : {}),
      },
    });
    acknowledgeRuntimeVersion(this.function);
    if (props.tracing) acknowledgeXrayWildcard(this.role);
  }

  /** Allows exactly these actions on the table, if any on its indexes, and if any on the search table (then named in SEARCH_TABLE_NAME). */
  grantTable(table: Table, searchTable: Table, access: TableAccess): void {
    for (const statement of tableStatements(access, table.tableArn, searchTable.tableArn)) {
      this.role.addToPrincipalPolicy(new PolicyStatement(statement));
    }
    if (access.search?.length) this.function.addEnvironment('SEARCH_TABLE_NAME', searchTable.tableName);
    if (access.indexes.length > 0) acknowledgeIndexWildcard(this.role, table.node.defaultChild as CfnTable);
  }
}

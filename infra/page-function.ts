import { fileURLToPath } from 'node:url';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { FunctionUrlAuthType, type FunctionUrl } from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { ApiFunction } from './api-function.ts';
import { tableAccess } from './permissions.ts';
import { BUNDLED_SITE_FOLDER, PAGE_HANDLER } from './pages.ts';
import { filesUnder, requireServerBuild } from './site-functions.ts';

// The site's pages, rendered per request (docs/site.md): one function behind a function URL that
// only the distribution may call (origin access control, infra/site.ts). It carries the server
// build of the site (the renderer and the page template) in its bundle, so a page and the assets
// it names come from one build.

export interface PageFunctionProps {
  table: Table;
  searchTable: Table;
  /** The server build folder (render.mjs, index.html). */
  serverBuild: string;
  memorySize: number;
  logRetention: RetentionDays;
  tracing: boolean;
  /** TABLE_NAME comes with the table; these add the public-read settings, SITE_NAME and, when set, SITE_URL. */
  environment: Record<string, string>;
}

const JSDOM_XHR_FOLDER = fileURLToPath(new URL('../node_modules/jsdom/lib/jsdom/living/xhr/', import.meta.url));

/** The page function: an ApiFunction of functions/site/page.ts, read-only on the table, with its function URL (IAM auth). */
export class PageFunction extends ApiFunction {
  readonly url: FunctionUrl;

  constructor(scope: Construct, id: string, props: PageFunctionProps) {
    // Read first: a missing server build stops the synth here, with the command that makes it.
    requireServerBuild(props.serverBuild);
    super(scope, id, {
      handler: PAGE_HANDLER,
      table: props.table,
      bundledFiles: [
        { from: props.serverBuild, files: filesUnder(props.serverBuild), to: BUNDLED_SITE_FOLDER },
        // jsdom resolves its synchronous-XHR worker beside the bundle when it loads (never runs it).
        { from: JSDOM_XHR_FOLDER, files: ['xhr-sync-worker.js'], to: '.' },
      ],
      memorySize: props.memorySize,
      logRetention: props.logRetention,
      tracing: props.tracing,
      environment: props.environment,
      description: "Renders the site's pages for CloudFront",
    });
    this.grantTable(props.table, props.searchTable, tableAccess({ handler: PAGE_HANDLER, access: 'read' }));
    // AWS_IAM: a request must be signed, and only the distribution's origin access control signs.
    this.url = this.function.addFunctionUrl({ authType: FunctionUrlAuthType.AWS_IAM });
  }
}

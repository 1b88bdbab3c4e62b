import './local/tool.ts';
import { AccountError } from '#lib/auth/account.ts';
import { describeFailure, run, UsageError, USAGE } from './admin/run.ts';

// `npm run admin -- <command>`: exit 0 on success, 1 when refused or failed, 2 on bad usage.
run(process.argv.slice(2)).then(
  (message) => console.log(message.trimEnd()),
  (error: unknown) => {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`${(error as Error).message}\n\n${USAGE}`);
      process.exit(2);
    }
    console.error(error instanceof AccountError ? error.message : describeFailure(error));
    process.exit(1);
  },
);

import { parseArgs } from 'node:util';
import { AccountError } from '#lib/auth/account.ts';
import { createUser } from '#lib/auth/create-account.ts';
import { deactivateUser } from '#lib/auth/deactivate.ts';
import { reactivateUser } from '#lib/auth/reactivate.ts';
import { setPassword } from '#lib/auth/set-password.ts';
import { dynamodbEndpoint, localSettings, signupClosedByDeployment, tableName, useAwsEndpoint, useDefaults } from '#lib/config.ts';
import { NotFound } from '#lib/http/errors.ts';
import { setFeatured } from '#lib/posts/feature.ts';
import { setSignupClosed } from '#lib/users/signup-setting.ts';

// The administrator commands: account and moderation tasks that have no API endpoint.

export const USAGE = `Usage: npm run admin -- [--aws] <command> [options]

Commands:
  create-user --username U (--password P | --password-stdin | --no-password)
                              create an account; --no-password makes a third-party login
                              account that cannot log in until a password is set
  set-password --username U (--password P | --password-stdin)
                              set or change a password (the user's tokens stop working)
  deactivate-user --username U
                              hide the user from lists, refuse logins, revoke tokens
  reactivate-user --username U
                              list the user again and allow their logins (old tokens stay revoked)
  close-signup                refuse sign-ups (POST /users answers 403) until reopened
  open-signup                 accept sign-ups again (unless the deployment sets SIGNUP=closed)
  feature-post --slug S [--off]
                              mark a post as featured (or not, with --off)

Options:
  --aws        use the real AWS endpoint and credentials of the environment (TABLE_NAME,
               AWS_REGION); without it the local emulator at DYNAMODB_ENDPOINT or
               http://127.0.0.1:$DYNAMODB_PORT (default 8000) is used
  -h, --help   show this text
`;

export class UsageError extends Error {}

function readStdin(): Promise<string> {
  return new Promise((done, fail) => {
    let data = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk) => (data += chunk));
    process.stdin.on('end', () => done(data.replace(/\r?\n$/, '')));
    process.stdin.on('error', fail);
  });
}

function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`${flag} is required.`);
  return value;
}

async function password(values: { password?: string; 'password-stdin'?: boolean }): Promise<string | undefined> {
  const given = values['password-stdin'] ? await readStdin() : values.password;
  if (given !== undefined && given.length === 0) throw new UsageError('The password may not be empty.');
  return given;
}

export async function run(argv: string[]): Promise<string> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      aws: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      username: { type: 'string' },
      password: { type: 'string' },
      'password-stdin': { type: 'boolean' },
      'no-password': { type: 'boolean' },
      slug: { type: 'string' },
      off: { type: 'boolean' },
    },
  });
  const [command] = positionals;
  if (values.help || !command) return USAGE;
  if (values.aws) useAwsEndpoint();
  else useDefaults({ DYNAMODB_ENDPOINT: localSettings().defaultDynamodbEndpoint });

  switch (command) {
    case 'create-user': {
      const username = required(values.username, '--username');
      const secret = await password(values);
      if ((secret === undefined) === !values['no-password']) {
        throw new UsageError('Give exactly one of --password, --password-stdin or --no-password.');
      }
      const user = await createUser(username, secret ?? null);
      return `Created user "${user.username}" (id ${user.id})${secret === undefined ? ' without a password' : ''} in table ${tableName()}.`;
    }
    case 'set-password': {
      const username = required(values.username, '--username');
      const secret = await password(values);
      if (secret === undefined) throw new UsageError('--password or --password-stdin is required.');
      await setPassword(username, secret);
      return `Password set for "${username}".`;
    }
    case 'deactivate-user': {
      const username = required(values.username, '--username');
      await deactivateUser(username);
      return `Deactivated "${username}".`;
    }
    case 'reactivate-user': {
      const username = required(values.username, '--username');
      await reactivateUser(username);
      return `Reactivated "${username}".`;
    }
    case 'close-signup':
      await setSignupClosed(true);
      return `Sign-up is closed in table ${tableName()}.`;
    case 'open-signup':
      await setSignupClosed(false);
      return `Sign-up is open in table ${tableName()}${signupClosedByDeployment() ? ', but SIGNUP=closed in this environment' : ''}.`;
    case 'feature-post': {
      const slug = required(values.slug, '--slug');
      try {
        const post = await setFeatured(slug, !values.off);
        return `Post "${post.slug}" is ${post.is_featured ? 'featured' : 'not featured'}.`;
      } catch (error) {
        if (error instanceof NotFound) throw new AccountError(`There is no post "${slug}".`);
        throw error;
      }
    }
    default:
      throw new UsageError(`Unknown command "${command}".`);
  }
}

export function describeFailure(error: unknown): string {
  const name = (error as { name?: string }).name ?? '';
  if (name === 'ResourceNotFoundException') return `The table "${tableName()}" does not exist at this endpoint. Start the local stack with \`npm start\` or set TABLE_NAME.`;
  const code = (error as { code?: string; cause?: { code?: string } }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  if (code === 'ECONNREFUSED' || name === 'TimeoutError') {
    return `Cannot reach DynamoDB at ${dynamodbEndpoint() ?? 'AWS'}. Is \`npm start\` running?`;
  }
  return error instanceof Error ? error.message : String(error);
}

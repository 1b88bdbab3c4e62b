import { parseArgs } from 'node:util';
import { AccountError } from '#lib/auth/account.ts';
import { createUser } from '#lib/auth/create-account.ts';
import { deactivateUser } from '#lib/auth/deactivate.ts';
import { reactivateUser } from '#lib/auth/reactivate.ts';
import { setModerator } from '#lib/auth/moderators.ts';
import { setPassword } from '#lib/auth/set-password.ts';
import { awsRegion, dynamodbEndpoint, reindexWritesPerSecond, searchTableName, signupClosedByDeployment, tableName } from '#lib/config.ts';
import { localSettings, useAwsEndpoint, useDefaults } from '../local/settings.ts';
import { NotFound } from '#lib/errors.ts';
import { DraftNotFeatured, setFeatured } from '#lib/posts/feature.ts';
import { restorePost } from '#lib/posts/restore.ts';
import { DEFAULT_REINDEX_WRITES_PER_SECOND, reindex } from '#lib/search/reindex.ts';
import { setSignupClosed } from '#lib/users/signup-setting.ts';
import { progressReporter } from './progress.ts';
import { promptHidden } from './prompt.ts';

// The administrator commands: account, moderation and upkeep tasks that have no API endpoint.

export const USAGE = `Usage: npm run admin -- [--aws] <command> [options]

Commands:
  create-user --username U [--password-stdin | --password P | --no-password]
                              create an account; without a password option the password is
                              asked for (hidden) at the terminal; --no-password makes a
                              third-party login account that cannot log in until a password is set
  set-password --username U [--password-stdin | --password P]
                              set or change a password (the user's tokens stop working); a
                              deactivated account still cannot log in until reactivate-user
  deactivate-user --username U
                              hide the user from lists, refuse logins, revoke tokens
  reactivate-user --username U
                              list the user again and allow their logins (old tokens stay revoked)
  close-signup                refuse sign-ups (POST /users answers 403) until reopened
  open-signup                 accept sign-ups again (unless the deployment sets SIGNUP=closed)
  feature-post --slug S [--off]
                              mark a published post as featured (or not, with --off)
  set-moderator --username U [--off]
                              make the user a moderator (or not, with --off): at once for new
                              logins, within seconds for the tokens the user holds
  restore-post --slug S       lift a moderator's removal of a post (a report resolved with
                              remove); it stays a draft until its author publishes it
  reindex [--writes-per-second N] [--restart]
                              rebuild the search index from the table, beside the running
                              API: resumes an unfinished rebuild unless --restart; writes at
                              most N postings a second (default REINDEX_WRITES_PER_SECOND or
                              500); shows its progress on standard error

Options:
  --password-stdin  read the password from standard input (one line), e.g. from a password
                    manager; --password P works too, but npm prints the command line, the
                    password with it, and the shell keeps it in its history
  --aws        use the real AWS endpoint and the AWS credentials of the environment (AWS_PROFILE
               or AWS_ACCESS_KEY_ID...), the table TABLE_NAME in the region AWS_REGION (the
               stack's; default us-east-1); without it the local emulator at DYNAMODB_ENDPOINT
               or http://127.0.0.1:$DYNAMODB_PORT (default 8000) is used
  -h, --help   show this text

Exit status: 0 done, 1 refused or failed, 2 bad usage.
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

/**
 * The password of create-user and set-password: from --password-stdin or --password, else asked
 * for (hidden, twice) when standard input is a terminal; undefined when none of these applies.
 */
async function password(values: { password?: string; 'password-stdin'?: boolean; 'no-password'?: boolean }): Promise<string | undefined> {
  if (values['password-stdin'] && values.password !== undefined) throw new UsageError('Give --password or --password-stdin, not both.');
  let given = values['password-stdin'] ? await readStdin() : values.password;
  if (given === undefined && !values['no-password'] && process.stdin.isTTY) {
    given = await promptHidden('Password: ');
    if (given.length > 0 && (await promptHidden('Password (again): ')) !== given) throw new AccountError('The two passwords differ; nothing was changed.');
  }
  if (given !== undefined && given.length === 0) throw new UsageError('The password may not be empty.');
  return given;
}

/** parseArgs lets a repeated option's last value win silently; the CLI refuses it instead. */
function refuseRepeats(tokens: { kind: string; name?: string; rawName?: string }[]): void {
  const seen = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== 'option' || token.name === undefined) continue;
    if (seen.has(token.name)) throw new UsageError(`${token.rawName ?? `--${token.name}`} is given more than once.`);
    seen.add(token.name);
  }
}

export async function run(argv: string[]): Promise<string> {
  const { values, positionals, tokens } = parseArgs({
    args: argv,
    allowPositionals: true,
    tokens: true,
    options: {
      aws: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      username: { type: 'string' },
      password: { type: 'string' },
      'password-stdin': { type: 'boolean' },
      'no-password': { type: 'boolean' },
      slug: { type: 'string' },
      off: { type: 'boolean' },
      'writes-per-second': { type: 'string' },
      restart: { type: 'boolean' },
    },
  });
  refuseRepeats(tokens);
  const [command, ...extra] = positionals;
  if (values.help) return USAGE;
  if (!command) throw new UsageError('No command given.');
  if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra[0]}".`);
  if (values.aws) useAwsEndpoint();
  else useDefaults({ DYNAMODB_ENDPOINT: localSettings().defaultDynamodbEndpoint });

  switch (command) {
    case 'create-user': {
      const username = required(values.username, '--username');
      const secret = await password(values);
      if ((secret === undefined) === !values['no-password']) {
        throw new UsageError('Give exactly one of --password-stdin, --password or --no-password (or run it at a terminal to be asked).');
      }
      const user = await createUser(username, secret ?? null);
      return `Created user "${user.username}" (id ${user.id})${secret === undefined ? ' without a password' : ''} in table ${tableName()}.`;
    }
    case 'set-password': {
      const username = required(values.username, '--username');
      const secret = await password(values);
      if (values['no-password']) throw new UsageError('--no-password is an option of create-user only.');
      if (secret === undefined) throw new UsageError('--password-stdin or --password is required (or run it at a terminal to be asked).');
      const { active } = await setPassword(username, secret);
      if (!active) {
        return `Password set for "${username}", but the account is deactivated: its logins stay refused until \`npm run admin -- reactivate-user --username ${username}\`.`;
      }
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
        const post = await setFeatured(slug, !values.off, { refuseDrafts: true });
        return `Post "${post.slug}" is ${post.is_featured ? 'featured' : 'not featured'}${post.publish ? '' : ' (it is a draft)'}.`;
      } catch (error) {
        if (error instanceof NotFound) throw new AccountError(`There is no post "${slug}".`);
        if (error instanceof DraftNotFeatured) throw new AccountError(error.message);
        throw error;
      }
    }
    case 'set-moderator': {
      const username = required(values.username, '--username');
      await setModerator(username, !values.off);
      return `"${username}" is ${values.off ? 'no longer a moderator' : 'a moderator'}.`;
    }
    case 'restore-post': {
      const slug = required(values.slug, '--slug');
      try {
        const restored = await restorePost(slug);
        return restored
          ? `Post "${slug}" is restored: its author may publish it again (it stays a draft until then).`
          : `Post "${slug}" was not removed by a moderator; nothing changed.`;
      } catch (error) {
        if (error instanceof NotFound) throw new AccountError(`There is no post "${slug}".`);
        throw error;
      }
    }
    case 'reindex': {
      const given = values['writes-per-second'];
      if (given !== undefined && !/^[1-9]\d{0,6}$/.test(given)) throw new UsageError('--writes-per-second must be a whole number from 1 to 9999999.');
      const writesPerSecond = given === undefined ? reindexWritesPerSecond(DEFAULT_REINDEX_WRITES_PER_SECOND) : Number(given);
      const reporter = progressReporter();
      try {
        const done = await reindex({ writesPerSecond, restart: values.restart === true, onProgress: reporter.report });
        return `Rebuilt the search index of table ${tableName()} (in ${searchTableName()}): ${done.posts.toLocaleString('en')} posts, ${done.postingsWritten.toLocaleString('en')} postings written, ${done.postingsDeleted.toLocaleString('en')} stale ones deleted.`;
      } finally {
        reporter.end();
      }
    }
    default:
      throw new UsageError(`Unknown command "${command}".`);
  }
}

export function describeFailure(error: unknown): string {
  const name = (error as { name?: string }).name ?? '';
  if (name === 'CredentialsProviderError') {
    return (
      'No AWS credentials were found for --aws. Give the environment some, e.g. AWS_PROFILE=NAME (after `aws configure` or ' +
      "`aws sso login --profile NAME`) or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, with AWS_REGION set to the stack's region " +
      `(now ${awsRegion()}). Check them with \`aws sts get-caller-identity\`.`
    );
  }
  if (name === 'ResourceNotFoundException')
    return `The table "${tableName()}" does not exist at this endpoint. Start the local stack with \`npm start\` or set TABLE_NAME.`;
  const code = (error as { code?: string; cause?: { code?: string } }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  if (code === 'ECONNREFUSED' || name === 'TimeoutError') {
    return `Cannot reach DynamoDB at ${dynamodbEndpoint() ?? 'AWS'}. Is \`npm start\` running?`;
  }
  return error instanceof Error ? error.message : String(error);
}

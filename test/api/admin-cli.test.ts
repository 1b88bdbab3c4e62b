import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { childEnvironment } from '../../scripts/local/settings.ts';
import { unique } from '../support/api.ts';
import { ADMIN_COMMAND, ROOT, runAdmin, type CliResult } from '../support/admin-cli.ts';
import { useApi } from '../support/fixture.ts';

// The administrator CLI, run as an operator would: a separate process against the same table.

const BAD_CREDENTIALS = { non_field_errors: ['Unable to log in with provided credentials.'] };

const api = useApi();

function admin(args: string[], stdin?: string, env: NodeJS.ProcessEnv = childEnvironment({ TABLE_NAME: api.table })): Promise<CliResult> {
  return runAdmin(args, env, stdin);
}

function login(username: string, password: string) {
  return api.client().post('/login', { json: { username, password } });
}

describe('admin CLI', () => {
  it('--help lists the commands; bad usage exits 2 with the usage text', async () => {
    const [help, unknownCommand, missingUsername, missingPasswordChoice] = await Promise.all([
      admin(['--help']),
      admin(['frobnicate']),
      admin(['create-user', '--password', 'x']),
      admin(['create-user', '--username', unique('nochoice')]),
    ]);

    expect(help.code).toBe(0);
    for (const command of ['create-user', 'set-password', 'deactivate-user', 'reactivate-user', 'close-signup', 'open-signup', 'feature-post']) {
      expect(help.stdout).toContain(command);
    }
    expect(help.stdout).toContain('Usage:');

    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr).toContain('Unknown command "frobnicate".');
    expect(unknownCommand.stderr).toContain('Usage:');

    expect(missingUsername.code).toBe(2);
    expect(missingUsername.stderr).toContain('--username is required.');
    expect(missingUsername.stderr).toContain('Usage:');

    expect(missingPasswordChoice.code).toBe(2);
    expect(missingPasswordChoice.stderr).toContain('--password');
  });

  it('exits 2 without a command, on a repeated option and on contradictory password options, changing nothing', async () => {
    const user = await api.user('repeat');
    const [none, repeated, both, stray] = await Promise.all([
      admin([]),
      admin(['set-password', '--username', user.username, '--password', 'first choice', '--password', 'second choice']),
      admin(['set-password', '--username', user.username, '--password', 'first choice', '--password-stdin'], 'second choice\n'),
      admin(['deactivate-user', user.username]),
    ]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('No command given.');
    expect(none.stderr).toContain('Usage:');
    expect(repeated.code).toBe(2);
    expect(repeated.stderr).toContain('--password is given more than once.');
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('Give --password or --password-stdin, not both.');
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain(`Unexpected argument "${user.username}".`);
    expect((await login(user.username, user.password)).status).toBe(200);
    expect((await user.api.get('/auth')).status).toBe(200);
  });

  it('asks for the password at a terminal, without echoing it, twice', async () => {
    const username = unique('cliprompt');
    // `script` gives the CLI a terminal; the answers are typed once each prompt is shown.
    const command = `${ADMIN_COMMAND.join(' ')} create-user --username ${username}`;
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      cwd: ROOT,
      env: childEnvironment({ TABLE_NAME: api.table }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    const prompts: string[] = [];
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      for (const prompt of ['Password: ', 'Password (again): ']) {
        if (output.includes(prompt) && !prompts.includes(prompt)) {
          prompts.push(prompt);
          child.stdin.write('typed secret 1\r');
        }
      }
    });
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(code, output).toBe(0);
    expect(prompts).toEqual(['Password: ', 'Password (again): ']);
    expect(output).toMatch(new RegExp(`Created user "${username}"`));
    expect(output).not.toContain('typed secret');
    expect((await login(username, 'typed secret 1')).status).toBe(200);
  });

  it('prints no AWS SDK Node.js version warning', async () => {
    const env = childEnvironment({ TABLE_NAME: api.table });
    delete env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
    const result = await admin(['deactivate-user', '--username', unique('nobody')], undefined, env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('There is no user');
    expect(result.stderr).not.toContain('NodeVersionSupportWarning');
  });

  it('--aws without AWS credentials says what to set', async () => {
    const env = childEnvironment({
      TABLE_NAME: api.table,
      AWS_REGION: 'eu-west-1',
      AWS_CONFIG_FILE: '/nonexistent/config',
      AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/credentials',
      AWS_EC2_METADATA_DISABLED: 'true',
    });
    for (const name of [
      'AWS_ACCESS_KEY_ID',
      'AWS_SECRET_ACCESS_KEY',
      'AWS_SESSION_TOKEN',
      'AWS_PROFILE',
      'AWS_CONTAINER_CREDENTIALS_FULL_URI',
      'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI',
      'AWS_WEB_IDENTITY_TOKEN_FILE',
    ]) {
      delete env[name];
    }
    const result = await admin(['--aws', 'close-signup'], undefined, env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('No AWS credentials were found for --aws.');
    expect(result.stderr).toContain("AWS_REGION set to the stack's region (now eu-west-1)");
  });

  it('create-user with --password, --password-stdin and --no-password; set-password', async () => {
    const withPassword = unique('clipw');
    const withStdin = unique('clistdin');
    const thirdParty = unique('clisocial');
    const [created, fromStdin, noPassword] = await Promise.all([
      admin(['create-user', '--username', withPassword, '--password', 'first secret']),
      admin(['create-user', '--username', withStdin, '--password-stdin'], 'stdin secret\n'),
      admin(['create-user', '--username', thirdParty, '--no-password']),
    ]);

    for (const result of [created, fromStdin, noPassword]) expect(result.code, result.stderr).toBe(0);
    expect(created.stdout).toMatch(new RegExp(`Created user "${withPassword}" \\(id \\d+\\)`));
    expect(noPassword.stdout).toContain('without a password');
    const ids = [created, fromStdin, noPassword].map((r) => Number(/\(id (\d+)\)/.exec(r.stdout)![1]));
    for (const id of ids) expect(id).toBeGreaterThan(0);
    expect(new Set(ids).size).toBe(3);

    // --password: login works, and /auth reports the id the CLI printed.
    const first = await login(withPassword, 'first secret');
    expect(first.status).toBe(200);
    const auth = await api.client(first.body.token).get('/auth');
    expect(auth.body).toEqual({ id: ids[0], token: first.body.token, username: withPassword, is_moderator: false });

    // --password-stdin: the trailing newline is not part of the password.
    expect((await login(withStdin, 'stdin secret')).status).toBe(200);
    expect((await login(withStdin, 'stdin secret\n')).status).toBe(400);

    // --no-password: cannot log in, whatever is tried.
    for (const password of ['null', 'None', 'anything', ' ']) {
      const refused = await login(thirdParty, password);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual(BAD_CREDENTIALS);
    }

    // set-password makes the third-party account usable; a second set-password (from stdin) on the
    // first account replaces its password and revokes its existing tokens.
    const [setThirdParty, reset] = await Promise.all([
      admin(['set-password', '--username', thirdParty, '--password', 'now a password']),
      admin(['set-password', '--username', withPassword, '--password-stdin'], 'second secret\n'),
    ]);
    expect(setThirdParty.code, setThirdParty.stderr).toBe(0);
    expect(reset.code, reset.stderr).toBe(0);
    expect((await login(thirdParty, 'now a password')).status).toBe(200);

    expect((await login(withPassword, 'first secret')).body).toEqual(BAD_CREDENTIALS);
    expect((await login(withPassword, 'second secret')).status).toBe(200);
    const revoked = await api.client(first.body.token).get('/auth');
    expect(revoked.status).toBe(401);
    expect(revoked.body).toEqual({ detail: 'Invalid token.' });
  });

  it('refuses a taken username and unknown users with a clear message', async () => {
    const existing = await api.user('taken');
    const nobody = unique('ghost');
    const [taken, otherCase, setUnknown, deactivateUnknown] = await Promise.all([
      admin(['create-user', '--username', existing.username, '--password', 'other password']),
      admin(['create-user', '--username', existing.username.toUpperCase(), '--password', 'other password']),
      admin(['set-password', '--username', nobody, '--password', 'whatever']),
      admin(['deactivate-user', '--username', nobody]),
    ]);

    expect(taken.code).not.toBe(0);
    expect(taken.stderr).toContain(`The username "${existing.username}" is already taken.`);
    // Usernames are unique regardless of case, for the administrator as for sign-up.
    expect(otherCase.code).not.toBe(0);
    expect(otherCase.stderr).toContain(`The username "${existing.username.toUpperCase()}" is already taken.`);
    expect((await existing.api.get(`/users/detail/${existing.username.toUpperCase()}`)).status).toBe(404);
    expect(setUnknown.code).not.toBe(0);
    expect(setUnknown.stderr).toContain(`There is no user "${nobody}".`);
    expect(deactivateUnknown.code).not.toBe(0);
    expect(deactivateUnknown.stderr).toContain(`There is no user "${nobody}".`);

    // The existing account is untouched; the unknown one was not created.
    expect((await login(existing.username, existing.password)).status).toBe(200);
    expect((await login(existing.username, 'other password')).status).toBe(400);
    expect((await existing.api.get('/auth')).status).toBe(200);
    expect((await existing.api.get(`/users/detail/${nobody}`)).status).toBe(404);
    expect((await login(nobody, 'whatever')).status).toBe(400);
  });

  it('deactivate-user hides the user from the list, refuses logins and revokes tokens; the profile stays readable', async () => {
    const viewer = await api.user('watcher');
    const target = await api.user('leaving');
    const before = await viewer.api.get('/users');
    expect(before.body.map((p: any) => p.user)).toContain(target.username);

    const result = await admin(['deactivate-user', '--username', target.username]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(target.username);

    const after = await viewer.api.get('/users');
    expect(after.status).toBe(200);
    expect(after.body.map((p: any) => p.user)).not.toContain(target.username);
    expect(after.body.map((p: any) => p.user)).toContain(viewer.username);
    const profile = await viewer.api.get(`/users/detail/${target.username}`);
    expect(profile.status).toBe(200);
    expect(profile.body.user).toBe(target.username);

    const refused = await login(target.username, target.password);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(BAD_CREDENTIALS);

    const token = await target.api.get('/auth');
    expect(token.status).toBe(401);
    expect(token.body).toEqual({ detail: 'Invalid token.' });
  });

  it('feature-post marks a post featured and --off unmarks it; an unknown slug fails', async () => {
    const author = await api.user('featured');
    const created = await author.api.post('/posts', { form: { title: unique('Feature me '), description: 'body', publish: 'true' } });
    expect(created.status).toBe(201);
    const slug: string = created.body.slug;
    expect(created.body.is_featured).toBe(false);

    const state = async () => {
      const [detail, featured, profile] = await Promise.all([
        author.api.get(`/posts/detail/${slug}`),
        author.api.get('/posts', { query: { sort: 'featured' } }),
        author.api.get(`/users/detail/${author.username}`),
      ]);
      expect(detail.status).toBe(200);
      expect(featured.status).toBe(200);
      return {
        isFeatured: detail.body.is_featured,
        listed: featured.body.map((p: any) => p.slug).includes(slug),
        count: profile.body.total_featured_posts,
      };
    };
    expect(await state()).toEqual({ isFeatured: false, listed: false, count: 0 });

    const on = await admin(['feature-post', '--slug', slug]);
    expect(on.code, on.stderr).toBe(0);
    expect(on.stdout).toContain(slug);
    expect(await state()).toEqual({ isFeatured: true, listed: true, count: 1 });

    const missing = unique('no-such-post-');
    const [off, unknown] = await Promise.all([admin(['feature-post', '--slug', slug, '--off']), admin(['feature-post', '--slug', missing])]);
    expect(off.code, off.stderr).toBe(0);
    expect(await state()).toEqual({ isFeatured: false, listed: false, count: 0 });

    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain(`There is no post "${missing}".`);
  });

  it('feature-post refuses a draft, which nobody but its author would see featured', async () => {
    const author = await api.user('drafter');
    const created = await author.api.post('/posts', { form: { title: unique('Draft '), description: 'body', publish: 'false' } });
    expect(created.status).toBe(201);
    const slug: string = created.body.slug;
    const refused = await admin(['feature-post', '--slug', slug]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`The post "${slug}" is a draft: publish it before featuring it.`);
    expect((await author.api.get(`/posts/detail/${slug}`)).body.is_featured).toBe(false);
    expect((await author.api.get(`/users/detail/${author.username}`)).body.total_featured_posts).toBe(0);
  });

  it('set-moderator makes a user a moderator, their held token too, and --off undoes it; an unknown user fails', async () => {
    const user = await api.user('climod');
    const on = await admin(['set-moderator', '--username', user.username]);
    expect(on.code, on.stderr).toBe(0);
    expect(on.stdout).toContain(`"${user.username}" is a moderator.`);
    expect((await user.api.get('/auth')).body.is_moderator).toBe(true);
    expect((await user.api.get('/reports')).status).toBe(200);
    const off = await admin(['set-moderator', '--username', user.username, '--off']);
    expect(off.code, off.stderr).toBe(0);
    expect((await user.api.get(`/users/detail/${user.username}`)).body.is_moderator).toBe(false);
    expect((await user.api.get('/reports')).status).toBe(403);
    const unknown = await admin(['set-moderator', '--username', unique('nobody')]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('There is no user');
    expect((await admin(['set-moderator'])).code).toBe(2);
  });

  it("restore-post lifts a moderator's removal, leaving a draft its author publishes again; an unknown slug fails", async () => {
    const [author, reporter, moderator] = await Promise.all([api.user('cliremoved'), api.user('clireporter'), api.user('climoderator')]);
    expect((await admin(['set-moderator', '--username', moderator.username])).code).toBe(0);
    const created = await author.api.post('/posts', { form: { title: unique('Removed '), description: 'body', publish: 'true' } });
    const slug: string = created.body.slug;
    const report = await reporter.api.post(`/posts/detail/${slug}/report`, { json: { reason: 'spam' } });
    expect((await moderator.api.post(`/reports/detail/${report.body.id}/resolve`, { json: { action: 'remove' } })).status).toBe(200);
    expect((await author.api.put(`/posts/detail/${slug}`, { form: { publish: 'true' } })).status).toBe(403);
    const restored = await admin(['restore-post', '--slug', slug]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toContain(`Post "${slug}" is restored`);
    expect((await author.api.get(`/posts/detail/${slug}`)).body.publish).toBe(false);
    expect((await author.api.put(`/posts/detail/${slug}`, { form: { publish: 'true' } })).status).toBe(200);
    const missing = unique('no-such-post-');
    const unknown = await admin(['restore-post', '--slug', missing]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`There is no post "${missing}".`);
  });

  it('reactivate-user lists the user again and allows their logins; an unknown user fails', async () => {
    const user = await api.user('cliback');
    const deactivated = await admin(['deactivate-user', '--username', user.username]);
    expect(deactivated.code, deactivated.stderr).toBe(0);
    expect((await login(user.username, user.password)).body).toEqual(BAD_CREDENTIALS);

    const [back, unknown] = await Promise.all([
      admin(['reactivate-user', '--username', user.username]),
      admin(['reactivate-user', '--username', unique('nobody')]),
    ]);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toContain(`Reactivated "${user.username}".`);
    const relogged = await login(user.username, user.password);
    expect(relogged.status).toBe(200);
    // The token revoked by the deactivation stays revoked.
    expect((await user.api.get('/auth')).status).toBe(401);
    const list = await api.client(relogged.body.token).get('/users');
    expect(list.body.map((profile: { user: string }) => profile.user)).toContain(user.username);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('There is no user');
  });

  it('set-password on a deactivated user says that logins stay refused until reactivate-user', async () => {
    const user = await api.user('clidormant');
    expect((await admin(['deactivate-user', '--username', user.username])).code).toBe(0);
    const set = await admin(['set-password', '--username', user.username, '--password-stdin'], 'a new secret\n');
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain(
      `Password set for "${user.username}", but the account is deactivated: its logins stay refused until \`npm run admin -- reactivate-user --username ${user.username}\`.`,
    );
    expect((await login(user.username, 'a new secret')).body).toEqual(BAD_CREDENTIALS);
    expect((await admin(['reactivate-user', '--username', user.username])).code).toBe(0);
    expect((await login(user.username, 'a new secret')).status).toBe(200);
  });

  it('close-signup and open-signup close and reopen POST /users at run time', async () => {
    const closed = await admin(['close-signup']);
    expect(closed.code, closed.stderr).toBe(0);
    expect(closed.stdout).toContain('Sign-up is closed');
    const refused = await api.client().post('/users', { json: { username: unique('cli'), password: 'correct horse battery' } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: 'Sign-up is closed.' });

    const opened = await admin(['open-signup']);
    expect(opened.code, opened.stderr).toBe(0);
    expect(opened.stdout).toContain('Sign-up is open');
    expect((await api.client().post('/users', { json: { username: unique('cli'), password: 'correct horse battery' } })).status).toBe(201);
  });
});

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The admin CLI (scripts/admin.ts) run as an operator runs it: a process of its own, as `npm run
// admin` starts it (`node --import tsx`: one process; the tsx command would start two).

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The command line of `npm run admin`, without its arguments. */
export const ADMIN_COMMAND = [process.execPath, '--import', 'tsx', 'scripts/admin.ts'];

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npm run admin -- <args>` with `env`, `stdin` on its standard input; resolves when it exits. */
export function runAdmin(args: string[], env: NodeJS.ProcessEnv, stdin = ''): Promise<CliResult> {
  return new Promise((done, fail) => {
    const [node, ...adminArgs] = ADMIN_COMMAND;
    const child = spawn(node!, [...adminArgs, ...args], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

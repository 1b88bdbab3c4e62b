import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LocalFunction } from './deployment.ts';
import type { FunctionRuntime, InvokeOutcome } from './function-runtime.ts';

// The bundles from cdk.out, run as Lambda runs them: each bundle copied out of the repository (no
// node_modules to fall back on), each instance a process of its own (scripts/local/lambda-runtime.mjs)
// on the chosen Node.js, with the environment the template gives the function plus what Lambda
// adds, and the function's own credentials, which the IAM guard checks against its role. An
// instance serves one invocation at a time; a request that finds every instance busy starts
// another (a cold start), as Lambda scales out, up to `maxInstances` per function: past that it
// waits for one (a machine with two cores gains nothing from forty processes starting at once).

const RUNTIME_SCRIPT = fileURLToPath(new URL('./lambda-runtime.mjs', import.meta.url));
/** Lambda's default; the template sets each function's own. */
const DEFAULT_TIMEOUT_SECONDS = 3;

export interface BundleRuntimeOptions {
  /** The Node.js binary to run bundles on (Lambda's nodejs22.x); default: this one. */
  node?: string;
  /** The IAM guard's endpoint: the functions' DynamoDB. */
  guardUrl: string;
  region: string;
  /** Where the functions' own output (their logs) goes. */
  output: 'inherit' | 'ignore';
  /** Instances per function at most; default 4. */
  maxInstances?: number;
}

interface Pool {
  idle: Instance[];
  size: number;
  waiting: ((instance: Instance) => void)[];
}

/** What an instance sends back (lambda-runtime.mjs). */
type RuntimeMessage =
  | { ready: true }
  | { initError: { errorType: string; errorMessage: string } }
  | { id: number; payload: string }
  | { id: number; error: { errorType: string; errorMessage: string } };

interface Instance {
  child: ChildProcess;
  ready: Promise<void>;
  /** Exited, or being stopped: never handed out again. */
  dead: boolean;
}

/**
 * The X-Ray trace header Lambda gives each invocation (_X_AMZN_TRACE_ID), not sampled: a function
 * bundled with tracing on (`-c tracing=true`) runs as in Lambda and sends no trace.
 */
function localTraceId(): string {
  const epoch = Math.floor(Date.now() / 1000)
    .toString(16)
    .padStart(8, '0');
  return `Root=1-${epoch}-${randomBytes(12).toString('hex')};Parent=${randomBytes(8).toString('hex')};Sampled=0`;
}

export class BundleRuntime implements FunctionRuntime {
  private readonly root = mkdtempSync(join(tmpdir(), 'community-posts-lambda-'));
  private readonly copied = new Set<string>();
  private readonly pools = new Map<string, Pool>();
  private readonly all = new Set<Instance>();
  private readonly pending = new Map<number, (outcome: InvokeOutcome) => void>();
  private nextId = 1;

  constructor(private readonly options: BundleRuntimeOptions) {}

  /** The function's task root: its bundle, copied out of the repository once. */
  private taskRoot(fn: LocalFunction): string {
    if (fn.code.kind !== 'bundle') throw new Error(`${fn.name} is not a bundled function`);
    const target = join(this.root, fn.name);
    if (!this.copied.has(fn.name)) {
      cpSync(fn.code.directory, target, { recursive: true });
      this.copied.add(fn.name);
    }
    return target;
  }

  private start(fn: LocalFunction): Instance {
    if (fn.code.kind !== 'bundle') throw new Error(`${fn.name} is not a bundled function`);
    const root = this.taskRoot(fn);
    const functionName = `CommunityPosts-${fn.name}`;
    const child = fork(RUNTIME_SCRIPT, [], {
      cwd: root,
      execPath: this.options.node ?? process.execPath,
      execArgv: [],
      stdio: ['ignore', this.options.output, this.options.output, 'ipc'],
      env: {
        // What the template sets, then what Lambda adds
        // (https://docs.aws.amazon.com/lambda/latest/dg/configuration-envvars.html#configuration-envvars-runtime).
        ...fn.environment,
        _HANDLER: `${fn.code.file.replace(/\.m?js$/, '')}.${fn.code.export}`,
        LAMBDA_TASK_ROOT: root,
        AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
        AWS_LAMBDA_FUNCTION_NAME: functionName,
        AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
        AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memorySize ?? 128),
        AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
        AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${functionName}`,
        AWS_REGION: this.options.region,
        AWS_DEFAULT_REGION: this.options.region,
        TZ: ':UTC',
        LANG: 'en_US.UTF-8',
        PATH: '/usr/local/bin:/usr/bin:/bin',
        // The role's session: the guard knows the function by its access key.
        AWS_ACCESS_KEY_ID: fn.name,
        AWS_SECRET_ACCESS_KEY: 'local',
        AWS_SESSION_TOKEN: 'local',
        // The one local addition: DynamoDB is the IAM guard in front of DynamoDB Local.
        DYNAMODB_ENDPOINT: this.options.guardUrl,
      },
    });
    const ready = new Promise<void>((done, fail) => {
      child.once('exit', (code) => fail(new Error(`${fn.name} exited with code ${code} while starting`)));
      child.on('message', (message: RuntimeMessage) => {
        if ('ready' in message) done();
        else if ('initError' in message) fail(new Error(`${fn.name} failed to start: ${message.initError.errorMessage}`));
        else this.settle(message.id, 'payload' in message ? { payload: message.payload } : { error: message.error });
      });
    });
    ready.catch(() => undefined);
    const instance: Instance = { child, ready, dead: false };
    this.all.add(instance);
    child.once('exit', () => {
      instance.dead = true;
      this.all.delete(instance);
    });
    return instance;
  }

  private stop(instance: Instance): void {
    instance.dead = true;
    instance.child.kill();
  }

  private settle(id: number, outcome: InvokeOutcome): void {
    this.pending.get(id)?.(outcome);
  }

  async invoke(fn: LocalFunction, event: object, requestId: string): Promise<InvokeOutcome> {
    const instance = await this.acquire(fn);
    try {
      await instance.ready;
    } catch (error) {
      this.stop(instance);
      this.release(fn, instance);
      return { error: { errorType: 'Runtime.ImportModuleError', errorMessage: (error as Error).message } };
    }
    const outcome = await this.call(instance, fn, event, requestId);
    this.release(fn, instance);
    return outcome;
  }

  /** An idle instance, a new one, or the next one to come free. */
  private acquire(fn: LocalFunction): Promise<Instance> {
    let pool = this.pools.get(fn.name);
    if (!pool) this.pools.set(fn.name, (pool = { idle: [], size: 0, waiting: [] }));
    const idle = pool.idle.pop();
    if (idle) return Promise.resolve(idle);
    if (pool.size < (this.options.maxInstances ?? 4)) {
      pool.size += 1;
      return Promise.resolve(this.start(fn));
    }
    return new Promise((resolve) => pool.waiting.push(resolve));
  }

  private release(fn: LocalFunction, instance: Instance): void {
    const pool = this.pools.get(fn.name)!;
    const next = instance.dead ? undefined : instance;
    if (!next) pool.size -= 1;
    const waiter = pool.waiting.shift();
    if (!waiter) {
      if (next) pool.idle.push(next);
      return;
    }
    if (next) return waiter(next);
    pool.size += 1;
    waiter(this.start(fn));
  }

  /** One invocation on one instance: its answer, its error, its crash or its timeout. */
  private call(instance: Instance, fn: LocalFunction, event: object, requestId: string): Promise<InvokeOutcome> {
    const id = this.nextId++;
    const timeoutMs = (fn.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000;
    return new Promise((resolve) => {
      const finish = (outcome: InvokeOutcome) => {
        clearTimeout(timer);
        instance.child.off('exit', exited);
        this.pending.delete(id);
        resolve(outcome);
      };
      const exited = () => finish({ error: { errorType: 'Runtime.ExitError', errorMessage: `${fn.name} exited` } });
      // A timed-out instance is stopped, as Lambda stops it.
      const timer = setTimeout(() => {
        this.stop(instance);
        finish({ error: { errorType: 'Sandbox.Timedout', errorMessage: `Task timed out after ${timeoutMs / 1000} seconds` } });
      }, timeoutMs);
      instance.child.once('exit', exited);
      this.pending.set(id, finish);
      instance.child.send({ id, event, requestId, deadline: Date.now() + timeoutMs, traceId: localTraceId() }, (error) => {
        if (error) finish({ error: { errorType: 'Runtime.Error', errorMessage: error.message } });
      });
    });
  }

  async close(): Promise<void> {
    const exits = [...this.all].map(
      (instance) =>
        new Promise<void>((done) => {
          if (instance.child.exitCode !== null || instance.child.signalCode !== null) return done();
          instance.child.once('exit', () => done());
          instance.child.kill();
        }),
    );
    await Promise.all(exits);
    this.pools.clear();
    rmSync(this.root, { recursive: true, force: true });
  }
}

import { Agent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { accessDeniedBody, deniedPermission, requiredPermissions, signedAs, signingAccessKey, type Permission, type PolicyStatement } from './iam-policy.ts';
import { readRequestBody } from './request-body.ts';

// A proxy in front of DynamoDB Local that enforces each Lambda function's role policy, as
// DynamoDB does on AWS: the caller is the access key of its SigV4 signature (each local function
// signs with its own, as each deployed function signs with its role's session), and a request
// needing an action or resource the role's policy lacks gets DynamoDB's 400
// AccessDeniedException and never reaches the table. Only functions talk to the guard: an access
// key it does not know has no permission at all.
//
// What it lets through it signs again with the stack's own access key (the one the local tools,
// admin CLI and seed sign with): a DynamoDB Local started without -sharedDb keeps a database per
// access key, and the functions' keys would each open an empty one. The function's key has done
// its part by then, naming the caller whose policy was checked.

export interface Denial {
  identity: string;
  operation: string;
  permission: Permission;
}

export interface IamGuard {
  /** The endpoint functions use in place of DynamoDB's. */
  url: string;
  /** Every request refused so far. */
  readonly denials: Denial[];
  /** The permissions each function has used so far (action and resource), by access key. */
  readonly used: ReadonlyMap<string, ReadonlySet<string>>;
  close(): Promise<void>;
}

export interface IamGuardOptions {
  /** DynamoDB Local's endpoint. */
  upstream: string;
  /** Each function's role policy, by the access key the function signs with. */
  policies: ReadonlyMap<string, readonly PolicyStatement[]>;
  /** The access key every request let through reaches DynamoDB Local with: the tools' (one database). */
  upstreamAccessKeyId: string;
  region: string;
  /** Called on every refusal (npm start prints it). */
  onDenial?: (denial: Denial) => void;
}

export function startIamGuard(options: IamGuardOptions): Promise<IamGuard> {
  const upstream = new URL(options.upstream);
  const agent = new Agent({ keepAlive: true });
  const denials: Denial[] = [];
  const used = new Map<string, Set<string>>();
  const record = (identity: string, needed: Permission[]) => {
    const set = used.get(identity) ?? new Set<string>();
    for (const permission of needed) set.add(`${permission.action} ${permission.resource}`);
    used.set(identity, set);
  };

  const refuse = (response: ServerResponse, denial: Denial) => {
    denials.push(denial);
    options.onDenial?.(denial);
    const principal = `arn:aws:sts::000000000000:assumed-role/${denial.identity}/${denial.identity}`;
    response.writeHead(400, { 'Content-Type': 'application/x-amz-json-1.0', 'x-amzn-RequestId': crypto.randomUUID() });
    response.end(accessDeniedBody(principal, denial.permission));
  };

  const forward = (request: IncomingMessage, response: ServerResponse, body: Buffer) => {
    const outgoing = httpRequest(
      {
        agent,
        hostname: upstream.hostname,
        port: upstream.port,
        path: request.url,
        method: request.method,
        headers: {
          ...request.headers,
          host: upstream.host,
          ...(request.headers.authorization ? { authorization: signedAs(request.headers.authorization, options.upstreamAccessKeyId) } : {}),
        },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    // DynamoDB Local gone or the connection reset: the caller sees a dropped connection, as it would.
    outgoing.on('error', () => response.destroy());
    outgoing.end(body);
  };

  const server = createServer((request, response) => {
    readRequestBody(request)
      .then((body) => {
        if (body === 'too-large') return response.destroy(); // no limit is set: cannot happen
        const identity = signingAccessKey(request.headers.authorization) ?? 'anonymous';
        const operation =
          String(request.headers['x-amz-target'] ?? '')
            .split('.')
            .pop() ?? '';
        let parsed: Record<string, unknown> = {};
        try {
          parsed = JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;
        } catch {
          // DynamoDB rejects an unreadable body itself (SerializationException): let it.
        }
        const needed = requiredPermissions(operation, parsed, options.region);
        const denied = deniedPermission(options.policies.get(identity) ?? [], needed);
        if (denied) return refuse(response, { identity, operation, permission: denied });
        record(identity, needed);
        forward(request, response, body);
      })
      .catch(() => response.destroy());
  });
  server.keepAliveTimeout = 5000;

  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      done({
        url: `http://127.0.0.1:${port}`,
        denials,
        used,
        close: () =>
          new Promise<void>((closed) => {
            server.close(() => closed());
            server.closeAllConnections();
            agent.destroy();
          }),
      });
    });
  });
}

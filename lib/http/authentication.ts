import type middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { authenticate, presentedToken, type Authenticated as TokenRead } from '#lib/auth/authenticate.ts';
import type { Caller } from '#lib/auth/tokens.ts';
import { publicReads } from '#lib/config.ts';
import { batchGet, BatchResult } from '#lib/db/batch.ts';
import type { Key } from '#lib/db/keys.ts';
import type { ApiRequest } from './request.ts';

// Authentication before the handler. A route that needs a token declares what it reads along with
// it; this middleware makes that one read in middy's `before` and answers the 401 there, so no
// handler runs, reads or writes for a caller it does not know. A public read (docs/api.md,
// "Reading without an account") runs for a request without an Authorization header when the
// deployment allows it, with no caller: the same reads, without the token's.

export interface TokenReads<T, P> {
  /**
   * What both the reads and the handler work from (a parsed body), made once. A throw (an invalid
   * body) is answered after the token check, so a bad token is a 401 first, as DRF.
   */
  prepare?: (request: ApiRequest) => P;
  /** Items read in the token's BatchGetItem (one round trip for the token and the items). */
  reads?: (request: ApiRequest, prepared: P) => Key[];
  /** A read-only query sent in parallel with the token's GetItem (a list's page); discarded on a 401. */
  alongside?: (request: ApiRequest) => Promise<T>;
}

export interface Authenticated<T, P, C extends Caller | null = Caller> {
  /** null: an anonymous reader of a public read, who owns nothing. */
  caller: C;
  /** The result of `prepare`. */
  prepared: P;
  /** The items of `reads`. */
  read: BatchResult;
  /** The result of `alongside`. */
  alongside: T;
}

/** What the endpoint's middlewares hand on to the handler, on the Lambda context (as middy's own middlewares do). */
export interface EndpointContext extends Context {
  request?: ApiRequest;
  /** A body that could not be parsed: answered after the token check, so a bad token is a 401 first (as DRF). */
  deferred?: unknown;
  authenticated?: Authenticated<unknown, unknown, Caller | null>;
}

/** Runs `step`, turning a synchronous throw into a rejection. */
const attempt = <T>(step: () => Promise<T>): Promise<T> => new Promise<T>((resolve) => resolve(step()));

/** The items of `itemKeys` for a reader without a token, in one BatchGetItem (none without keys). */
async function readAnonymously(itemKeys: Key[]): Promise<TokenRead<null>> {
  return { caller: null, read: itemKeys.length > 0 ? await batchGet(itemKeys) : BatchResult.EMPTY };
}

/**
 * `anonymous`: the route is a public read, answered without a token when the deployment allows it
 * (PUBLIC_READS) and the request has no Authorization header at all; any header is checked as v1.
 */
export function authentication<T, P>(route: TokenReads<T, P>, { anonymous = false } = {}): middy.MiddlewareObj<unknown, unknown, Error, EndpointContext> {
  return {
    name: 'authentication',
    before: async ({ context }) => {
      const request = context.request!;
      const header = request.event.headers?.authorization;
      const anonymousRead = anonymous && header === undefined && publicReads();
      // No usable token: 401 without a DynamoDB call, whatever the route reads.
      const token = anonymousRead ? undefined : presentedToken(header);
      let prepared: P | undefined;
      let itemKeys: Key[] = [];
      if (context.deferred === undefined) {
        try {
          prepared = route.prepare?.(request);
          itemKeys = route.reads?.(request, prepared as P) ?? [];
        } catch (error) {
          context.deferred = error;
        }
      }
      const ready = context.deferred === undefined;
      const [auth, alongside] = await Promise.allSettled([
        token === undefined ? readAnonymously(itemKeys) : authenticate(token, itemKeys),
        ready && route.alongside ? attempt(() => route.alongside!(request)) : Promise.resolve(undefined as T),
      ]);
      if (auth.status === 'rejected') throw auth.reason;
      if (context.deferred !== undefined) throw context.deferred;
      if (alongside.status === 'rejected') throw alongside.reason;
      context.authenticated = { ...auth.value, prepared, alongside: alongside.value };
    },
  };
}

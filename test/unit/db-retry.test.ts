import {
  ConditionalCheckFailedException,
  InternalServerError,
  ProvisionedThroughputExceededException,
  RequestLimitExceeded,
  ResourceNotFoundException,
  TransactionCanceledException,
  TransactionConflictException,
} from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { cancellationReasons, resendBackoff, transientKind } from '#lib/db/retry.ts';
import { RetryableConflict } from '#lib/retry.ts';

// Which DynamoDB failures are worth another try (lib/db/retry.ts), on errors built as the SDK
// builds them: what the SDK's retries, the transaction resend and the 503 mapping share.

const $metadata = { httpStatusCode: 400 };
const named = (name: string, fields: Record<string, unknown> = {}) => Object.assign(new Error(name), { name, ...fields });

const cancelled = (...codes: (string | undefined)[]) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata,
    CancellationReasons: codes.map((code) => (code === undefined ? {} : { Code: code })),
  });

describe('transientKind', () => {
  it.each<[string, unknown]>([
    ['ProvisionedThroughputExceededException', new ProvisionedThroughputExceededException({ message: 'x', $metadata })],
    ['RequestLimitExceeded', new RequestLimitExceeded({ message: 'x', $metadata })],
    ['ThrottlingException', named('ThrottlingException', { $metadata })],
    ['TransactionInProgressException', named('TransactionInProgressException', { $metadata })],
    ['LimitExceededException', named('LimitExceededException', { $metadata })],
    ['any error answered with HTTP 429', named('Whatever', { $metadata: { httpStatusCode: 429 } })],
    ['an error the SDK marks as throttling', named('Whatever', { $retryable: { throttling: true } })],
  ])('is throttling for %s', (_, error) => {
    expect(transientKind(error)).toBe('throttling');
  });

  it.each<[string, unknown]>([
    ['InternalServerError', new InternalServerError({ message: 'x', $metadata: { httpStatusCode: 500 } })],
    ['ServiceUnavailable', named('ServiceUnavailable', { $metadata: { httpStatusCode: 503 } })],
    ['TimeoutError (the request timeout)', named('TimeoutError')],
    ['RequestTimeout', named('RequestTimeout')],
    ['RequestTimeoutException', named('RequestTimeoutException')],
    ['TransactionConflictException', new TransactionConflictException({ message: 'x', $metadata })],
    ['an HTTP 500 of any name', named('UnknownError', { $metadata: { httpStatusCode: 500 } })],
    ['an HTTP 599', named('UnknownError', { $metadata: { httpStatusCode: 599 } })],
    ...['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND'].map((code): [string, unknown] => [
      `a network error ${code}`,
      Object.assign(new Error(`connect ${code}`), { code }),
    ]),
  ])('is transient for %s', (_, error) => {
    expect(transientKind(error)).toBe('transient');
  });

  it('ranks throttling above a 5xx status', () => {
    expect(transientKind(named('ThrottlingException', { $metadata: { httpStatusCode: 500 } }))).toBe('throttling');
    expect(transientKind(named('InternalServerError', { $retryable: { throttling: true } }))).toBe('throttling');
  });

  it.each<[string, unknown]>([
    ['ConditionalCheckFailedException', new ConditionalCheckFailedException({ message: 'x', $metadata })],
    ['ResourceNotFoundException', new ResourceNotFoundException({ message: 'x', $metadata })],
    ['ValidationException', named('ValidationException', { $metadata })],
    ['AccessDeniedException', named('AccessDeniedException', { $metadata })],
    ['a cancelled transaction, whatever its reasons', cancelled('TransactionConflict')],
    ['a lost race (retried from its reads instead)', new RetryableConflict('version changed')],
    ['an HTTP 400', named('Whatever', { $metadata })],
    ['an HTTP 600', named('Whatever', { $metadata: { httpStatusCode: 600 } })],
    ['an SDK error not marked as throttling', named('Whatever', { $retryable: {} })],
    ['another network code', Object.assign(new Error('x'), { code: 'ERR_INVALID_URL' })],
    ['a plain Error', new Error('boom')],
    ['a string naming a throttling error', 'ThrottlingException'],
    ['null', null],
    ['undefined', undefined],
    ['a number', 503],
  ])('is null for %s', (_, error) => {
    expect(transientKind(error)).toBeNull();
  });
});

describe('cancellationReasons', () => {
  it("gives the reason codes of a cancelled transaction in the order of its writes, 'None' where a write has none", () => {
    expect(cancellationReasons(cancelled('None', 'ConditionalCheckFailed', 'None'))).toEqual(['None', 'ConditionalCheckFailed', 'None']);
    expect(cancellationReasons(cancelled('TransactionConflict', undefined))).toEqual(['TransactionConflict', 'None']);
    expect(cancellationReasons(new TransactionCanceledException({ message: 'x', $metadata }))).toEqual([]);
  });

  it('reads a plain object named as the SDK names the error', () => {
    expect(cancellationReasons({ name: 'TransactionCanceledException', CancellationReasons: [{ Code: 'ThrottlingError' }] })).toEqual(['ThrottlingError']);
  });

  it('is null for anything but a cancelled transaction', () => {
    for (const error of [
      new ConditionalCheckFailedException({ message: 'x', $metadata }),
      new TransactionConflictException({ message: 'x', $metadata }),
      new Error('x'),
      null,
      undefined,
      'TransactionCanceledException',
      {},
    ]) {
      expect(cancellationReasons(error), String(error)).toBeNull();
    }
  });
});

describe('resendBackoff', () => {
  it('resends after a conflict backoff when another transaction was in the way, throttled writes or not', () => {
    expect(resendBackoff(cancelled('None', 'TransactionConflict'))).toBe('conflict');
    expect(resendBackoff(cancelled('TransactionConflict', 'TransactionConflict'))).toBe('conflict');
    expect(resendBackoff(cancelled('ThrottlingError', 'TransactionConflict', undefined))).toBe('conflict');
  });

  it('resends after a throttling backoff when only throttling cancelled it', () => {
    expect(resendBackoff(cancelled('ThrottlingError'))).toBe('throttling');
    expect(resendBackoff(cancelled('None', 'ProvisionedThroughputExceeded'))).toBe('throttling');
    expect(resendBackoff(cancelled('ProvisionedThroughputExceeded', 'ThrottlingError', 'None'))).toBe('throttling');
  });

  it('does not resend when any write failed for a reason of its own', () => {
    expect(resendBackoff(cancelled('ConditionalCheckFailed'))).toBeNull();
    expect(resendBackoff(cancelled('TransactionConflict', 'ConditionalCheckFailed'))).toBeNull();
    expect(resendBackoff(cancelled('ThrottlingError', 'ItemCollectionSizeLimitExceeded'))).toBeNull();
    expect(resendBackoff(cancelled('ValidationError', 'None'))).toBeNull();
  });

  it('does not resend a transaction cancelled without a reason, nor anything that is not a cancelled transaction', () => {
    expect(resendBackoff(cancelled('None', 'None'))).toBeNull();
    expect(resendBackoff(cancelled())).toBeNull();
    expect(resendBackoff(new TransactionCanceledException({ message: 'x', $metadata }))).toBeNull();
    expect(resendBackoff(new TransactionConflictException({ message: 'x', $metadata }))).toBeNull();
    expect(resendBackoff(new ProvisionedThroughputExceededException({ message: 'x', $metadata }))).toBeNull();
    expect(resendBackoff(new Error('TransactionConflict'))).toBeNull();
    expect(resendBackoff(undefined)).toBeNull();
  });
});

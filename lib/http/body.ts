import type middy from '@middy/core';
import jsonBodyParser from '@middy/http-json-body-parser';
import urlencodeBodyParser from '@middy/http-urlencode-body-parser';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Input } from '#lib/validation.ts';
import { ParseError, PayloadTooLarge, UnsupportedMediaType, ValidationError } from '#lib/errors.ts';

export const MAX_BODY_BYTES = 1024 * 1024;

const JSON_TYPE = /^application\/(.+\+)?json($|;)/i;
const FORM_TYPE = /^application\/x-www-form-urlencoded($|;)/i;

const jsonParser = jsonBodyParser({ disableContentTypeError: true });
const formParser = urlencodeBodyParser({ disableContentTypeError: true });

type Request = Pick<middy.Request<APIGatewayProxyEventV2>, 'event'>;

export const EMPTY_BODY: Input = Object.freeze({ data: Object.freeze({}), form: false }) as Input;

function pythonTypeName(value: unknown): string {
  if (Array.isArray(value)) return 'list';
  if (value === null) return 'NoneType';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  return typeof value;
}

/**
 * Runs a middy body parser on a copy of the event that carries the canonical content type and the
 * body as text: media types are case-insensitive, but middy's parsers match them case-sensitively
 * and would silently leave a body sent as `Application/JSON` unparsed; and API Gateway sends form
 * bodies base64-encoded, which hides a malformed form from the urlencoded parser's check (it
 * compares the parse with the raw body). Returns the parsed body.
 */
async function parseWith(parser: { before?: (request: never) => unknown }, request: Request, contentType: string): Promise<unknown> {
  const { body, isBase64Encoded } = request.event;
  const text = isBase64Encoded ? Buffer.from(body ?? '', 'base64').toString('utf8') : body;
  const event = { ...request.event, body: text, isBase64Encoded: false, headers: { ...request.event.headers, 'content-type': contentType } };
  const copy = { ...request, event };
  await parser.before!(copy as never);
  return copy.event.body;
}

/**
 * The 400's detail for a body that is not JSON. The parser's own message quotes the start of the
 * body (a login's password, say), so only where it failed is kept, never the text.
 */
export function jsonParseDetail(parserMessage: string | undefined): string {
  const position = /\bposition (\d+)/.exec(parserMessage ?? '')?.[1];
  if (position !== undefined) return `JSON parse error - invalid JSON at character ${position}.`;
  if (/unexpected end/i.test(parserMessage ?? '')) return 'JSON parse error - unexpected end of input.';
  return 'JSON parse error - the body is not valid JSON.';
}

/**
 * Parses a body by its content type with middy's JSON or urlencoded parser. JSON and form are
 * accepted on every operation; any other type with a body is 415, a body over 1 MiB is 413.
 */
export async function parseBody(request: Request): Promise<Input> {
  const { event } = request;
  const raw = event.body;
  if (raw === undefined || raw === null || raw === '') return EMPTY_BODY;
  const size = event.isBase64Encoded ? Buffer.byteLength(raw, 'base64') : Buffer.byteLength(raw, 'utf8');
  if (size > MAX_BODY_BYTES) throw new PayloadTooLarge(MAX_BODY_BYTES);
  const contentType = event.headers?.['content-type'] ?? '';
  if (JSON_TYPE.test(contentType)) {
    let data: unknown;
    try {
      data = await parseWith(jsonParser, request, 'application/json');
    } catch (error) {
      throw new ParseError(jsonParseDetail((error as { cause?: { message?: string } }).cause?.message));
    }
    if (typeof data !== 'object' || data === null || Array.isArray(data)) {
      throw new ValidationError({
        non_field_errors: [`Invalid data. Expected a dictionary, but got ${pythonTypeName(data)}.`],
      });
    }
    return { data: data as Record<string, unknown>, form: false };
  }
  if (FORM_TYPE.test(contentType)) {
    let fields: Record<string, string | string[]>;
    try {
      fields = (await parseWith(formParser, request, 'application/x-www-form-urlencoded')) as Record<string, string | string[]>;
    } catch {
      throw new ParseError('Form parse error - malformed application/x-www-form-urlencoded body.');
    }
    // A repeated form field counts once, with its last value (as Django's QueryDict).
    const data = Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, Array.isArray(value) ? value[value.length - 1] : value]));
    return { data, form: true };
  }
  throw new UnsupportedMediaType(contentType);
}

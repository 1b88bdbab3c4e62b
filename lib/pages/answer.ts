import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/** The page function's answer to a function URL event (payload 2.0). */
export async function pageResult(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> {
  return { statusCode: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: `<!doctype html><title>${event.rawPath}</title>` };
}

import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { pageResult } from '#lib/pages/answer.ts';

/**
 * The site's pages (everything outside /api/ that is not a build file), behind CloudFront through
 * a function URL that only the distribution may call: the HTML of a post, a list, a tag or a
 * profile, the shell of the app's other pages, 301s, 404s, the sitemap and robots.txt.
 */
export const handler = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => pageResult(event);

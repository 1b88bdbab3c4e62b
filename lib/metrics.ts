import { Metrics } from '@aws-lambda-powertools/metrics';
import { SERVICE_NAME } from './log.ts';

// The process's CloudWatch metrics (Powertools Metrics, in the embedded metric format): the API's
// request log (lib/http/access-log.ts) and the stream consumer (lib/streams/consumer.ts) both add
// theirs here, and each publishes them through Powertools' logMetrics middleware in Lambda only.

export const METRICS_NAMESPACE = 'CommunityPosts';

/** The metrics of the process: namespace CommunityPosts, dimension service=community-posts. */
export const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME });

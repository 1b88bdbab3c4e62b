// CloudWatch metrics in the embedded metric format (EMF): one JSON line on stdout per record,
// which CloudWatch turns into metrics from the function's log; no API call, no IAM permission.
// The format: https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Embedded_Metric_Format_Specification.html

export type MetricUnit = 'Milliseconds' | 'Count';

export interface Metric {
  name: string;
  unit: MetricUnit;
  value: number;
}

/**
 * One EMF record: the metrics, each a top-level member, published under `namespace` with one
 * dimension set made of every member of `dimensions`.
 */
export function emfRecord(namespace: string, dimensions: Record<string, string>, metrics: Metric[], timestamp = Date.now()): Record<string, unknown> {
  return {
    _aws: {
      Timestamp: timestamp,
      CloudWatchMetrics: [{ Namespace: namespace, Dimensions: [Object.keys(dimensions)], Metrics: metrics.map(({ name, unit }) => ({ Name: name, Unit: unit })) }],
    },
    ...dimensions,
    ...Object.fromEntries(metrics.map(({ name, value }) => [name, value])),
  };
}

/** Writes the record as its own line: a console prefix would hide it from CloudWatch. */
export function publishMetrics(namespace: string, dimensions: Record<string, string>, metrics: Metric[]): void {
  if (metrics.length === 0) return;
  process.stdout.write(`${JSON.stringify(emfRecord(namespace, dimensions, metrics))}\n`);
}

import { DEFAULT_PUBLIC_CACHE_SECONDS, PUBLIC_CACHE_SECONDS_VARIABLE, PUBLIC_READS_VARIABLE } from '#lib/config.ts';

// The deploy settings of reading without an account and of shared caching (docs/api.md, "Reading
// without an account" and "Caching"), and the environment they give every API function, under the
// variables lib/config.ts reads. Free of the CDK, so that the local stack's description from
// source (scripts/local/deployment.ts) states the same environment as the template.

export interface PublicReadSettings {
  /** The published content answers requests without an Authorization header. */
  publicReads: boolean;
  /** The `s-maxage` of anonymous reads, in seconds (0: `public, no-cache`). */
  publicCacheSeconds: number;
}

/** Off, and the functions' own default: a deployment without these settings answers as v1. */
export const DEFAULT_PUBLIC_READS: PublicReadSettings = { publicReads: false, publicCacheSeconds: DEFAULT_PUBLIC_CACHE_SECONDS };

/** The variables of `settings`, as every API function gets them. */
export function publicReadsEnvironment(settings: PublicReadSettings): Record<string, string> {
  return {
    [PUBLIC_READS_VARIABLE]: String(settings.publicReads),
    [PUBLIC_CACHE_SECONDS_VARIABLE]: String(settings.publicCacheSeconds),
  };
}

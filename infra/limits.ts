import { LIMIT_SETTINGS, SIGNUP_VARIABLE, type LimitSetting } from '#lib/config.ts';

// The deploy settings of sign-up and of the abuse limits (docs/api.md, "Configuration that changes
// behaviour"), and the environment they give every API function, under the variables lib/config.ts
// reads. Free of the CDK, so that the local stack's description from source
// (scripts/local/deployment.ts) states the same environment as the template.

/**
 * `signup`: `closed` closes sign-up whatever the run-time setting says (SIGNUP). The limits, by
 * their names in LIMIT_SETTINGS: the failed logins per username and address, per address, per
 * username and their window in seconds; the sign-ups per address and their window.
 */
export interface LimitsSettings extends Record<LimitSetting, number> {
  signup: 'open' | 'closed';
}

/** Sign-up open, and the functions' own defaults: a deployment without these settings behaves the same. */
export const DEFAULT_LIMITS: LimitsSettings = {
  signup: 'open',
  ...(Object.fromEntries(Object.entries(LIMIT_SETTINGS).map(([name, { fallback }]) => [name, fallback])) as Record<LimitSetting, number>),
};

/** The variables of `settings`, as every API function gets them. */
export function limitsEnvironment(settings: LimitsSettings): Record<string, string> {
  return {
    [SIGNUP_VARIABLE]: settings.signup,
    ...Object.fromEntries((Object.keys(LIMIT_SETTINGS) as LimitSetting[]).map((name) => [LIMIT_SETTINGS[name].variable, String(settings[name])])),
  };
}

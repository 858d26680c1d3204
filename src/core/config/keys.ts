// The keys a profile may hold; apart from the settings' rules, so that `csafe config --help` lists
// them without loading those.

/** Keys a profile may hold. api_key is set with `csafe auth login`, never echoed back in full. */
export const CONFIG_KEYS = ['api_key', 'base_url', 'user_id', 'output', 'request_timeout', 'max_retries'] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];

/** What a failed connection was, in words a user reads (`cannot connect to 127.0.0.1:9 (connection refused)`), not Node's or undici's codes. */

/** The error's code (ECONNREFUSED, UND_ERR_SOCKET, …), from it or the error that caused it. */
export function errorCode(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const { code, cause } = error as { code?: unknown; cause?: unknown };
  return typeof code === 'string' ? code : errorCode(cause);
}

/** How each failure reads, given the host (and port) the request went to. */
const WORDS: Record<string, (host: string) => string> = {
  ECONNREFUSED: (host) => `cannot connect to ${host} (connection refused)`,
  ENOTFOUND: (host) => `cannot find the host ${hostName(host)} (no such name in DNS)`,
  EAI_AGAIN: (host) => `cannot look up the host ${hostName(host)} (DNS did not answer; try again)`,
  EHOSTUNREACH: (host) => `cannot reach ${host} (no route to the host)`,
  ENETUNREACH: (host) => `cannot reach ${host} (the network is unreachable)`,
  UND_ERR_CONNECT_TIMEOUT: (host) => `cannot connect to ${host} (no answer to the connection in time)`,
  ECONNRESET: (host) => `the connection to ${host} was reset before the answer came`,
  UND_ERR_SOCKET: (host) => `the connection to ${host} closed before the answer was complete`,
  EPIPE: (host) => `the connection to ${host} closed while the request was being sent`,
  UND_ERR_CLOSED: (host) => `the connection to ${host} was closed`,
  ERR_TLS_CERT_ALTNAME_INVALID: (host) => `the TLS certificate of ${hostName(host)} is not for that name`,
  CERT_HAS_EXPIRED: (host) => `the TLS certificate of ${hostName(host)} has expired`,
  DEPTH_ZERO_SELF_SIGNED_CERT: (host) => `the TLS certificate of ${hostName(host)} is self-signed, so not trusted`,
  SELF_SIGNED_CERT_IN_CHAIN: (host) => `the TLS certificate of ${hostName(host)} is signed by an untrusted (self-signed) authority`,
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: (host) => `the TLS certificate of ${hostName(host)} cannot be verified (its issuer is unknown)`,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: (host) => `the TLS certificate of ${hostName(host)} cannot be verified (its issuer is unknown)`,
};

const hostName = (host: string) => host.replace(/:\d+$/, '');

/** The failure in words for a request to `url`; a failure without words of its own keeps its code and message. */
export function describeNetworkError(error: unknown, url: string): string {
  const code = errorCode(error);
  const words = code === undefined ? undefined : WORDS[code];
  if (words !== undefined) return words(hostOf(url));
  const cause = (error as { cause?: { message?: string } })?.cause?.message;
  const message = (error as Error)?.message ?? String(error);
  return [code, cause ?? message].filter(Boolean).join(' ');
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

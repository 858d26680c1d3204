// The files of undici the client loads (core/http/undici.ts); undici publishes types for its index only.
declare module 'undici/lib/dispatcher/agent.js' {
  import { Agent } from 'undici';
  export default Agent;
}
declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  export default function request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
}
declare module 'undici/lib/core/util.js' {
  const util: { parseURL(url: string): URL };
  export default util;
}

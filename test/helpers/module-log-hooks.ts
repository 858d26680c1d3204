import { appendFileSync } from 'node:fs';

type Resolve = (specifier: string, context: unknown) => Promise<{ url: string }>;

/** The module loader's resolve hook (runs off the main thread): passes every resolution through, writing its URL down. */
export async function resolve(specifier: string, context: unknown, next: Resolve): Promise<{ url: string }> {
  const resolved = await next(specifier, context);
  const log = process.env.CSAFE_MODULE_LOG;
  if (log !== undefined) appendFileSync(log, resolved.url + '\n');
  return resolved;
}

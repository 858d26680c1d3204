import * as z from 'zod';
import { CsafeError, NotFoundError } from '../core/errors.js';
import type { HttpClient } from '../core/http/client.js';
import { parseResponse } from './responses.js';

/** The emulator's control routes (not the service's): whether one is there, and clearing what it holds. */

const healthSchema = z.looseObject({ status: z.string(), uptime_s: z.number().optional() });
const resetSchema = z.looseObject({ status: z.string() });

export type EmulatorHealth = z.infer<typeof healthSchema>;

/** GET /_emulator/health; a service that has no such route is not an emulator, and said so. */
export async function emulatorHealth(http: HttpClient): Promise<EmulatorHealth> {
  return parseResponse(healthSchema, await controlCall(http, 'GET', '/_emulator/health'), 'GET /_emulator/health');
}

/** POST /_emulator/reset: every namespace, request, upload, stream, event and batch dropped. */
export async function resetEmulator(http: HttpClient): Promise<z.infer<typeof resetSchema>> {
  return parseResponse(resetSchema, await controlCall(http, 'POST', '/_emulator/reset'), 'POST /_emulator/reset');
}

async function controlCall(http: HttpClient, method: 'GET' | 'POST', path: string): Promise<unknown> {
  try {
    return await http.json(method, path);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    throw new CsafeError(`${http.baseUrl} is not a csafe emulator: ${method} ${path} answered 404`, {
      hint: 'point CSAFE_BASE_URL (or --base-url) at `csafe emulator start`, or use --emulator',
    });
  }
}

import type { HttpClient } from '../core/http.js';
import { importCreatedSchema, olderImportSchema, type ImportCreated, type OlderImport } from '../schemas/older-imports.js';
import { parseResponse } from './responses.js';

/** POST /v1/import (no body): a new import, waiting for its file at a pre-signed upload address valid for 1 hour. */
export async function createImport(http: HttpClient): Promise<ImportCreated> {
  return parseResponse(importCreatedSchema, await http.json('POST', '/v1/import'), 'POST /v1/import');
}

/** GET /v1/import/{import_id}: the Import resource. */
export async function getImport(http: HttpClient, importId: string): Promise<OlderImport> {
  const path = `/v1/import/${encodeURIComponent(importId)}`;
  return parseResponse(olderImportSchema, await http.json('GET', path), `GET ${path}`);
}

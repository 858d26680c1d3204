import type { HttpClient } from '../core/http/client.js';
import { pathSegment } from '../core/http/path-segment.js';
import { importCreatedSchema, olderImportSchema, type ImportCreated, type OlderImport } from '../schemas/older-imports.js';
import { createOnce, UPLOAD_NOT_SENT } from './create.js';
import { checkedAnswerOf, parseResponse } from './responses.js';

/** How csafe calls the older import endpoints (/v1/import), each answer checked against its schema. */

/** POST /v1/import (no body): a new import, waiting for its file at a pre-signed upload address valid for 1 hour. */
export async function createImport(http: HttpClient): Promise<ImportCreated> {
  return createOnce(http, { method: 'POST', path: '/v1/import' }, { what: 'import', note: UPLOAD_NOT_SENT }, (body) =>
    parseResponse(importCreatedSchema, body, 'POST /v1/import'),
  );
}

/** GET /v1/import/{import_id}: the Import resource. */
export async function getImport(http: HttpClient, importId: string): Promise<OlderImport> {
  const path = `/v1/import/${pathSegment(importId, '<import-id>')}`;
  return checkedAnswerOf(http, { method: 'GET', path }, olderImportSchema);
}

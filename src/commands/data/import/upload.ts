import { requestImport } from '../../../api/data.js';
import { uploadBeforeExpiry, type ExpiringUploadDeps } from '../../../core/expiring-upload.js';
import type { UploadFile } from '../../../core/upload.js';
import type { ImportResponse } from '../../../schemas/data.js';

export interface ImportedFile {
  /** The import request whose upload succeeded. */
  request: ImportResponse;
  bytes: number;
  durationMs: number;
  /** Import requests made, the successful one included. */
  imports: number;
  /** Upload attempts repeated after a failure (connection cut, 5xx) on the successful request's address. */
  retries: number;
}

/** POST …/import, then PUT the file to its upload address; an expired address is replaced by a new import request. */
export async function importFile(deps: ExpiringUploadDeps, namespace: string, file: UploadFile): Promise<ImportedFile> {
  const upload = await uploadBeforeExpiry(deps, file, 'application/json', async () => {
    const request = await requestImport(deps.http, namespace);
    return { issued: request, id: request.requestId, url: request.upload_url, expiresAt: request.expires_at };
  });
  return { request: upload.issued, bytes: upload.bytes, durationMs: upload.durationMs, imports: upload.addresses, retries: upload.retries };
}

import { requestImport } from '../../../api/data.js';
import { uploadToFreshAddress, type FreshUploadDeps, type UploadFile } from '../../../core/upload.js';
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

/**
 * POST …/import, then PUT the file to its upload address; an address that has expired (its
 * expires_at, or the store's 403) is replaced by a new import request (core/upload).
 */
export async function importFile(deps: FreshUploadDeps, namespace: string, file: UploadFile): Promise<ImportedFile> {
  const issue = async () => {
    const request = await requestImport(deps.http, namespace);
    return { issued: request, address: { id: request.requestId, url: request.upload_url, expiresAt: Date.parse(request.expires_at) } };
  };
  const upload = await uploadToFreshAddress(deps, file, issue);
  return { request: upload.issued, bytes: file.size, durationMs: upload.durationMs, imports: upload.requests, retries: upload.retries };
}

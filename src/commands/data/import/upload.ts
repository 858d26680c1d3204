import { requestImport } from '../../../api/data.js';
import type { LineCheck } from '../../../core/input/jsonl-checker.js';
import { uploadCheckedLines } from '../../../core/upload/checked-upload.js';
import { uploadBeforeExpiry, type ExpiringUpload, type ExpiringUploadDeps, type IssuedAddress } from '../../../core/upload/expiring-upload.js';
import type { UploadFile } from '../../../core/upload/file-upload.js';
import type { ImportResponse } from '../../../schemas/data.js';

// `csafe data import`: creates an import request and uploads the file to it, checking each line on the
// way.

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

/** An import request's upload address. */
const importAddress = (deps: ExpiringUploadDeps, namespace: string) => async (): Promise<IssuedAddress<ImportResponse>> => {
  const request = await requestImport(deps.http, namespace);
  return { issued: request, id: request.requestId, url: request.upload_url, expiresAt: request.expires_at };
};

/** POST …/import, then PUT the file to its upload address; an expired address is replaced by a new import request. */
export async function importFile(deps: ExpiringUploadDeps, namespace: string, file: UploadFile): Promise<ImportedFile> {
  return importedFile(await uploadBeforeExpiry(deps, file, 'application/json', importAddress(deps, namespace)));
}

/** importFile, checking every line as the file is uploaded (core/upload/checked-upload): `name` is how messages call the input. */
export async function importCheckedFile(deps: ExpiringUploadDeps & { signal: AbortSignal }, namespace: string, name: string, file: UploadFile, check: LineCheck): Promise<ImportedFile> {
  return importedFile(await uploadCheckedLines(deps, name, file, check, 'application/json', importAddress(deps, namespace)));
}

function importedFile(upload: ExpiringUpload<ImportResponse>): ImportedFile {
  return { request: upload.issued, bytes: upload.bytes, durationMs: upload.durationMs, imports: upload.addresses, retries: upload.retries };
}

import { getRequest, putSettingsBeforeImport, requestImport, requestUploadUrl } from '../../../api/data.js';
import { mayLackEndpoint } from '../../../api/responses.js';
import type { EndpointMemory } from '../../../core/config/service-memory.js';
import type { LineCheck } from '../../../core/input/jsonl-checker.js';
import { uploadCheckedLines } from '../../../core/upload/checked-upload.js';
import { uploadBeforeExpiry, type ExpiringUpload, type ExpiringUploadDeps, type IssuedAddress } from '../../../core/upload/expiring-upload.js';
import type { UploadFile } from '../../../core/upload/file-upload.js';
import type { ImportResponse, NamespaceSchema } from '../../../schemas/data.js';

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

/** What an import request carries beyond the file: --schema, and what csafe remembers of the service's endpoints. */
export interface ImportRequest {
  schema?: NamespaceSchema;
  memory?: EndpointMemory;
}

const UPLOAD_URL = 'upload-url';

/**
 * An import request's upload address. Without a schema, the spec's POST …/import. With one
 * (--schema), the current docs' POST …/requests/upload-url, which takes it; a service without
 * that endpoint (404 or 405: nothing was created) gets the spec's way instead, the schema by
 * PUT …/settings and then POST …/import, for the rest of the run and, remembered per profile,
 * for the runs after it (core/config/service-memory.ts).
 */
function importAddress(deps: ExpiringUploadDeps, namespace: string, { schema, memory }: ImportRequest): () => Promise<IssuedAddress<ImportResponse>> {
  let uploadUrlMissing = memory?.lacks(UPLOAD_URL) ?? false;
  if (schema !== undefined && uploadUrlMissing) deps.io.note('the service had no …/requests/upload-url when last asked: setting the schema with PUT …/settings, then POST …/import');
  const request = async (): Promise<ImportResponse> => {
    if (schema === undefined) return requestImport(deps.http, namespace);
    if (!uploadUrlMissing) {
      try {
        const issued = await requestUploadUrl(deps.http, namespace, schema);
        await memory?.remember(UPLOAD_URL, false);
        return issued;
      } catch (error) {
        if (!mayLackEndpoint(error)) throw error;
        uploadUrlMissing = true;
        await memory?.remember(UPLOAD_URL, true);
        deps.io.note(`the service has no …/requests/upload-url (${error.status}); setting the schema with PUT …/settings, then POST …/import`);
      }
    }
    await putSettingsBeforeImport(deps.http, namespace, schema);
    return requestImport(deps.http, namespace);
  };
  return async () => {
    const issued = await request();
    const received = async () => RECEIVED_STATUSES.has((await getRequest(deps.http, namespace, issued.requestId)).status);
    return { issued, id: issued.requestId, url: issued.upload_url, expiresAt: issued.expires_at, received };
  };
}

/**
 * The statuses of an import request that has its file. Not queued (which may be a request still
 * waiting for its upload), nor failed (which may be one whose address expired without it), nor
 * uploading (a file still arriving may yet be cut off).
 */
const RECEIVED_STATUSES: ReadonlySet<string> = new Set(['ingesting', 'succeeded']);

/** The import request, then PUT the file to its upload address; an expired address is replaced by a new import request. */
export async function importFile(deps: ExpiringUploadDeps, namespace: string, file: UploadFile, request: ImportRequest = {}): Promise<ImportedFile> {
  return importedFile(await uploadBeforeExpiry(deps, file, 'application/json', importAddress(deps, namespace, request)));
}

/** importFile, checking every line as the file is uploaded (core/upload/checked-upload): `name` is how messages call the input. */
export async function importCheckedFile(deps: ExpiringUploadDeps & { signal: AbortSignal }, namespace: string, name: string, file: UploadFile, check: LineCheck, request: ImportRequest = {}): Promise<ImportedFile> {
  return importedFile(await uploadCheckedLines(deps, name, file, check, 'application/json', importAddress(deps, namespace, request)));
}

function importedFile(upload: ExpiringUpload<ImportResponse>): ImportedFile {
  return { request: upload.issued, bytes: upload.bytes, durationMs: upload.durationMs, imports: upload.addresses, retries: upload.retries };
}

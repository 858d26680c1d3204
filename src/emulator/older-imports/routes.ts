import * as z from 'zod';
import { importLineProblems, OLDER_IMPORT_UPLOAD_TTL_SECONDS } from '../../schemas/older-imports.js';
import { describeProblem } from '../../schemas/issues.js';
import { EmulatorError } from '../http/errors.js';
import { baseUrlOf } from '../http/links.js';
import type { Route, RouteContext, RouteResult } from '../http/router.js';
import { bodyOrEmptyObject, validateBody } from '../http/validation.js';
import { checkJsonLines } from '../storage/jsonl-file.js';
import { jobUploadRoute, uploadExpiresAt } from '../storage/object-store.js';
import type { JobStore } from '../stores/job-store.js';
import { presignedUrl } from '../stores/signing.js';
import { withUnlistedField } from '../stores/state.js';
import { importView, OLDER_IMPORTS, uploadObject, type OlderImportRecord } from './records.js';

/** Older imports: POST /v1/import, GET /v1/import/{id}, and the upload of their file to the object store. */
export const olderImportRoutes: readonly Route[] = [
  { method: 'POST', pattern: '/v1/import', maxBodyBytes: 64 * 1024, auth: true, handle: createImport },
  { method: 'GET', pattern: '/v1/import/:importId', maxBodyBytes: 0, auth: true, handle: getImport },
  // A later upload replaces the file, as in S3; only the first complete one starts processing.
  jobUploadRoute(OLDER_IMPORTS, uploadObject, (state) => state.olderImports, async (ctx, record) => {
    if (record.uploaded_at !== undefined) return;
    const uploaded = { ...record, uploaded_at: ctx.config.now() };
    await ctx.state.olderImports.save(record.import_id, uploaded);
    processImport(ctx.state.olderImports, uploaded);
  }),
];

/** No body (an empty JSON object is taken too); the file follows to the upload URL. */
async function createImport(ctx: RouteContext): Promise<RouteResult> {
  validateBody(z.strictObject({}), bodyOrEmptyObject(ctx.json()));
  const store = ctx.state.olderImports;
  const importId = store.newId();
  const expiresAt = uploadExpiresAt(ctx, OLDER_IMPORT_UPLOAD_TTL_SECONDS * 1000);
  await store.save(importId, { import_id: importId, created_at: ctx.config.now(), upload_expires_at: expiresAt });
  const uploadUrl = presignedUrl(ctx.state.data.secret, baseUrlOf(ctx.req), uploadObject(importId), expiresAt);
  return { status: 200, body: { import_id: importId, import_status: 'WAITING_FOR_UPLOAD', upload_url: uploadUrl } };
}

async function getImport(ctx: RouteContext): Promise<RouteResult> {
  const store = ctx.state.olderImports;
  const record = await store.get(ctx.params.importId ?? '');
  if (record === undefined) throw new EmulatorError(404, `no import ${ctx.params.importId}`);
  // The emulator that received the upload stopped before it had checked it.
  if (record.uploaded_at !== undefined && record.outcome === undefined) processImport(store, record);
  return { status: 200, body: withUnlistedField(ctx.state.quirks, importView(record, ctx.config.now(), ctx.config.processingDelayMs)) };
}

/** Checks every line of the upload in the background and records the outcome. */
function processImport(store: JobStore<OlderImportRecord>, record: OlderImportRecord): void {
  store.runInBackground(record.import_id, async (signal) => {
    const outcome = await checkJsonLines(store.uploadPath(record.import_id), lineProblem, signal).catch((error: unknown) =>
      signal.aborted ? undefined : { error: `the upload could not be processed: ${(error as Error).message}` },
    );
    if (outcome === undefined || signal.aborted) return;
    await store.save(record.import_id, { ...record, outcome });
  });
}

/** Why one line is not `{"type": non-empty string, "data": object}`, or undefined. */
function lineProblem(value: unknown): string | undefined {
  const problems = importLineProblems(value);
  if (problems.length === 0) return undefined;
  return problems.map((problem) => (problem.path.length === 0 ? problem.message : describeProblem(problem))).join('; ');
}

import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { rename, rm, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { FILE_MODE, isMissing, temporaryPathFor } from '../stores/files.js';
import type { RawBody, Route, RouteContext, RouteResult } from '../http/router.js';
import { checkSignature, toWholeSecond, type SignedOperation } from '../stores/signing.js';
import type { JobKind, JobStore } from '../stores/job-store.js';
import { takeQuirk, type State } from '../stores/state.js';

/**
 * The object store behind the pre-signed URLs, behaving as S3 does for a pre-signed PUT or GET:
 * no API key (the signature is the credential, and an Authorization header as well is refused),
 * errors as XML, an upload streamed to disk and a download streamed from it, never held in
 * memory. Each area says which objects it takes (an UploadKind) and gives (a DownloadKind).
 */

/** One kind of object uploaded to a pre-signed URL: a namespace import's JSONL, an older import's, a batch's CSV. */
export interface UploadKind {
  /** The route under /_storage, e.g. `/_storage/imports/:namespace/:file`. */
  pattern: string;
  /** What the URL must have been signed for, from the path parameters. */
  operation(params: Readonly<Record<string, string>>): SignedOperation;
  /** Where a complete upload is stored, or undefined when nothing waits for this object. */
  destination(ctx: RouteContext): Promise<string | undefined>;
  /** Runs while the body arrives (a namespace import reads `uploading` meanwhile). */
  receiving?<T>(ctx: RouteContext, work: () => Promise<T>): Promise<T>;
  /** The upload is complete and stored at its destination; it replaces an earlier one, as in S3. */
  landed(ctx: RouteContext): Promise<void>;
}

/**
 * The upload of an older operation's file (an older import's JSONL, a batch's CSV) to
 * `/_storage/<area>/<id>.<extension>`, taken for a record `storeOf` holds; `landed` gets that record.
 */
export function jobUploadRoute<R>(
  kind: JobKind,
  operation: (id: string) => SignedOperation,
  storeOf: (state: State) => JobStore<R>,
  landed: (ctx: RouteContext, record: R) => Promise<void>,
): Route {
  const idOf = (params: Readonly<Record<string, string>>) => (params.file ?? '').replace(new RegExp(`\\.${kind.extension}$`), '');
  const recordOf = (ctx: RouteContext) => storeOf(ctx.state).get(idOf(ctx.params));
  return uploadRoute({
    pattern: `/_storage/${kind.area}/:file`,
    operation: (params) => operation(idOf(params)),
    destination: async (ctx) => ((await recordOf(ctx)) === undefined ? undefined : storeOf(ctx.state).uploadPath(idOf(ctx.params))),
    landed: async (ctx) => {
      const record = await recordOf(ctx);
      if (record !== undefined) await landed(ctx, record);
    },
  });
}

/** One kind of object downloaded from a pre-signed URL. */
export interface DownloadKind {
  pattern: string;
  operation(params: Readonly<Record<string, string>>): SignedOperation;
  /** The object, or undefined when there is none. */
  content(ctx: RouteContext): Promise<RawBody | undefined>;
}

export const uploadRoute = (kind: UploadKind): Route => ({
  method: 'PUT',
  pattern: kind.pattern,
  streamBody: true,
  auth: false,
  ownContentType: true,
  handle: (ctx) => receiveUpload(kind, ctx),
});

export const downloadRoute = (kind: DownloadKind): Route => ({
  method: 'GET',
  pattern: kind.pattern,
  maxBodyBytes: 0,
  auth: false,
  ownContentType: true,
  handle: (ctx) => sendDownload(kind, ctx),
});

/**
 * When an upload URL issued now stops working: after `ttlMs`, in whole seconds as S3's URLs carry
 * them, or already a second ago while the expired_upload_urls quirk lasts.
 */
export const uploadExpiresAt = (ctx: RouteContext, ttlMs: number): number => expiresAt(ctx, ttlMs, 'expired_upload_urls');

/**
 * When a download URL handed out now (a batch's result, a request's output) stops working: a
 * fresh one each time its record is looked up, or already expired while expired_download_urls lasts.
 */
export const downloadExpiresAt = (ctx: RouteContext, ttlMs: number): number => expiresAt(ctx, ttlMs, 'expired_download_urls');

function expiresAt(ctx: RouteContext, ttlMs: number, quirk: 'expired_upload_urls' | 'expired_download_urls'): number {
  const now = ctx.config.now();
  return takeQuirk(ctx.state.quirks, quirk) ? toWholeSecond(now) - 1000 : toWholeSecond(now + ttlMs);
}

/** A stored file as a download, streamed from disk; undefined when it is not there. */
export async function fileBody(path: string, contentType: string): Promise<RawBody | undefined> {
  const size = await stat(path).then((info) => info.size, (error: unknown) => {
    if (isMissing(error)) return undefined;
    throw error;
  });
  return size === undefined ? undefined : { contentType, length: size, content: () => createReadStream(path) };
}

async function receiveUpload(kind: UploadKind, ctx: RouteContext): Promise<RouteResult> {
  const refusal = authorizationRefusal(ctx.req) ?? lengthRefusal(ctx.req) ?? signatureRefusal(ctx, kind.operation(ctx.params));
  if (refusal !== undefined) return closing(refusal);
  const destination = await kind.destination(ctx);
  if (destination === undefined) return closing(noSuchUpload());

  const receive = () => receiveBody(ctx, destination, Number(ctx.req.headers['content-length']));
  const received = kind.receiving === undefined ? await receive() : await kind.receiving(ctx, receive);
  if (received === undefined) return s3Error(400, 'IncompleteBody', 'You did not provide the number of bytes specified by the Content-Length HTTP header.');
  if (takeQuirk(ctx.state.quirks, 'failing_uploads')) {
    await rm(received.temporary, { force: true });
    return s3Error(503, 'SlowDown', 'Please reduce your request rate.');
  }
  // A reset while the body arrived has removed the upload area, and with it what waited for it.
  if (!(await renamed(received.temporary, destination))) return noSuchUpload();
  await kind.landed(ctx);
  return { status: 200, headers: { ETag: received.etag }, raw: { contentType: 'application/xml', length: 0, content: '' } };
}

/** A refusal comes before the body is read; closing stops the client sending the rest of it. */
const closing = (refusal: RouteResult): RouteResult => ({ ...refusal, headers: { Connection: 'close' } });

const noSuchUpload = () => s3Error(404, 'NoSuchUpload', 'Nothing is waiting for an upload to this key (was the emulator reset?)');

/** False when the source is gone. */
const renamed = (from: string, to: string) =>
  rename(from, to).then(
    () => true,
    (error: unknown) => {
      if (isMissing(error)) return false;
      throw error;
    },
  );

/**
 * How much of an upload may wait for the disk. With the default (16 KiB), every network chunk
 * waited for its own write before the next was read: an upload went at a fraction of disk speed.
 */
const UPLOAD_WRITE_BUFFER_BYTES = 4 << 20;

/**
 * Streams the body to a temporary file beside `path`; only exactly Content-Length bytes make an
 * upload. However long an upload takes, it must not stall for idleMs: then the connection is cut.
 */
async function receiveBody(ctx: RouteContext, path: string, declared: number): Promise<{ temporary: string; etag: string } | undefined> {
  const { req } = ctx;
  const temporary = temporaryPathFor(path);
  const md5 = createHash('md5');
  let received = 0;
  const count = async function* (source: AsyncIterable<Buffer>) {
    for await (const chunk of source) {
      received += chunk.length;
      md5.update(chunk);
      ctx.bodySample.add(chunk);
      yield chunk;
    }
  };
  const file = createWriteStream(temporary, { mode: FILE_MODE, highWaterMark: UPLOAD_WRITE_BUFFER_BYTES });
  // Either failure ends both streams: which came first tells a caller gone from a disk that failed.
  let callerGone = false;
  let writeFailed = false;
  req.once('close', () => (callerGone = true));
  file.once('error', () => (writeFailed = !callerGone));
  let complete = false;
  // With no listener for it, node's server destroys a socket whose timeout fires.
  req.setTimeout(ctx.config.uploadIdleTimeoutMs);
  try {
    await pipeline(req, count, file);
    complete = received === declared;
    if (complete) return { temporary, etag: `"${md5.digest('hex')}"` };
  } catch (error) {
    // The caller went away mid-body: nothing is stored. A write that failed (a full disk) is a failure of ours.
    if (writeFailed || received >= declared) throw error;
  } finally {
    // A write that failed destroyed the request, and took its socket: there is no timeout left to clear.
    (req.socket as Socket | null)?.setTimeout(0);
    // Whatever failed, the part written goes, so it holds none of the room left.
    if (!complete) await rm(temporary, { force: true });
  }
  return undefined;
}

async function sendDownload(kind: DownloadKind, ctx: RouteContext): Promise<RouteResult> {
  const refusal = authorizationRefusal(ctx.req) ?? signatureRefusal(ctx, kind.operation(ctx.params));
  if (refusal !== undefined) return refusal;
  const content = await kind.content(ctx);
  if (content === undefined) return s3Error(404, 'NoSuchKey', 'The specified key does not exist.');
  return { status: 200, raw: content };
}

function authorizationRefusal(req: IncomingMessage): RouteResult | undefined {
  if (req.headers.authorization === undefined) return undefined;
  return s3Error(400, 'InvalidArgument', 'Only one auth mechanism allowed; only the X-Csafe-Signature query parameter or the Authorization header should be specified');
}

/** Object stores take no chunked uploads: the size must be declared up front. */
function lengthRefusal(req: IncomingMessage): RouteResult | undefined {
  if (req.headers['transfer-encoding'] === undefined && req.headers['content-length'] !== undefined) return undefined;
  return s3Error(411, 'MissingContentLength', 'You must provide the Content-Length HTTP header.');
}

function signatureRefusal(ctx: RouteContext, operation: SignedOperation): RouteResult | undefined {
  const query = new URL(ctx.req.url ?? '/', 'http://localhost').searchParams;
  const check = checkSignature(ctx.state.data.secret, operation, query, ctx.config.now());
  const mismatch = 'The request signature we calculated does not match the signature you provided. Check your key and signing method.';
  if (check === 'mismatch') return s3Error(403, 'SignatureDoesNotMatch', mismatch);
  const contentType = ctx.req.headers['content-type'] ?? '';
  if (contentType !== operation.contentType) {
    return s3Error(403, 'SignatureDoesNotMatch', `${mismatch} (The URL was signed for Content-Type "${operation.contentType}", not "${contentType}".)`);
  }
  if (check === 'expired') return s3Error(403, 'AccessDenied', 'Request has expired');
  return undefined;
}

function s3Error(status: number, code: string, message: string): RouteResult {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${escapeXml(message)}</Message></Error>`;
  return { status, raw: { contentType: 'application/xml', length: Buffer.byteLength(xml), content: xml } };
}

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

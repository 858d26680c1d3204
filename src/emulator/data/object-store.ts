import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { rename, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { isMissing, temporaryPathFor } from '../stores/files.js';
import { importOutput, processImport } from './imports.js';
import { baseUrlOf } from '../http/links.js';
import type { Route, RouteContext, RouteResult } from '../http/router.js';
import { checkSignature, type SignedOperation } from '../stores/signing.js';
import { takeQuirk } from '../stores/state.js';

/** The upload of an import: PUT with the Content-Type the spec prescribes. */
export const importObject = (namespace: string, requestId: string): SignedOperation => ({
  method: 'PUT',
  key: `imports/${namespace}/${requestId}.jsonl`,
  contentType: 'application/json',
});

/** The processed output of an import (its data_url), one JSON line per object. */
export const outputObject = (requestId: string): SignedOperation => ({ method: 'GET', key: `outputs/${requestId}.jsonl`, contentType: '' });

/**
 * The object store behind the pre-signed URLs, behaving as S3 does for a pre-signed PUT or GET:
 * no API key (the signature is the credential, and an Authorization header as well is refused),
 * errors as XML, and an upload is streamed to disk, never held in memory.
 */
export const storageRoutes: readonly Route[] = [
  { method: 'PUT', pattern: '/_storage/imports/:namespace/:file', streamBody: true, auth: false, ownContentType: true, handle: receiveUpload },
  { method: 'GET', pattern: '/_storage/outputs/:file', maxBodyBytes: 0, auth: false, ownContentType: true, handle: sendOutput },
];

const requestIdOf = (file: string) => file.replace(/\.jsonl$/, '');

async function receiveUpload(ctx: RouteContext): Promise<RouteResult> {
  const { namespace = '', file = '' } = ctx.params;
  const requestId = requestIdOf(file);
  const { data } = ctx.state;
  const refusal =
    authorizationRefusal(ctx.req) ??
    lengthRefusal(ctx.req) ??
    signatureRefusal(ctx, importObject(namespace, requestId)) ??
    ((await data.request(requestId))?.kind === 'import' ? undefined : noSuchUpload());
  // A refusal comes before the body is read; closing stops the client sending the rest of it.
  if (refusal !== undefined) return { ...refusal, headers: { Connection: 'close' } };

  const received = await data.receiveUpload(requestId, () =>
    receiveBody(ctx, data.uploadPath(requestId), Number(ctx.req.headers['content-length'])),
  );
  if (received === undefined) return s3Error(400, 'IncompleteBody', 'You did not provide the number of bytes specified by the Content-Length HTTP header.');
  if (takeQuirk(ctx.state.quirks, 'failing_uploads')) {
    await rm(received.temporary, { force: true });
    return s3Error(503, 'SlowDown', 'Please reduce your request rate.');
  }
  // A re-upload replaces the object, as in S3; only the first complete one starts processing.
  // A reset while the body arrived has removed the upload area, and with it the import.
  if (!(await renamed(received.temporary, data.uploadPath(requestId)))) return noSuchUpload();
  const current = await data.request(requestId);
  if (current?.kind === 'import' && current.uploaded_at === undefined) {
    const uploaded = { ...current, uploaded_at: ctx.config.now() };
    await data.saveRequest(uploaded);
    processImport(data, uploaded, ctx.config.now);
  }
  return { status: 200, headers: { ETag: received.etag }, raw: { contentType: 'application/xml', length: 0, content: '' } };
}

const noSuchUpload = () => s3Error(404, 'NoSuchUpload', 'No import is waiting for this object (was the emulator reset?)');

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
  // With no listener for it, node's server destroys a socket whose timeout fires.
  req.setTimeout(ctx.config.uploadIdleTimeoutMs);
  try {
    await pipeline(req, count, createWriteStream(temporary, { mode: 0o600 }));
    if (received === declared) return { temporary, etag: `"${md5.digest('hex')}"` };
  } catch (error) {
    // The caller went away mid-body: nothing is stored. Anything else (a full disk) is a failure of ours.
    if (received >= declared) throw error;
  } finally {
    req.setTimeout(0);
  }
  await rm(temporary, { force: true });
  return undefined;
}

async function sendOutput(ctx: RouteContext): Promise<RouteResult> {
  const requestId = requestIdOf(ctx.params.file ?? '');
  const refusal = authorizationRefusal(ctx.req) ?? signatureRefusal(ctx, outputObject(requestId));
  if (refusal !== undefined) return refusal;
  const record = await ctx.state.data.request(requestId);
  if (record?.kind !== 'import' || record.outcome === undefined || !('data_count' in record.outcome)) {
    return s3Error(404, 'NoSuchKey', 'The specified key does not exist.');
  }
  const output = importOutput(ctx.state.data, record, record.outcome, baseUrlOf(ctx.req));
  // Produced as it is sent, so its length is not known up front: the response is chunked.
  return { status: 200, raw: { contentType: 'application/x-ndjson', content: () => output } };
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

import { Readable } from 'node:stream';
import { importOutput, notifyImported, processImport } from './imports.js';
import { addView } from './views.js';
import { baseUrlOf } from '../http/links.js';
import type { Route } from '../http/router.js';
import { downloadRoute, uploadRoute } from '../storage/object-store.js';
import type { SignedOperation } from '../stores/signing.js';

/** Which objects of namespace data the object store takes and gives: import uploads in, request outputs out. */

/** The upload of an import: PUT with the Content-Type the spec prescribes. */
export const importObject = (namespace: string, requestId: string): SignedOperation => ({
  method: 'PUT',
  key: `imports/${namespace}/${requestId}.jsonl`,
  contentType: 'application/json',
});

/** The processed output of a request (an import's data_url, any request's results download), one JSON line per object. */
export const outputObject = (requestId: string): SignedOperation => ({ method: 'GET', key: `outputs/${requestId}.jsonl`, contentType: '' });

const requestIdOf = (params: Readonly<Record<string, string>>) => (params.file ?? '').replace(/\.jsonl$/, '');

/** Namespace data in the object store: import uploads in, request outputs (an import's data_url, any request's results download) out. */
export const dataStorageRoutes: readonly Route[] = [
  uploadRoute({
    pattern: '/_storage/imports/:namespace/:file',
    operation: (params) => importObject(params.namespace ?? '', requestIdOf(params)),
    destination: async (ctx) => {
      const requestId = requestIdOf(ctx.params);
      return (await ctx.state.data.request(requestId))?.kind === 'import' ? ctx.state.data.uploadPath(requestId) : undefined;
    },
    receiving: (ctx, work) => ctx.state.data.receiveUpload(requestIdOf(ctx.params), work),
    // Only the first complete upload starts processing; a reset while it arrived has removed the import.
    landed: async (ctx) => {
      const { data } = ctx.state;
      const current = await data.request(requestIdOf(ctx.params));
      if (current?.kind !== 'import' || current.uploaded_at !== undefined) return;
      const uploaded = { ...current, uploaded_at: ctx.config.now() };
      await data.saveRequest(uploaded);
      processImport(data, uploaded, ctx.config.now, notifyImported(ctx.state.webhooks, data, baseUrlOf(ctx.req), ctx.config.processingDelayMs));
    },
  }),
  downloadRoute({
    pattern: '/_storage/outputs/:file',
    operation: (params) => outputObject(requestIdOf(params)),
    content: async (ctx) => {
      const record = await ctx.state.data.request(requestIdOf(ctx.params));
      // An add request's output (…/results/download-url): its entries, one JSON line each, as its record would list them.
      if (record?.kind === 'add') {
        const lines = addView(ctx, record).data.map((entry) => `${JSON.stringify(entry)}\n`);
        return { contentType: 'application/x-ndjson', content: () => Readable.from(lines) };
      }
      if (record?.kind !== 'import' || record.outcome === undefined || !('data_count' in record.outcome)) return undefined;
      const output = importOutput(ctx.state.data, record, record.outcome, baseUrlOf(ctx.req));
      // Produced as it is sent, so its length is not known up front: the response is chunked.
      return { contentType: 'application/x-ndjson', content: () => output };
    },
  }),
];

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { runCsafe, tempDir } from '../helpers/cli.js';
import { closeServer, listenOnLoopback } from '../helpers/server.js';

/** What the stand-in knows of one created import or batch: PUTs to its address, and whether one landed. */
interface Created {
  puts: number;
  landed: boolean;
}

const EXPIRED = '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>';

/**
 * A stand-in for the older import and batch endpoints and their object store, in which the first
 * upload to an address lands but its answer never comes, and the retry finds the address
 * expired (a slow link near the end of the address's hour): the emulator cannot expire an
 * hour-long address within a test. Each record's status says whether its file landed.
 */
describe('import create and batch create, an upload that landed with its answer lost and its address then expired', () => {
  let server: Server;
  let baseUrl = '';
  const created = new Map<string, Created>();
  const creates: string[] = [];
  const dir = tempDir();
  const run = (args: string[]) => runCsafe(['--base-url', baseUrl, '--request-timeout', '1s', ...args, '--json'], { env: { CSAFE_API_KEY: 'sk_test_answer_lost' } });

  const answer = (path: string, base: string): { status: number; body?: unknown; text?: string } | undefined => {
    const create = (id: string, record: Record<string, unknown>) => {
      creates.push(id);
      created.set(id, { puts: 0, landed: false });
      return { status: 200, body: { ...record, upload_url: `${base}/upload/${id}?X-Signature=abc` } };
    };
    if (path === 'POST /v1/import') return create(`imp_${creates.length}`, { import_id: `imp_${creates.length}`, import_status: 'WAITING_FOR_UPLOAD' });
    if (path === 'POST /v1/batches') return create(`bat_${creates.length}`, { batch_id: `bat_${creates.length}`, type: 'text', batch_status: 'WAITING_FOR_UPLOAD', download_url: null });
    const [, method, kind, id] = /^(\w+) \/(?:v1\/)?(import|batches|upload)\/(\w+)/.exec(path) ?? [];
    const record = created.get(id ?? '');
    if (record === undefined) return { status: 404, body: { error: { message: 'no such record' } } };
    if (method === 'PUT' && kind === 'upload') {
      if (++record.puts > 1) return { status: 403, text: EXPIRED };
      record.landed = true;
      return undefined;
    }
    if (kind === 'import') return { status: 200, body: { import_id: id, import_status: record.landed ? 'IN_PROGRESS' : 'WAITING_FOR_UPLOAD', created_at: new Date().toISOString() } };
    const counts = { batch_count: 1, success_count: 0, pending_count: 1, error_count: 0, cancelled_count: 0 };
    return { status: 200, body: { batch_id: id, type: 'text', batch_status: record.landed ? 'PENDING' : 'WAITING_FOR_UPLOAD', upload_url: null, download_url: null, ...counts } };
  };

  before(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const reply = answer(`${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}`, baseUrl);
        // No answer at all: the upload landed, and its answer is lost.
        if (reply === undefined) return;
        res.writeHead(reply.status, { 'content-type': reply.text === undefined ? 'application/json' : 'application/xml' });
        res.end(reply.text ?? JSON.stringify(reply.body));
      });
    });
    baseUrl = await listenOnLoopback(server);
  });
  after(() => {
    closeServer(server);
    rmSync(dir, { recursive: true, force: true });
  });

  it('import create keeps the import that has its file, and creates no second one', async () => {
    const file = join(dir, 'records.jsonl');
    writeFileSync(file, '{"type":"text","data":{"text":"hello"}}\n');
    creates.length = 0;
    const result = await run(['import', 'create', file]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(creates, ['imp_0'], `one import created: ${result.stderr}`);
    assert.equal(JSON.parse(result.stdout).imports_created, 1);
    assert.match(result.stderr, /imp_0 has its file/);
  });

  it('batch create keeps the batch that has its file, and creates no second one', async () => {
    const file = join(dir, 'batch.csv');
    writeFileSync(file, 'Content,source\nhello,web\n');
    creates.length = 0;
    const result = await run(['batch', 'create', '--type', 'text', file]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(creates, ['bat_0'], `one batch created: ${result.stderr}`);
    assert.equal(JSON.parse(result.stdout).batch_requests, 1);
    assert.match(result.stderr, /bat_0 has its file/);
  });
});

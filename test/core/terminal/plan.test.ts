import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DryRunPlan } from '../../../src/core/http/dry-run.js';
import { printPlan } from '../../../src/core/terminal/plan.js';
import { bufferIO } from '../../helpers/io.js';

const POST = { method: 'POST', url: 'https://api.example/v1/events', headers: { authorization: 'Bearer [REDACTED]', 'content-type': 'application/json' }, body: { events: [{ type: 'login' }] } };
const PUT = { method: 'PUT', url: null, url_from: 'the upload address in the answer to POST /v1/data/ns/import-requests', headers: { 'content-type': 'application/json' }, body_file: 'objects.jsonl', body_bytes: 26 };

async function printed(plan: DryRunPlan, format: 'table' | 'json' | 'ndjson' | 'tsv' = 'table'): Promise<string> {
  const { io, stdout } = bufferIO();
  await printPlan(io, format, plan);
  return stdout();
}

const planOf = (requests: object[], total?: DryRunPlan['total']) => {
  const plan = new DryRunPlan();
  for (const request of requests) plan.record(request as never);
  plan.total = total;
  return plan;
};

describe('printPlan', () => {
  it('shows a request as in a log: method and URL, headers, a blank line, the JSON body', async () => {
    assert.equal(
      await printed(planOf([POST])),
      'dry run: nothing was sent; csafe would send this request:\n\nPOST https://api.example/v1/events\nauthorization: Bearer [REDACTED]\ncontent-type: application/json\n\n{\n  "events": [\n    {\n      "type": "login"\n    }\n  ]\n}\n',
    );
  });

  it('names an upload address by where it would come from, and a file body by its size and name', async () => {
    assert.equal(
      await printed(planOf([POST, PUT])),
      'dry run: nothing was sent; csafe would send these 2 requests:\n\n' +
        'POST https://api.example/v1/events\nauthorization: Bearer [REDACTED]\ncontent-type: application/json\n\n{\n  "events": [\n    {\n      "type": "login"\n    }\n  ]\n}\n\n' +
        'PUT <the upload address in the answer to POST /v1/data/ns/import-requests>\ncontent-type: application/json\n\n(26 bytes of objects.jsonl)\n',
    );
    const noFile = { ...PUT, body_file: undefined };
    assert.match(await printed(planOf([noFile])), /\n\(26 bytes\)\n$/);
    assert.match(await printed(planOf([{ method: 'GET', url: 'https://api.example/v1/x', headers: {} }])), /^dry run: nothing was sent; csafe would send this request:\n\nGET https:\/\/api\.example\/v1\/x\n\n\(no body\)\n$/);
  });

  it('says how many requests and records a run would send when it shows only the first', async () => {
    const plan = planOf([POST], { requests: 40, records: { count: 2000, noun: 'event' } });
    assert.match(await printed(plan), /^dry run: nothing was sent; csafe would send 40 requests \(2000 events\); the first:\n\nPOST /);
    assert.match(await printed(planOf([POST, PUT], { requests: 2, records: { count: 1, noun: 'object' } })), /^dry run: nothing was sent; csafe would send these 2 requests \(1 object\):\n\n/);
    assert.match(await printed(planOf([POST], { requests: 1 })), /^dry run: nothing was sent; csafe would send this request:\n/);
  });

  it('says when a run would send nothing at all', async () => {
    assert.equal(await printed(planOf([], { requests: 0, records: { count: 0, noun: 'event' } })), 'dry run: nothing was sent; csafe would send no request (0 events)\n');
    assert.equal(await printed(planOf([])), 'dry run: nothing was sent; csafe would send no request\n');
  });

  it('prints the plan as one JSON document with --json, one line with -o ndjson, and for a person in a table or TSV', async () => {
    const plan = planOf([POST], { requests: 40, records: { count: 2000, noun: 'event' } });
    const document = { dry_run: true, request_count: 40, record_count: 2000, records: 'events', requests: [POST] };
    assert.equal(await printed(plan, 'json'), `${JSON.stringify(document, null, 2)}\n`);
    assert.equal(await printed(plan, 'ndjson'), `${JSON.stringify(document)}\n`);
    assert.equal(await printed(plan, 'tsv'), await printed(plan, 'table'));
    assert.deepEqual(JSON.parse(await printed(planOf([POST]), 'json')), { dry_run: true, request_count: 1, requests: [POST] });
  });
});

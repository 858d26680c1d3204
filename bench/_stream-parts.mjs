// Helpers of bench/stream-follow.mjs, run as their own processes:
//   node bench/_stream-parts.mjs write N            N stream parts as JSON Lines on stdout, as fast as the pipe takes them
//   node bench/_stream-parts.mjs post URL KEY NS ID  the bare poster: stdin's lines sent 100 a request, one request at a time, no checks
import { once } from 'node:events';
import { createInterface } from 'node:readline';

const [mode, ...args] = process.argv.slice(2);

async function write(total) {
  const start = Date.parse('2026-11-21T10:00:00Z');
  for (let n = 0; n < total; n++) {
    const timestamp = new Date(start + n * 10).toISOString();
    const part = n % 2 === 0
      ? { type: 'chat_message', sender_id: `u${n % 5000}`, sender_display_name: `viewer ${n % 5000}`, text: `message number ${n}`, timestamp }
      : { type: 'transcript', text: `line ${n} of what the host said`, speaker: 'host', timestamp };
    if (!process.stdout.write(JSON.stringify(part) + '\n')) await once(process.stdout, 'drain');
  }
}

async function post(baseUrl, apiKey, namespace, id) {
  const url = `${baseUrl}/v1/streams/${namespace}/parts`;
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  let batch = [];
  const send = async () => {
    const response = await fetch(url, { method: 'POST', headers, body: `{"id":${JSON.stringify(id)},"data":[${batch.join(',')}]}` });
    if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
    batch = [];
  };
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    batch.push(line);
    if (batch.length === 100) await send();
  }
  if (batch.length > 0) await send();
}

if (mode === 'write') await write(Number(args[0]));
else if (mode === 'post') await post(...args);
else throw new Error(`unknown mode ${mode}`);

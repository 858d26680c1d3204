import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Agent, requestText } from '../../../src/core/http/undici.js';

// requestText: an answer read whole without a body stream, as the client reads every API answer.

describe('requestText', () => {
  let server: Server;
  let url: string;
  before(async () => {
    server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"path":${JSON.stringify(req.url)}}`);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  const tooLarge = () => new Error('too large');

  it('reads the answer whole, and leaves no listener on the signal', async () => {
    const dispatcher = new Agent();
    const signal = new AbortController().signal;
    let listeners = 0;
    const counted = new Proxy(signal, {
      get: (target, key) => {
        if (key === 'addEventListener') return (...args: Parameters<AbortSignal['addEventListener']>) => (listeners++, target.addEventListener(...args));
        if (key === 'removeEventListener') return (...args: Parameters<AbortSignal['removeEventListener']>) => (listeners--, target.removeEventListener(...args));
        const value = Reflect.get(target, key) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    try {
      const answer = await requestText(`${url}/v1/x?a=1`, { dispatcher, method: 'GET', signal: counted, maxBytes: 1000, tooLarge });
      assert.equal(answer.statusCode, 200);
      assert.deepEqual(JSON.parse(answer.text), { path: '/v1/x?a=1' });
      assert.equal(listeners, 0);
    } finally {
      await dispatcher.close();
    }
  });

  it('a signal aborted while the connection is still being made ends the request when it starts, unsent', async () => {
    const aborter = new AbortController();
    let requested = 0;
    server.on('request', () => requested++);
    // The connection is made only once the signal has fired: the request starts after it.
    const dispatcher = new Agent({
      connect: (options, callback) => {
        aborter.signal.addEventListener('abort', () => {
          const socket = connect(Number(options.port), String(options.hostname));
          socket.once('connect', () => callback(null, socket));
          socket.once('error', (error) => callback(error, null));
        });
      },
    });
    try {
      const answer = requestText(`${url}/v1/late`, { dispatcher, method: 'GET', signal: aborter.signal, maxBytes: 1000, tooLarge });
      setImmediate(() => aborter.abort(new Error('stopped')));
      await assert.rejects(answer, /stopped/);
      assert.equal(requested, 0, 'the request never reached the server');
    } finally {
      await dispatcher.destroy();
    }
  });
});

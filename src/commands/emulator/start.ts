import { once } from 'node:events';
import type { Command } from 'commander';
import { z } from 'zod';
import { parseOptions } from '../../core/options.js';
import { CURRENT_VERSION, SERVICE_VERSIONS } from '../../schemas/content.js';
import type { App } from '../app.js';

const optionsSchema = z.object({
  host: z.string().min(1).default('127.0.0.1'),
  port: z.coerce.number({ error: 'expected a port number' }).int().min(0).max(65535).default(4477),
  latency: z.coerce.number({ error: 'expected milliseconds' }).int().min(0).default(0),
  accountVersion: z.enum(SERVICE_VERSIONS, { error: `expected ${SERVICE_VERSIONS.join(' or ')}` }).default(CURRENT_VERSION),
});

export function registerEmulatorStart(group: Command, app: App): void {
  group
    .command('start')
    .description('Run a local Content Safety Service until interrupted')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port; 0 picks a free one', '4477')
    .option('--latency <ms>', 'delay added to every API response', '0')
    .option('--account-version <version>', 'version served when a request names none', CURRENT_VERSION)
    .addHelpText('after', `
The API key is --api-key, or sk_test_csafe_emulator. With --json, one line
{"base_url":…,"api_key":…} is printed on stdout when the emulator is ready.`)
    .action(app.action(async (ctx, command) => {
      const options = parseOptions(optionsSchema, command.opts());
      const { startEmulator } = await import('../../emulator/index.js');
      const emulator = await startEmulator({
        host: options.host,
        port: options.port,
        latencyMs: options.latency,
        accountVersion: options.accountVersion,
        ...(ctx.flags.apiKey !== undefined && { apiKey: ctx.flags.apiKey }),
      });
      const ready = { base_url: emulator.baseUrl, api_key: emulator.apiKey };
      if (ctx.flags.json) await ctx.io.out(JSON.stringify(ready) + '\n');
      else {
        await ctx.io.out(
          `Content Safety emulator listening on ${emulator.baseUrl}\nAPI key: ${emulator.apiKey}\n\n` +
            `  export CSAFE_BASE_URL=${emulator.baseUrl}\n  export CSAFE_API_KEY=${emulator.apiKey}\n`,
        );
      }
      if (!ctx.signal.aborted) await once(ctx.signal, 'abort');
      await emulator.close();
      ctx.io.note('emulator stopped');
    }));
}

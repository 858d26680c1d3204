import { getRequest } from '../../api/data.js';
import type { Context } from '../../context.js';
import { InterruptedError, WaitTimeoutError } from '../../core/errors.js';
import { pollUntil } from '../../core/poll.js';
import { startSpinner } from '../../core/spinner.js';
import { TERMINAL_STATUSES, type RequestRecord } from '../../schemas/data.js';

/** Polls an import request until it has succeeded or failed, with a spinner showing its status. */
export async function waitForImport(ctx: Context, namespace: string, requestId: string, timeoutMs: number): Promise<RequestRecord> {
  const http = await ctx.http();
  const spinner = await startSpinner(ctx.io, `import ${requestId}: waiting`);
  try {
    const record = await pollUntil(() => getRequest(http, namespace, requestId), (r) => TERMINAL_STATUSES.has(r.status), {
      timeoutMs,
      now: () => ctx.now(),
      sleep: (ms) => ctx.sleep(ms),
      onPoll: (r) => spinner.update(`import ${requestId}: ${r.status}`),
      describe: `import ${requestId}`,
    });
    if (record.status === 'succeeded') spinner.succeed(`import ${requestId}: succeeded`);
    else spinner.fail(`import ${requestId}: ${record.status}`);
    return record;
  } catch (error) {
    spinner.stop();
    if (error instanceof InterruptedError || error instanceof WaitTimeoutError) {
      ctx.io.warn(`import ${requestId} is still being processed: check it with \`csafe data status ${namespace} ${requestId}\``);
    }
    throw error;
  }
}

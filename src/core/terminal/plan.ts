import type { DryRunPlan, PlannedRequest } from '../http/dry-run.js';
import type { IOStreams } from './io.js';
import type { OutputFormat } from './output.js';
import { countOf } from './words.js';

/** How a dry run's plan (core/http/dry-run.ts) is shown: one JSON document in a pipe or with --json, a request as in a log otherwise. */

export function printPlan(io: IOStreams, format: OutputFormat, plan: DryRunPlan): Promise<void> {
  if (format === 'json') return io.out(JSON.stringify(plan, null, 2) + '\n');
  if (format === 'ndjson') return io.out(JSON.stringify(plan) + '\n');
  return io.out(describePlan(plan));
}

/** The plan for a person: what would be sent, each request as its method and URL, headers, then body. */
function describePlan(plan: DryRunPlan): string {
  const count = plan.requestCount;
  const records = plan.total?.records;
  const carrying = records === undefined ? '' : ` (${countOf(records.count, records.noun)})`;
  if (count === 0) return `dry run: nothing was sent; csafe would send no request${carrying}\n`;
  const all = plan.requests.length === count;
  const which = all ? `${count === 1 ? 'this request' : `these ${count} requests`}${carrying}` : `${countOf(count, 'request')}${carrying}; the first`;
  return [`dry run: nothing was sent; csafe would send ${which}:`, ...plan.requests.map(describeRequest)].join('\n\n') + '\n';
}

function describeRequest(request: PlannedRequest): string {
  const target = request.url ?? `<${request.url_from}>`;
  const headers = Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`);
  const of = request.body_file === undefined ? '' : ` of ${request.body_file}`;
  const body = request.body !== undefined ? JSON.stringify(request.body, null, 2) : request.body_bytes !== undefined ? `(${request.body_bytes} bytes${of})` : '(no body)';
  return [`${request.method} ${target}`, ...headers, '', body].join('\n');
}

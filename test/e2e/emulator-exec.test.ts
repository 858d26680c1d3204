import assert from 'node:assert/strict';
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BIN, EXAMPLES, outcome, runCsafe, spawnCsafe, tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { waitFor } from '../helpers/wait.js';

// `csafe emulator exec`: a throw-away emulator around a command, as `firebase emulators:exec`.

/** A shell script in a fresh directory, `csafe` in it being this build. */
function script(body: string): string {
  const path = join(tempDir(), 'job.sh');
  writeFileSync(path, `#!/bin/sh\nset -e\ncsafe() { "${process.execPath}" "${BIN}" "$@"; }\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

/** A process that has ended but is not yet reaped (a container's init may never reap it). */
const isZombie = (pid: number) => {
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
};

const BIN_SH = '/bin/sh';

/** Whether anything answers at a base URL. */
const answers = (baseUrl: string) =>
  fetch(`${baseUrl}/_emulator/health`).then(
    () => true,
    () => false,
  );

describe('csafe emulator exec', () => {
  it('runs a script of several csafe commands against its emulator, exits with its code, and stops the emulator', async () => {
    const dir = tempDir();
    const job = script(`
echo "$CSAFE_BASE_URL" > "${dir}/base-url"
csafe data add listings "${EXAMPLES}listings.jsonl" --wait --json > "${dir}/added.json"
csafe classify --text "hello" --user-id u1 --json > "${dir}/classified.json"
csafe events send "${EXAMPLES}events.jsonl" --json > "${dir}/sent.json"
csafe webhooks trigger workflow.succeeded --json > "${dir}/triggered.json"
echo done`);
    const result = await runCsafe(['emulator', 'exec', '--processing-delay', '0', '--api-key', 'sk_test_exec_0123456789', '--', job]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'done\n', "stdout is the command's alone");
    assert.doesNotMatch(result.stderr, /emulator|listening|error/i, 'exec says nothing of its own when all is well (the lines there are the commands\' summaries)');
    assert.deepEqual((JSON.parse(readFileSync(join(dir, 'added.json'), 'utf8')) as Array<{ status: string }>).map((request) => request.status), ['succeeded']);
    assert.equal((JSON.parse(readFileSync(join(dir, 'classified.json'), 'utf8')) as { user_id: string }).user_id, 'u1');
    assert.equal((JSON.parse(readFileSync(join(dir, 'sent.json'), 'utf8')) as { sent: number }).sent, 7);
    assert.equal((JSON.parse(readFileSync(join(dir, 'triggered.json'), 'utf8')) as { deliveries: number }).deliveries, 0);
    const baseUrl = readFileSync(join(dir, 'base-url'), 'utf8').trim();
    assert.match(baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(await answers(baseUrl), false, 'the emulator is stopped when the command ends');
  });

  it("the command's environment: the emulator's address, the key given, the webhook secret; its failure is its exit code, a signal 128 + N", async () => {
    const env = await runCsafe(['emulator', 'exec', '--api-key', 'sk_test_exec_0123456789', '--webhook-secret', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', '--', 'sh', '-c', 'echo "$CSAFE_API_KEY $CSAFE_WEBHOOK_SECRET"']);
    assert.equal(env.stdout, 'sk_test_exec_0123456789 whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw\n', env.stderr);
    // Listening on every address: the command is given loopback, where csafe sends the key over http.
    const everywhere = await runCsafe(['emulator', 'exec', '--host', '0.0.0.0', '--api-key', 'sk_test_exec_0123456789', '--', BIN_SH, '-c', `"${process.execPath}" "${BIN}" classify --text hi --user-id u1 --json > /dev/null && echo "$CSAFE_BASE_URL"`]);
    assert.equal(everywhere.code, 0, everywhere.stderr);
    assert.match(everywhere.stdout, /^http:\/\/127\.0\.0\.1:\d+\n$/);
    const failing = await runCsafe(['emulator', 'exec', '--', script('csafe classify --text "" --user-id u1')]);
    assert.equal(failing.code, 2, 'the failing csafe command inside: its exit code');
    assert.match(failing.stderr, /--text/);
    assert.equal((await runCsafe(['emulator', 'exec', '--', 'sh', '-c', 'exit 7'])).code, 7);
    assert.equal((await runCsafe(['emulator', 'exec', '--', 'sh', '-c', 'kill -TERM $$'])).code, 143);
  });

  it('a command that cannot be found is 127, one that cannot be run 126, each said in one line; without -- its flags are refused as csafe\'s (exit 2)', async () => {
    const missing = await runCsafe(['emulator', 'exec', '--', 'csafe-no-such-command']);
    assert.equal(missing.code, 127);
    assert.match(missing.stderr, /^error: csafe-no-such-command: not found\n/);
    const notExecutable = join(tempDir(), 'plain.txt');
    writeFileSync(notExecutable, 'not a program');
    const refused = await runCsafe(['emulator', 'exec', '--', notExecutable]);
    assert.equal(refused.code, 126);
    assert.match(refused.stderr, /cannot be run \(permission denied\)\nhint: make it executable \(chmod \+x /);
    const withoutSeparator = await runCsafe(['emulator', 'exec', 'sh', '-c', 'exit 0']);
    assert.equal(withoutSeparator.code, 2);
    assert.match(withoutSeparator.stderr, /unknown option '-c'/);
  });

  it('SIGTERM is passed on to the command and waited for; the emulator is stopped after it', async () => {
    const dir = tempDir();
    const job = script(`
echo "$CSAFE_BASE_URL" > "${dir}/base-url"
trap 'echo "stopping" > "${dir}/trapped"; exit 42' TERM
echo ready > "${dir}/ready"
while :; do sleep 0.1; done`);
    const child = spawnCsafe(['emulator', 'exec', '--', job]);
    const ended = outcome(child);
    await waitFor(() => readFileSync(join(dir, 'ready'), { encoding: 'utf8', flag: 'a+' }) === 'ready\n', { what: 'the script to start' });
    const baseUrl = readFileSync(join(dir, 'base-url'), 'utf8').trim();
    assert.equal(await answers(baseUrl), true);
    child.kill('SIGTERM');
    const result = await ended;
    assert.equal(result.code, 42, result.stderr);
    assert.equal(readFileSync(join(dir, 'trapped'), 'utf8'), 'stopping\n');
    assert.equal(await answers(baseUrl), false);
  });

  it('a second SIGTERM leaves at once, yet removes the temporary data directory and takes the command with it', async () => {
    const dir = tempDir();
    const tmp = tempDir();
    const job = script(`
trap 'echo trapped >> "${dir}/trapped"' TERM
echo $$ > "${dir}/pid"
while :; do sleep 0.1; done`);
    const child = spawnCsafe(['emulator', 'exec', '--', job], { env: { TMPDIR: tmp } });
    const ended = outcome(child);
    await waitFor(() => existsSync(join(dir, 'pid')) && readFileSync(join(dir, 'pid'), 'utf8').endsWith('\n'), { what: 'the script to start' });
    assert.equal(readdirSync(tmp).filter((name) => name.startsWith('csafe-emulator-')).length, 1, 'the emulator keeps its data there');
    child.kill('SIGTERM');
    await waitFor(() => existsSync(join(dir, 'trapped')), { what: 'the first SIGTERM to reach the script' });
    await new Promise((resolve) => setTimeout(resolve, 400));
    child.kill('SIGTERM');
    assert.equal((await ended).code, 143);
    assert.deepEqual(readdirSync(tmp).filter((name) => name.startsWith('csafe-emulator-')), [], 'the data directory is removed');
    const pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
    await waitFor(() => { try { process.kill(pid, 0); return isZombie(pid); } catch { return true; } }, { what: 'the script to be gone' });
  });

  it('stopped while the emulator starts (the signal already given): the command is never run, exit 128 + N', async () => {
    const dir = tempDir();
    const stopped = new AbortController();
    stopped.abort('SIGTERM');
    const result = await runInProcess(['emulator', 'exec', '--', 'sh', '-c', `touch "${dir}/ran"`], { signal: stopped.signal });
    assert.equal(result.code, 143, result.stderr);
    assert.equal(existsSync(join(dir, 'ran')), false, 'the command was not started');
  });
});

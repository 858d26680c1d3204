import type { VerbDecl } from '../declaration.js';
import { emulatorStart } from './start-command.js';

// `csafe emulator exec`: its declaration — flags, help and examples.

// What it prints when ready is `emulator start`'s alone: exec's stdout is the command's.
const { json: _json, printSecret: _printSecret, port, ...runFlags } = emulatorStart.flags;

export const emulatorExec = {
  name: 'exec',
  description: 'Run a command against a throw-away emulator, then stop it and exit with the command\'s code',
  args: [{ name: '<command...>', help: 'the command to run and its arguments, after --' }],
  flags: { ...runFlags, port: { ...port, help: 'port; 0, the default, picks a free one', default: 0 } },
  details: `
Starts an emulator as \`emulator start\` would (every option of it applies; the port is a free one
by default), runs the command with CSAFE_BASE_URL, CSAFE_API_KEY and CSAFE_WEBHOOK_SECRET set to
the emulator's, stops the emulator when the command ends and exits with the command's exit code
(128 + N when signal N ended it; 127 when it cannot be found, 126 when it cannot be run), as
\`firebase emulators:exec\` does. Put -- before the command, so its own flags are not read as
these. Its stdin, stdout and stderr are csafe's own: csafe prints nothing but its errors.
SIGTERM, and SIGINT or SIGHUP when stdin is not a terminal, are passed on to the command (a
terminal sends them to both itself); csafe waits for it to end. Without --data-dir the emulator
keeps its data in a temporary directory removed when it stops. -v logs each request on stderr.`,
  examples: [
    'csafe emulator exec -- csafe classify --text "hello" --user-id u1',
    "csafe emulator exec --processing-delay 0 -- sh -c 'csafe data add listings examples/listings.jsonl --wait && csafe events send examples/events.jsonl'",
    'csafe emulator exec --fault-rate 0.3 --faults 503 --seed 7 -- csafe events send examples/events.jsonl',
  ],
  environment: [],
} satisfies VerbDecl;

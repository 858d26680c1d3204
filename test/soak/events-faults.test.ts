// Soak: events send through injected faults at 100,000 events (the suite runs the same at 2,000).
import { describe, it } from 'node:test';
import { tempDir } from '../helpers/cli.js';
import { sendThroughFaults } from '../helpers/fault-run.js';
import { soakSize } from '../helpers/soak.js';

describe('csafe events send under failure, soak-sized', () => {
  const count = soakSize(100_000, 2_000);
  it(`${count.toLocaleString('en')} events through 20 % injected faults: every event exactly once, each user in order`, () => sendThroughFaults(tempDir(), count));
});

import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { readJsonFile, replaceFile } from './files.js';

/** What the classifier concluded, decided at creation and revealed once the processing delay has passed. */
export type DecisionOutcome = { result: string; labels: { name: string; applied: boolean; explanation: string }[] } | { error: string };

export interface StoredDecision {
  decision_id: string;
  type: string;
  metadata: Record<string, unknown>;
  created_at: number;
  outcome: DecisionOutcome;
}

export const newDecisionId = () => `dec_${randomBytes(12).toString('hex')}`;

/** Only ids newDecisionId could have made are looked up on disk: any other id names no file. */
const isDecisionId = (text: string) => /^dec_[0-9a-f]{24}$/.test(text);

/**
 * Decisions on disk, one file each under decisions/ in the data directory, so a restarted emulator
 * (same directory) answers for earlier ids. The content itself is not kept: only what was concluded.
 */
export class DecisionStore {
  private constructor(private readonly root: string) {}

  static async open(dataDir: string): Promise<DecisionStore> {
    const root = join(dataDir, 'decisions');
    await mkdir(root, { recursive: true });
    return new DecisionStore(root);
  }

  save(decision: StoredDecision): Promise<void> {
    return replaceFile(this.file(decision.decision_id), JSON.stringify(decision));
  }

  async get(decisionId: string): Promise<StoredDecision | undefined> {
    return isDecisionId(decisionId) ? readJsonFile<StoredDecision>(this.file(decisionId)) : undefined;
  }

  /** Forgets every decision: POST /_emulator/reset. */
  async clear(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
    await mkdir(this.root, { recursive: true });
  }

  private file = (decisionId: string) => join(this.root, `${decisionId}.json`);
}

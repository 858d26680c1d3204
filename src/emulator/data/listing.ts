import type { DataStore } from '../stores/data-store.js';
import { importedObjects } from './import-file.js';

/** Which objects a namespace holds, for GET /_emulator/data/{namespace}. */

export interface StoredObject {
  id: string;
  /** How many times the object was added (by add requests and imports); the last one is what the namespace holds. */
  adds: number;
  updated_at: string;
}

/**
 * The objects a namespace holds, one per id in order of first arrival, folded from its object log.
 * A test aid (GET /_emulator/data/{namespace}), so it reads the whole log, imports included.
 */
export async function storedObjects(store: DataStore, namespace: string): Promise<StoredObject[]> {
  const objects = new Map<string, StoredObject>();
  const upsert = (id: string, at: number) => {
    const updatedAt = new Date(at).toISOString();
    const known = objects.get(id);
    if (known === undefined) objects.set(id, { id, adds: 1, updated_at: updatedAt });
    else Object.assign(known, { adds: known.adds + 1, updated_at: updatedAt });
  };
  const importsSeen = new Set<string>();
  for (const entry of await store.objectLog(namespace)) {
    if ('ids' in entry) {
      for (const id of entry.ids) upsert(id, entry.at);
    } else if (!importsSeen.has(entry.import)) {
      // An import processed again after a restart logs itself again; its objects arrived once.
      importsSeen.add(entry.import);
      for await (const batch of importedObjects(store.ingestedPath(entry.import))) for (const object of batch) upsert(object.id, entry.at);
    }
  }
  return [...objects.values()];
}

import * as z from 'zod';

// A zod schema for a JSON object of any fields that keeps every field as it came, `__proto__`
// included.

const isJsonObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * A JSON object of any fields, passed on as it is. zod's record and object parsers build a new
 * object key by key, and assigning `__proto__` sets its prototype instead of a field, so a field
 * of that name (which JSON.parse keeps as an own field) would be dropped without a word.
 */
export const jsonObjectSchema = (error: string | ((issue: { input?: unknown }) => string) = 'expected a JSON object') =>
  z.custom<Record<string, unknown>>(isJsonObject, { error });

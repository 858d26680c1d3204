import { checkRecords, recordProblems, type CheckedRecord, type RecordCheck } from '../../../core/checked-records.js';
import type { JsonRecord } from '../../../core/json-position.js';
import { dataObjectProblem } from '../../../schemas/data.js';

/**
 * A request body is `{"data":[` + the objects joined by commas + `]}`. Counting each object as
 * its bytes plus one comma, what is left of a request's byte cap for its objects is the cap less
 * this frame (the 11 bytes around them, less the comma the last object does not have).
 */
export const BODY_FRAME_BYTES = 10;

/** What a data object must be to be sent: the data object schema, and within the byte cap per request. */
export const objectCheck = (maxRequestBytes: number): RecordCheck => ({ noun: 'object', problemOf: dataObjectProblem, maxRequestBytes, frameBytes: BODY_FRAME_BYTES });

/** Every record checked against the data object schema and the per-request byte cap, in input order. */
export const checkObjects = (records: AsyncIterable<JsonRecord>, maxRequestBytes: number): AsyncGenerator<CheckedRecord> =>
  checkRecords(records, objectCheck(maxRequestBytes));

/** The records checkObjects would refuse, found without serialising the others: the check before anything is sent. */
export const objectProblems = (records: AsyncIterable<JsonRecord>, maxRequestBytes: number): AsyncGenerator<{ line: number; problem: string }> =>
  recordProblems(records, objectCheck(maxRequestBytes));

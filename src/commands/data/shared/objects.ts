import type { RecordCheck } from '../../../core/bulk/checked-records.js';
import { ObjectLines } from '../../../core/json/scan.js';
import { dataObjectProblem } from '../../../schemas/data.js';

/**
 * A request body is `{"data":[` + the objects joined by commas + `]}`. Counting each object as
 * its bytes plus one comma, what is left of a request's byte cap for its objects is the cap less
 * this frame (the 11 bytes around them, less the comma the last object does not have).
 */
const BODY_FRAME_BYTES = 10;

/** The frame of a request that also carries the namespace schema (`,"schema":{…}` after the objects). */
export const bodyFrameBytes = (schemaJson?: string) => BODY_FRAME_BYTES + (schemaJson === undefined ? 0 : Buffer.byteLength(`,"schema":${schemaJson}`));

/** What a data object must be to be sent: the data object schema, and within the byte cap per request. */
export const objectCheck = (maxRequestBytes: number, frameBytes = BODY_FRAME_BYTES): RecordCheck => ({ noun: 'object', problemOf: dataObjectProblem, maxRequestBytes, frameBytes });

/** The fast check of lines of data objects: it accepts only lines dataObjectProblem would accept (test/core/json/scan.test.ts). */
export const fastObjectLines = () => new ObjectLines('id');

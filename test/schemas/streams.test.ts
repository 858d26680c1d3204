import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatPath, problemsFromZod, type FieldProblem } from '../../src/schemas/issues.js';
import { STREAM_PART_TYPES, streamId, streamPartProblems, streamPartsRequestProblems, watchStreamRequestSchema } from '../../src/schemas/streams.js';

const AT = '2026-11-21T10:00:00Z';
const PARTS = {
  audio_url: { type: 'audio_url', timestamp: AT, url: 'https://cdn.example.com/a/0001.aac' },
  frame_image_url: { type: 'frame_image_url', timestamp: AT, url: 'https://cdn.example.com/f/0001.jpg' },
  chat_message: { type: 'chat_message', sender_display_name: 'Ann', sender_id: 'u7', text: 'hello', timestamp: AT },
  transcript: { type: 'transcript', text: 'welcome back', timestamp: AT },
} as const;

const TYPES = 'audio_url, frame_image_url, chat_message, transcript';
const TIMESTAMP = 'expected an ISO 8601 date-time with a time zone, e.g. 2026-11-21T10:00:00Z';
const PART_URL = 'expected an absolute http or https URL';
const STREAM_URL = 'expected an absolute http, https, rtmp, rtmps, rtsp or srt URL';
const STREAM_ID = 'expected a non-empty string (your identifier of the stream)';
const SPEAKER = 'expected a non-empty string (who spoke), or no speaker field';

/** `path: message` lines, the way every error message shows them. */
const described = (problems: FieldProblem[]) => problems.map((problem) => `${formatPath(problem.path)}: ${problem.message}`);
const partProblems = (value: unknown) => described(streamPartProblems(value));
const watchProblems = (value: unknown) => {
  const parsed = watchStreamRequestSchema.safeParse(value);
  return parsed.success ? [] : described(problemsFromZod(parsed.error));
};
const partsRequestProblems = (value: unknown) => described(streamPartsRequestProblems(value));

describe('streamPartProblems', () => {
  it('passes each of the four shapes, and a transcript with a speaker', () => {
    assert.deepEqual(STREAM_PART_TYPES, ['audio_url', 'frame_image_url', 'chat_message', 'transcript']);
    for (const part of Object.values(PARTS)) assert.deepEqual(partProblems(part), [], part.type);
    assert.deepEqual(partProblems({ ...PARTS.transcript, speaker: 'host' }), []);
    assert.deepEqual(partProblems({ ...PARTS.transcript, speaker: ' ' }), [], 'white space is a string');
  });

  it('says the same of every value that is not an object', () => {
    for (const value of [[], [PARTS.transcript], 'transcript', 3, true, null, undefined]) {
      assert.deepEqual(partProblems(value), ['(body): expected a JSON object (one stream part)'], JSON.stringify(value));
    }
  });

  it('names the type first: missing, or not one of the four', () => {
    assert.deepEqual(partProblems({ timestamp: AT, text: 'x' }), [`type: is required: one of ${TYPES}`]);
    assert.deepEqual(partProblems({ ...PARTS.audio_url, type: 'video_url' }), [`type: unknown part type "video_url": expected one of ${TYPES}`]);
    assert.deepEqual(partProblems({ type: 1 }), [`type: unknown part type 1: expected one of ${TYPES}`]);
    assert.deepEqual(partProblems({ type: null }), [`type: unknown part type null: expected one of ${TYPES}`]);
    assert.deepEqual(partProblems({ type: 'Transcript', text: 'x', timestamp: AT }), [`type: unknown part type "Transcript": expected one of ${TYPES}`], 'types are case-sensitive');
  });

  it('names every missing field of each shape', () => {
    assert.deepEqual(partProblems({ type: 'audio_url' }), [`timestamp: is required: ${TIMESTAMP}`, `url: is required: ${PART_URL}`]);
    assert.deepEqual(partProblems({ type: 'frame_image_url' }), [`timestamp: is required: ${TIMESTAMP}`, `url: is required: ${PART_URL}`]);
    assert.deepEqual(partProblems({ type: 'chat_message' }), [
      'sender_display_name: is required: expected a non-empty string (the name shown in the chat)',
      'sender_id: is required: expected a non-empty string (your stable identifier of the sender)',
      'text: is required: expected a non-empty string (the message)',
      `timestamp: is required: ${TIMESTAMP}`,
    ]);
    assert.deepEqual(partProblems({ type: 'transcript' }), ['text: is required: expected a non-empty string (what was said)', `timestamp: is required: ${TIMESTAMP}`]);
  });

  it('names every field of the wrong kind, or empty where it may not be', () => {
    assert.deepEqual(partProblems({ ...PARTS.chat_message, sender_display_name: 7, sender_id: '', text: '' }), [
      'sender_display_name: expected a non-empty string (the name shown in the chat)',
      'sender_id: expected a non-empty string (your stable identifier of the sender)',
      'text: expected a non-empty string (the message)',
    ]);
    assert.deepEqual(partProblems({ ...PARTS.chat_message, sender_id: 7, text: ['hi'] }), [
      'sender_id: expected a non-empty string (your stable identifier of the sender)',
      'text: expected a non-empty string (the message)',
    ]);
    assert.deepEqual(partProblems({ ...PARTS.chat_message, sender_display_name: '' }), ['sender_display_name: expected a non-empty string (the name shown in the chat)']);
    assert.deepEqual(partProblems({ ...PARTS.transcript, text: '', speaker: null }), ['text: expected a non-empty string (what was said)', `speaker: ${SPEAKER}`]);
    assert.deepEqual(partProblems({ ...PARTS.transcript, speaker: 3 }), [`speaker: ${SPEAKER}`]);
    assert.deepEqual(partProblems({ ...PARTS.transcript, speaker: '' }), [`speaker: ${SPEAKER}`]);
    assert.deepEqual(partProblems({ ...PARTS.audio_url, timestamp: 1763719200000, url: 42 }), [`timestamp: ${TIMESTAMP}`, `url: ${PART_URL}`]);
  });

  it('takes a timestamp with a time zone, Z or an offset, with or without fractions of a second', () => {
    for (const timestamp of ['2026-11-21T10:00:00Z', '2026-11-21T10:00:00+01:00', '2026-11-21T10:00:00-05:30', '2026-11-21T10:00:00+14:00', '2026-11-21T10:00:00.5Z', '2026-11-21T10:00:00.123456+02:00', '2024-02-29T10:00:00Z']) {
      assert.deepEqual(partProblems({ ...PARTS.transcript, timestamp }), [], timestamp);
    }
  });

  it('refuses a timestamp without a time zone, a date alone, or a date or time that does not exist', () => {
    for (const timestamp of ['2026-11-21T10:00:00', '2026-11-21T10:00:00.5', '2026-11-21', '10:00:00Z', '2026-11-21 10:00:00Z', '2026-11-21T10:00Z', '2026-11-21T10:00:00+0100', '2026-11-21T10:00:00+01', '2026-11-21T10:00:00+25:00', '2026-13-01T10:00:00Z', '2026-02-29T10:00:00Z', '2026-11-21T24:00:00Z', 'yesterday', '']) {
      assert.deepEqual(partProblems({ ...PARTS.transcript, timestamp }), [`timestamp: ${TIMESTAMP}`], timestamp);
    }
  });

  it('takes audio and frame links over http and https only, absolute, with a host', () => {
    for (const type of ['audio_url', 'frame_image_url'] as const) {
      for (const url of ['http://cdn.example.com/f.jpg', 'https://cdn.example.com/f.jpg', 'HTTPS://CDN.EXAMPLE.COM/F.JPG', 'https://[::1]:8443/f.jpg', 'https://cdn.example.com/f.jpg?sig=a%20b#t=1']) {
        assert.deepEqual(partProblems({ ...PARTS[type], url }), [], url);
      }
      for (const url of ['rtmp://cdn.example.com/f', 'ftp://cdn.example.com/f.jpg', 'data:image/png;base64,AAAA', '/f/0001.jpg', 'cdn.example.com/f.jpg', 'https://', 'https:cdn.example.com/f.jpg', ' https://cdn.example.com/f.jpg', 'https://cdn.example.com/f 1.jpg', '']) {
        assert.deepEqual(partProblems({ ...PARTS[type], url }), [`url: ${PART_URL}`], url);
      }
    }
  });

  it('names each unknown field, a stored label included', () => {
    assert.deepEqual(partProblems({ ...PARTS.audio_url, speaker: 'x' }), ['speaker: unknown field']);
    assert.deepEqual(partProblems({ ...PARTS.chat_message, labels: [], user_id: 'u' }), ['labels: unknown field', 'user_id: unknown field']);
  });
});

describe('watchStreamRequestSchema', () => {
  it('takes an id and an absolute stream address over each accepted scheme', () => {
    for (const url of ['http://example.com/live.m3u8', 'https://example.com/live/42.m3u8', 'rtmp://ingest.example.com/live/key', 'rtmps://ingest.example.com:443/app', 'rtsp://10.0.0.5:554/cam1', 'srt://203.0.113.9:9000?streamid=x', 'SRT://203.0.113.9:9000']) {
      assert.deepEqual(watchProblems({ id: 'show-42', stream_url: url }), [], url);
    }
  });

  it('refuses other schemes, relative or host-less addresses, and addresses with spaces or control characters', () => {
    for (const url of ['ftp://example.com/live', 'ws://example.com/live', 'file:///tmp/live.m3u8', 'javascript:alert(1)', '/live/42.m3u8', 'example.com/live', 'rtmp:live', 'srt:', 'rtsp://', 'https:example.com', ' https://example.com/live', 'https://example.com/live ', 'https://exam\nple.com/live', 'https://example.com/li\tve', 'https://example.com/a b', '']) {
      assert.deepEqual(watchProblems({ id: 's', stream_url: url }), [`stream_url: ${STREAM_URL}`], JSON.stringify(url));
    }
  });

  it('names each missing, empty, mistyped or unknown field', () => {
    assert.deepEqual(watchProblems({}), [`id: is required: ${STREAM_ID}`, `stream_url: is required: ${STREAM_URL}`]);
    assert.deepEqual(watchProblems({ id: '', stream_url: 7 }), [`id: ${STREAM_ID}`, `stream_url: ${STREAM_URL}`]);
    assert.deepEqual(watchProblems({ id: 7, stream_url: 'https://example.com/x', url: 'https://example.com/x' }), [`id: ${STREAM_ID}`, 'url: unknown field']);
  });

  it('says what a body that is not an object should be', () => {
    for (const value of [[], 'show-42', 3, null, undefined]) {
      assert.deepEqual(watchProblems(value), ['(body): expected a JSON object with id and stream_url'], JSON.stringify(value));
    }
  });
});

describe('streamPartsRequestProblems', () => {
  it('passes an id with one or more parts of any shape', () => {
    assert.deepEqual(partsRequestProblems({ id: 'show-42', data: Object.values(PARTS) }), []);
    assert.deepEqual(partsRequestProblems({ id: 'show-42', data: [PARTS.transcript] }), []);
  });

  it('names a missing, empty or mistyped id or data, and unknown fields, before looking at any part', () => {
    assert.deepEqual(partsRequestProblems({}), [`id: is required: ${STREAM_ID}`, 'data: is required: expected an array of stream parts']);
    assert.deepEqual(partsRequestProblems({ id: '', data: [] }), [`id: ${STREAM_ID}`, 'data: expected at least one part']);
    assert.deepEqual(partsRequestProblems({ id: 's', data: PARTS.transcript }), ['data: expected an array of stream parts']);
    assert.deepEqual(partsRequestProblems({ id: 's', data: [{ type: 'x' }], stream_url: 'https://example.com/x' }), ['stream_url: unknown field']);
  });

  it('names each bad part by its index, every problem of every part, good parts between them unmentioned', () => {
    const data = [PARTS.chat_message, { ...PARTS.chat_message, text: '' }, PARTS.transcript, 'hello', { type: 'video' }, { ...PARTS.audio_url, timestamp: '2026-11-21', url: '/a.aac' }];
    assert.deepEqual(partsRequestProblems({ id: 's', data }), [
      'data[1].text: expected a non-empty string (the message)',
      'data[3]: expected a JSON object (one stream part)',
      `data[4].type: unknown part type "video": expected one of ${TYPES}`,
      `data[5].timestamp: ${TIMESTAMP}`,
      `data[5].url: ${PART_URL}`,
    ]);
  });

  it('says what a body that is not an object should be', () => {
    for (const value of [[PARTS.transcript], 'x', 3, null, undefined]) {
      assert.deepEqual(partsRequestProblems(value), ['(body): expected a JSON object with id and data'], JSON.stringify(value));
    }
  });
});

describe('streamId', () => {
  it('is what --id takes: a non-empty string, with a message that reads after the flag', () => {
    assert.deepEqual(streamId.safeParse('show-42'), { success: true, data: 'show-42' });
    assert.deepEqual(streamId.safeParse(' ').success, true);
    assert.equal(`--id: ${streamId.safeParse('').error?.issues[0]?.message}`, `--id: ${STREAM_ID}`);
    assert.equal(`--id: ${streamId.safeParse(undefined).error?.issues[0]?.message}`, `--id: is required: ${STREAM_ID}`);
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { partFromFlags } from '../../../src/commands/stream/parts/flag-part.js';
import { UsageError } from '../../../src/core/errors.js';

const NOW = Date.parse('2026-11-21T10:00:00.250Z');
const usage = (message: RegExp) => (error: unknown) => error instanceof UsageError && message.test(error.message);

describe('stream parts: one part from flags', () => {
  it('builds each of the four shapes, the timestamp now (ISO, with ms) unless given', () => {
    assert.deepEqual(partFromFlags({ chat: 'hello', senderId: 'u7', senderName: 'Ann' }, NOW), {
      type: 'chat_message', sender_id: 'u7', sender_display_name: 'Ann', text: 'hello', timestamp: '2026-11-21T10:00:00.250Z',
    });
    assert.deepEqual(partFromFlags({ transcript: 'welcome back', speaker: 'host' }, NOW), { type: 'transcript', text: 'welcome back', speaker: 'host', timestamp: '2026-11-21T10:00:00.250Z' });
    assert.deepEqual(partFromFlags({ transcript: 'no speaker' }, NOW), { type: 'transcript', text: 'no speaker', timestamp: '2026-11-21T10:00:00.250Z' });
    assert.deepEqual(partFromFlags({ frame: 'https://cdn.example.com/f/0001.jpg', timestamp: '2026-11-21T10:00:00Z' }, NOW), {
      type: 'frame_image_url', url: 'https://cdn.example.com/f/0001.jpg', timestamp: '2026-11-21T10:00:00Z',
    });
    assert.deepEqual(partFromFlags({ audio: 'https://cdn.example.com/a/0001.aac' }, NOW), { type: 'audio_url', url: 'https://cdn.example.com/a/0001.aac', timestamp: '2026-11-21T10:00:00.250Z' });
  });

  it('a mix that makes no single part names what conflicts', () => {
    assert.throws(() => partFromFlags({ chat: 'hi', senderId: 'u', senderName: 'A', frame: 'https://x/1.jpg' }, NOW), usage(/^--chat and --frame conflict: flags make one part; give one of --chat, --transcript, --frame, --audio/));
    assert.throws(() => partFromFlags({ transcript: 'hi', audio: 'https://x/1.aac' }, NOW), usage(/^--transcript and --audio conflict/));
    assert.throws(() => partFromFlags({ frame: 'https://x/1.jpg', speaker: 'host' }, NOW), usage(/^--speaker goes with --transcript, not --frame$/));
    assert.throws(() => partFromFlags({ transcript: 'hi', senderId: 'u7' }, NOW), usage(/^--sender-id goes with --chat, not --transcript$/));
  });

  it('a mix that makes no single part names what is missing', () => {
    assert.throws(() => partFromFlags({ chat: 'hi' }, NOW), usage(/^--chat needs --sender-id ID and --sender-name NAME$/));
    assert.throws(() => partFromFlags({ chat: 'hi', senderId: 'u7' }, NOW), usage(/^--chat needs --sender-name NAME$/));
    assert.throws(() => partFromFlags({ senderId: 'u7', senderName: 'Ann' }, NOW), usage(/^--sender-id goes with --chat: give one of --chat, --transcript, --frame, --audio$/));
    assert.throws(() => partFromFlags({ timestamp: '2026-11-21T10:00:00Z' }, NOW), usage(/^--timestamp needs a part: give one of/));
  });

  it('a value the service would refuse names its flag', () => {
    assert.throws(() => partFromFlags({ frame: 'ftp://x/1.jpg' }, NOW), usage(/^--frame: expected an absolute http or https URL$/));
    assert.throws(() => partFromFlags({ audio: 'a.aac' }, NOW), usage(/^--audio: expected an absolute http or https URL$/));
    assert.throws(() => partFromFlags({ transcript: 'hi', timestamp: 'yesterday' }, NOW), usage(/^--timestamp: expected an ISO 8601 date-time/));
    assert.throws(() => partFromFlags({ transcript: 'hi', timestamp: '2026-11-21T10:00:00' }, NOW), usage(/^--timestamp: expected an ISO 8601 date-time with a time zone/));
    assert.throws(() => partFromFlags({ chat: '', senderId: 'u7', senderName: 'Ann' }, NOW), usage(/^--chat: expected a non-empty string/));
    assert.throws(() => partFromFlags({ chat: 'hi', senderId: '', senderName: 'Ann' }, NOW), usage(/^--sender-id: expected a non-empty string/));
  });
});

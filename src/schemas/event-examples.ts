import type { BackendEvent, EventType } from './events.js';

// A valid example event of every variant, kept beside the schema so the examples cannot drift from it.

const timestamp = '2026-08-11T09:30:00Z';

/** One valid event of each variant: printed by `csafe events example`, and checked against the schema by tests. */
export const EVENT_EXAMPLES: { [T in EventType]: Extract<BackendEvent, { type: T }> } = {
  user_contact: {
    type: 'user_contact',
    event_name: 'message_sent',
    timestamp,
    user_id: 'user_123',
    target_user_id: 'user_456',
    content: [{ type: 'text', text: 'Hi, is the bike still available?', key: 'message_body' }],
    client_info: { ip: '203.0.113.7' },
  },
  content_uploaded: {
    type: 'content_uploaded',
    event_name: 'post_published',
    timestamp,
    user_id: 'user_123',
    content_id: 'post_789',
    content: [
      { type: 'text', text: 'My new bike!', key: 'title' },
      { type: 'image', source: { type: 'url', url: 'https://cdn.example.com/posts/789.jpg' }, key: 'photo' },
    ],
    metadata: { community: 'cycling', tags: ['bike', 'sale'], draft: false },
  },
  product_changed: {
    type: 'product_changed',
    event_name: 'product_created',
    timestamp,
    user_id: 'seller_42',
    content_id: 'listing_1001',
    content: [{ type: 'text', text: 'Road bike, 56 cm frame, barely used', key: 'description' }],
    product: {
      price: { amount: '450.00', currency: 'EUR' },
      discounted_price: { amount: '399.00', currency: 'EUR' },
      shipping_info: { ships_from: 'DE', ships_to: ['DE', 'AT', 'NL'] },
    },
    resources_used: [{ type: 'url', value: 'https://shop.example.com/listing/1001' }],
  },
  create_account: {
    type: 'create_account',
    event_name: 'account_created',
    timestamp,
    user_id: 'user_123',
    client_info: { ip: '2001:db8::1' },
    resources_used: [
      { type: 'email', value: 'rider@example.com' },
      { type: 'id', namespace: 'device', value: 'd-7f3a' },
    ],
  },
  update_account: {
    type: 'update_account',
    event_name: 'bio_updated',
    timestamp,
    user_id: 'user_123',
    content: [{ type: 'text', text: 'Weekend cyclist from Berlin', key: 'bio' }],
  },
  user_report: {
    type: 'user_report',
    event_name: 'user_reported',
    timestamp,
    user_id: 'user_456',
    labels: ['harassment'],
    target_user_id: 'user_123',
    target_content_id: 'post_789',
    content: [{ type: 'text', text: 'This user keeps insulting me', key: 'report_reason' }],
  },
  moderation_decision: {
    type: 'moderation_decision',
    event_name: 'content_removed',
    timestamp,
    content_id: 'post_789',
    labels: ['harassment'],
    source_id: 'moderator_7',
    source_type: 'human_moderator',
  },
};

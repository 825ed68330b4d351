/**
 * The webhook of docs/tutorial.md: the webhook-receiver sample's billing sender, signing its JWT
 * with last year's secret where the flow checks the sample's development secret. The tutorial
 * prints the same token in its curl line; bin/docs/tutorial.test.ts checks the two agree.
 */

/** The secret the sample's flow checks (WEBHOOK_SECRET's default in examples/webhook-receiver/webhook.yaml). */
export const RIGHT_SECRET = 'dev-only-webhook-secret-change-me!';

/** HS256 over the sample's claims {"sub": "billing", "iss": "webhook-sender"}, keyed with "last-years-webhook-secret". */
export const BAD_TOKEN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJiaWxsaW5nIiwiaXNzIjoid2ViaG9vay1zZW5kZXIifQ.RCmk1feI4S2bsiOUQSzidTUzcNtJyLqMZcqUd8jRz1I';

export const DELIVERY_ID = 'd-42';
export const WEBHOOK_BODY = '{"invoice": "inv-42", "amount": 120}';

/** The sample's development token (examples/webhook-receiver/webhook.yaml): what a saved test sends, since saving redacts credentials. */
export const SAMPLE_TOKEN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJiaWxsaW5nIiwiaXNzIjoid2ViaG9vay1zZW5kZXIifQ.VjuyV231BvPRFUOyYLGhUCAjPtjRGYqfqLW29tF2hOs';

/** The test the tutorial saves, and the fixture Save as test writes for it. */
export const TEST_NAME = 'accepts a billing invoice';
export const FIXTURE = 'fixtures/accepts-a-billing-invoice.json';

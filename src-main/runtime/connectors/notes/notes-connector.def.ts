import { defineConnector } from '../../core/component.ts';

/** The public notes API; tests and self-hosted proxies override it with `apiBaseURL`. */
export const NOTES_API_URL = 'https://api.notes.example/v1';
/** Also the minimum version the data-sources query API accepts (spec 3 §9). */
export const DEFAULT_NOTES_VERSION = '2025-09-03';

export const notesConnectorDef = defineConnector({
  type: 'notes',
  summary: 'Calls the hosted notes API with an integration token and verifies its inbound webhooks.',
  description:
    'Holds the integration token (sent as a Bearer credential) and the `Notes-Version` sent on every request. ' +
    'Provides no source: webhooks arrive through an `http` source with `headers: [X-Notes-Signature]` and `rawBody: true`, ' +
    'followed by `notes-verify-request`. Leave `verificationToken` unset to bootstrap a new subscription: the handshake token ' +
    'is captured in memory and logged once (in the studio it is masked in logs, runs and captures, and the handshake\'s capture has a Reveal button); configure it to keep it across restarts.',
  settings: {
    token: { type: 'string', required: true, description: 'Integration token sent as a Bearer credential; reference a secret, e.g. ${NOTES_TOKEN}.' },
    notesVersion: {
      type: 'string',
      default: DEFAULT_NOTES_VERSION,
      description:
        'Sent as the `Notes-Version` header on every request; the data-sources query API needs 2025-09-03 or later. Quote it in YAML, otherwise it is read as a date.',
      example: '2025-09-03',
    },
    verificationToken: {
      type: 'string',
      description: 'Verifies inbound webhook signatures; leave unset to bootstrap a new subscription (the handshake token is then captured in memory).',
    },
    timeout: { type: 'duration', default: '30s', description: 'Bounds each API call.' },
    apiBaseURL: { type: 'string', default: NOTES_API_URL, hidden: true, description: 'Overrides the API base, mainly for tests.' },
  },
  example: `connectors:
  notes:
    type: notes
    token: \${NOTES_TOKEN}
    notesVersion: "2025-09-03"
    verificationToken: \${NOTES_VERIFICATION_TOKEN}`,
});

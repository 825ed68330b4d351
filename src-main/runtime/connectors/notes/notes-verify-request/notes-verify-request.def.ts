import { defineBlock } from '../../../core/component.ts';

export const notesVerifyRequestDef = defineBlock({
  type: 'notes-verify-request',
  summary: 'Verifies an inbound notes webhook (X-Notes-Signature HMAC) and captures the subscription handshake token.',
  description:
    'Checks `X-Notes-Signature: sha256=<hex>`, an HMAC-SHA256 over the exact request bytes keyed by the connector\'s verification token, in constant time; a bad or missing signature rejects the request: the flow ends there and an http route answers 401 `{error}` (a signed body that is not JSON: 400), with no error chain, so the notes service does not take it for a server error to retry. ' +
    'While no token is known (none configured, none captured), an unsigned request whose body is only `{verification_token: …}` is the handshake: the token is captured in memory, logged once and set in `vars.notesVerification`; later events verify against it at once. ' +
    'Once a token is known, unsigned requests (a new handshake included) are rejected the same way. A captured token is lost on restart; configure `verificationToken` to keep it. ' +
    'The http source must expose the exact bytes (`rawBody: true`, or `rawBodyVar`) and copy the signature header with `headers: [X-Notes-Signature]`. With `rawBody: true` the verified body is parsed back into JSON.',
  settings: {
    connector: { type: 'string', required: true, connectorType: 'notes', description: 'Name of the notes connector; its verificationToken may be unset while bootstrapping.' },
    signatureHeader: { type: 'string', default: 'X-Notes-Signature', description: 'Variable holding the request signature (list the header in the http source `headers:`).' },
    rawBodyVar: {
      type: 'string',
      default: 'rawBody',
      description: 'Variable holding the exact body; must match the http source\'s rawBodyVar. Not needed when the source uses `rawBody: true`: the block then reads the raw body and parses it into `body`.',
    },
  },
  example: `- notes-verify-request:
    connector: notes`,
});

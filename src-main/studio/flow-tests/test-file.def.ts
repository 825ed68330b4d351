import { type Setting, type SettingsSpec } from '../../runtime/index.ts';

/**
 * The flow test file (`<name>.test.yaml`), declared once in the settings vocabulary components
 * use: the same declaration validates a file at load (file:line:col), generates
 * shared/flow-test.schema.json for the editor, and is what docs/testing.md describes.
 */

const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

const headers = (description: string) =>
  ({
    type: 'map',
    description,
    values: { type: 'string', description: 'Header value.' },
  }) as const satisfies Setting;

export const httpStubFields = {
  method: {
    type: 'string',
    enum: HTTP_METHODS,
    default: 'GET',
    description: 'Request method to match.',
  },
  path: {
    type: 'string',
    required: true,
    description: 'Request path to match, as sent (with the base path of the connector), e.g. /v1/invoices.',
    example: '/v1/invoices',
  },
  origin: {
    type: 'string',
    description: 'Only requests to this origin match, e.g. https://billing.example.com; default: any.',
  },
  status: {
    type: 'int',
    default: 200,
    minimum: 100,
    maximum: 599,
    description: 'Status of the answer.',
  },
  headers: headers('Headers of the answer.'),
  body: {
    type: 'any',
    description: 'Body of the answer: a mapping or list is sent as JSON, a string as it is.',
  },
  delay: {
    type: 'duration',
    default: 0,
    description: 'How long the answer takes.',
  },
  times: {
    type: 'int',
    minimum: 1,
    description: 'Answers this many requests, then no more; default: every matching request.',
  },
} as const satisfies SettingsSpec;

const outboundRoute = (what: string) =>
  ({
    type: 'object',
    description: `One answer ${what} gives; requests match on method and path (the query is ignored unless the path has one).`,
    fields: httpStubFields,
  }) as const satisfies Setting;

const platformExpectation = {
  kv: {
    type: 'list',
    description: 'KV entries the test leaves on the platform (checked after the run).',
    items: {
      type: 'object',
      description: 'One KV entry.',
      fields: {
        namespace: {
          type: 'string',
          default: 'user',
          description: 'Namespace of the entry (as the kv blocks name it).',
        },
        key: {
          type: 'string',
          required: true,
          description: 'Key of the entry.',
        },
        value: {
          type: 'any',
          description: 'Expected value (JSON equality); `null` expects the key to be absent.',
        },
        version: {
          type: 'int',
          minimum: 1,
          description: 'Expected version: how many writes the key has seen.',
        },
      },
    },
  },
  queue: {
    type: 'list',
    description: 'Messages published to queues during the run, in order, per subject listed.',
    items: {
      type: 'object',
      description: 'One queue publish.',
      fields: {
        subject: {
          type: 'string',
          required: true,
          description: 'Queue subject.',
        },
        body: {
          type: 'any',
          description: 'Expected body (JSON subset: the listed fields must match).',
        },
      },
    },
  },
  topic: {
    type: 'list',
    description: 'Messages published to topics during the run, in order, per subject listed.',
    items: {
      type: 'object',
      description: 'One topic publish.',
      fields: {
        subject: {
          type: 'string',
          required: true,
          description: 'Topic subject.',
        },
        body: { type: 'any', description: 'Expected body (JSON subset).' },
      },
    },
  },
  leases: {
    type: 'list',
    description: 'Lease (lock and leader) state after the run.',
    items: {
      type: 'object',
      description: 'One lease.',
      fields: {
        name: {
          type: 'string',
          required: true,
          description: 'Lease name, e.g. reports/count.',
        },
        held: {
          type: 'boolean',
          required: true,
          description: 'Whether someone holds it after the run.',
        },
      },
    },
  },
} as const satisfies SettingsSpec;

export const docstoreStubFields = {
  operation: {
    type: 'string',
    required: true,
    enum: ['find', 'insert', 'update', 'delete', 'aggregate'],
    description: 'The operation it answers.',
  },
  collection: {
    type: 'string',
    description: 'Only operations on this collection; default: any.',
  },
  result: {
    type: 'any',
    description:
      'Extended JSON: documents for find and aggregate; for insert `insertedIds` (default: fresh ObjectIds); for update `{matchedCount, modifiedCount}`; for delete `{deletedCount}`.',
  },
  times: {
    type: 'int',
    minimum: 1,
    description: 'Answers this many operations; default: every matching one.',
  },
} as const satisfies SettingsSpec;

export const flowTestSpec = {
  description: {
    type: 'string',
    description: 'What the test shows, in a sentence.',
  },
  flow: {
    type: 'string',
    required: true,
    description: 'The flow under test (of the definitions beside this file).',
    example: 'price-order',
  },
  from: {
    type: 'string',
    description:
      'Start at this top-level step (its name, or its index from 0) instead of the first, or at any step by its setting path (`flows.<flow>.steps[2].switch.cases[0].steps[1]`: the rest of that branch, then the rest of the flow); the input is the message that entered it. The message then goes directly to the step, not through the source.',
    example: 'line totals',
  },
  to: {
    type: 'string',
    description: 'Stop after this top-level step (name or index); default: the last.',
  },
  env: {
    type: 'map',
    description: 'Variables for the definition (beneath these, their declared defaults).',
    values: { type: 'string', description: 'Value.' },
  },
  input: {
    type: 'object',
    description:
      'The message the flow receives. For a flow with an http source it is sent as a real request to the route; otherwise (or with `from`) it is handed to the flow directly.',
    fields: {
      method: {
        type: 'string',
        enum: HTTP_METHODS,
        description: 'Request method; default: the first the route accepts, else GET.',
      },
      path: {
        type: 'string',
        description: 'Request path with query, as a client sends it (with the connector basePath); default: the route path.',
        example: '/api/items/42?fields=name',
      },
      headers: headers('Request headers.'),
      body: {
        type: 'any',
        description: 'Body: a mapping or list is sent as JSON (content-type application/json), a string as text.',
      },
      raw: {
        type: 'string',
        description: 'Body as exact text, sent with `contentType`; for bytes give `rawBase64`.',
      },
      rawBase64: {
        type: 'string',
        description: 'Body as base64-encoded bytes, sent with `contentType`.',
      },
      contentType: {
        type: 'string',
        description: 'Content type of `raw` or `rawBase64`.',
        example: 'multipart/form-data; boundary=x',
      },
      fixture: {
        type: 'string',
        description: 'A JSON or YAML file (relative to this file) holding {method, path, headers, body, vars}; keys written here win.',
        example: 'fixtures/order.json',
      },
      vars: {
        type: 'map',
        description: 'Message variables, for a flow run directly.',
        values: { type: 'any', description: 'Value.' },
      },
    },
  },
  clock: {
    type: 'object',
    description:
      'The virtual clock of the test. A flow with a schedule source fires at the ticks due between start and start + advance, without waiting for them. For any other flow, advance runs the embedded platform, the runtime and the stubs on the virtual clock: nack delays, lease TTLs, timeouts, retry waits, long polls and stub delays due before start + advance pass at once.',
    fields: {
      start: {
        type: 'string',
        description: 'Virtual time the test starts at (RFC 3339).',
        example: '2026-01-05T09:00:00Z',
      },
      advance: {
        type: 'duration',
        description: 'How far the clock runs. A schedule flow: every tick due in that span fires, in order. Any other flow: every timer due in that span fires in order, each once the flow has gone quiet.',
        example: '15s',
      },
    },
  },
  stubs: {
    type: 'object',
    description: 'Answers for what the flow reaches outside; a request no stub matches fails the call, naming it.',
    fields: {
      http: {
        type: 'list',
        description: 'Outbound HTTP of http-client connectors (also their OAuth token requests).',
        items: outboundRoute('the stubbed server'),
      },
      notes: {
        type: 'list',
        description: 'Notes API calls of notes connectors.',
        items: outboundRoute('the notes API'),
      },
      docstore: {
        type: 'list',
        description: 'Results of docstore operations, taken in order per operation and collection.',
        items: {
          type: 'object',
          description: 'One docstore result.',
          fields: docstoreStubFields,
        },
      },
    },
  },
  expect: {
    type: 'object',
    required: true,
    description: 'What must be true after the run; every listed assertion is checked and every failure reported.',
    fields: {
      response: {
        type: 'object',
        description: 'The HTTP response (flows with an http source).',
        fields: {
          status: { type: 'int', description: 'Status code.' },
          headers: headers('Headers that must be present with these values (names are case-insensitive).'),
          body: {
            type: 'any',
            description: 'The whole body, by JSON equality (a string compares with the text).',
          },
          bodyContains: {
            type: 'any',
            description: 'A subset of the body: listed fields must match, others may exist.',
          },
          condition: {
            type: 'cel',
            description: 'A CEL condition over `status`, `headers` and `body` that must be true.',
            example: 'body.items.size() > 0',
          },
        },
      },
      outcome: {
        type: 'string',
        enum: ['completed', 'dropped', 'failed'],
        description: 'How the run ended.',
      },
      error: {
        type: 'string',
        description: 'Text the failure message must contain (with outcome failed).',
      },
      body: {
        type: 'any',
        description: 'The final message body, by JSON equality.',
      },
      bodyContains: {
        type: 'any',
        description: 'A subset of the final message body.',
      },
      vars: {
        type: 'map',
        description: 'Variables the final message must hold with these values (others may exist).',
        values: { type: 'any', description: 'Expected value.' },
      },
      condition: {
        type: 'cel',
        description: 'A CEL condition over the final `body` and `vars` that must be true.',
        example: 'vars.lines.size() == 2',
      },
      sse: {
        type: 'list',
        description: 'The server-sent events of the response, in order, all of them.',
        items: {
          type: 'object',
          description: 'One frame.',
          fields: {
            event: {
              type: 'string',
              description: 'Event name; default: message.',
            },
            data: {
              type: 'any',
              description: 'Data: JSON (compared as JSON) or text.',
            },
          },
        },
      },
      calls: {
        type: 'list',
        description: 'Outbound calls the run made, in order (all of them, stubbed HTTP and notes).',
        items: {
          type: 'object',
          description: 'One call.',
          fields: {
            method: {
              type: 'string',
              enum: HTTP_METHODS,
              default: 'GET',
              description: 'Method.',
            },
            path: {
              type: 'string',
              required: true,
              description: 'Path with query, as sent.',
            },
            bodyContains: {
              type: 'any',
              description: 'A subset of the JSON body sent.',
            },
          },
        },
      },
      ...platformExpectation,
    },
  },
} as const satisfies SettingsSpec;

export const testFileSpec = {
  tests: {
    type: 'map',
    required: true,
    description: 'Tests by name; each runs on a fresh embedded platform.',
    values: { type: 'object', description: 'One test.', fields: flowTestSpec },
  },
} as const satisfies SettingsSpec;

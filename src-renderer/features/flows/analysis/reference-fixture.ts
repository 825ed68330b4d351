import type { DesignComponent, DesignSettings } from '../../../../shared/flow-design.ts';
import { indexReference, type AnalysisReference } from './spec-index.ts';

/*
 * A few real components' specs, copied for the analysis unit tests (the renderer may not import
 * the runtime). reference-fixture.test.ts checks them against the generated JSON Schema, so a
 * change to a spec shows up here.
 */
const block = (type: string, settings: DesignSettings): DesignComponent => ({ kind: 'block', type, summary: `${type} block`, settings });

export const fixtureReference: AnalysisReference = {
  components: [
    { kind: 'connector', type: 'http', summary: 'An HTTP server.', settings: { host: { type: 'string', default: '127.0.0.1', description: 'Host.' }, port: { type: 'int', default: 8080, description: 'Port.' } } },
    {
      kind: 'connector',
      type: 'http-client',
      summary: 'Calls an HTTP API.',
      settings: { baseURL: { type: 'string', required: true, description: 'Base URL.', example: 'https://api.example.com/v1' }, timeout: { type: 'duration', default: '30s', description: 'Timeout.' } },
    },
    {
      kind: 'source',
      type: 'http',
      summary: 'Serves a route.',
      connectorType: 'http',
      settings: {
        connector: { type: 'string', connectorType: 'http', default: 'http', description: 'The http connector.' },
        path: { type: 'string', required: true, description: 'Route pattern.', example: '/orders/{id}' },
        methods: { type: 'list', description: 'Methods.', items: { type: 'string', description: 'A method.' } },
        headers: { type: 'list', description: 'Copied headers.', items: { type: 'string', description: 'A header name.' } },
        rawBodyVar: { type: 'string', description: 'Raw body variable.', example: 'rawBody' },
      },
    },
    { kind: 'source', type: 'queue', summary: 'Consumes a queue.', settings: { subject: { type: 'string', required: true, description: 'Subject.', example: 'orders' } } },
    block('filter', {
      condition: { type: 'cel', required: true, description: 'Predicate.', example: 'has(vars.query.id)' },
      reject: {
        type: 'object',
        description: 'Rejection.',
        fields: { status: { type: 'int', default: 400, description: 'Status.' }, body: { type: 'cel', default: '{"error": "rejected"}', description: 'Body.' } },
      },
    }),
    block('set', {
      body: { type: 'cel', description: 'New body.' },
      vars: { type: 'map', description: 'Variables.', values: { type: 'cel', description: 'Value.' } },
    }),
    block('log', { message: { type: 'cel', required: true, description: 'The line.', example: '"order " + vars.id + " received"' }, level: { type: 'string', default: 'info', enum: ['debug', 'info', 'warn', 'error'], description: 'Severity.' } }),
    block('switch', {
      cases: {
        type: 'list',
        required: true,
        description: 'Cases.',
        items: {
          type: 'object',
          description: 'One case.',
          fields: { when: { type: 'cel', required: true, description: 'Predicate.', example: 'vars.method == "GET"' }, steps: { type: 'steps', required: true, description: 'Steps.' } },
        },
      },
      default: { type: 'steps', description: 'Default steps.' },
    }),
    block('rest', {
      connector: { type: 'string', required: true, connectorType: 'http-client', description: 'Connector.' },
      method: { type: 'string', enum: ['GET', 'POST'], default: 'GET', description: 'Method.' },
      path: { type: 'string', description: 'Path.', example: '/orders' },
      body: { type: 'cel', description: 'Body.', example: '{"a": body.a}' },
      statusVar: { type: 'string', default: 'statusCode', description: 'Status variable.' },
    }),
    block('flow-ref', { flow: { type: 'string', required: true, flowRef: true, description: 'Flow.', example: 'lookup-customer' }, resultVar: { type: 'string', description: 'Result variable.' } }),
    block('kv-get', { key: { type: 'cel', required: true, description: 'Key.' }, resultVar: { type: 'string', description: 'Result variable.', example: 'order' } }),
    block('lock', { name: { type: 'cel', required: true, description: 'Lease name.' }, steps: { type: 'steps', required: true, description: 'Steps.' } }),
  ],
  flowSettings: {
    description: { type: 'string', description: 'What the flow does.' },
    workers: { type: 'int', default: 32, description: 'Workers.' },
    steps: { type: 'steps', default: [], description: 'Steps.' },
    onError: { type: 'steps', description: 'Error chain.' },
  },
  envSettings: { default: { type: 'string', description: 'Default.' } },
};

export const fixtureSpecs = indexReference(fixtureReference);

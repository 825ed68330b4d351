import { defineConnector } from '../../core/component.ts';

export const docstoreDef = defineConnector({
  type: 'docstore',
  summary: 'A document-store client (MongoDB wire protocol) shared by the docstore-* blocks.',
  description:
    'Owns the client, its credentials and its connection pool. Put the user in `uri` and the password in `password` (a secret variable), so only the password is a secret. The client opens on start; with `verifyOnStart` a ping there makes a bad URI, credential or unreachable server fail at startup. A setting always wins over the same option in the URI (`maxPoolSize`, `minPoolSize`, `maxIdleTimeMS`, `timeoutMS`, the database in the path); a default fills only a gap neither filled. Documents cross the message boundary as extended JSON v2 (`{"$oid": …}`, `{"$date": …}`), so a document read can be handed back as a filter.',
  settings: {
    uri: {
      type: 'string',
      required: true,
      description: 'Connection string without a password: user and hosts, plain (mongodb://) or SRV (mongodb+srv://).',
      example: 'mongodb://appuser@127.0.0.1:27017/shop',
    },
    password: {
      type: 'string',
      description:
        'Merged into the URI at startup; overrides a password already in the URI (with a warning naming which was used). Needs a user in the URI. Reference a secret variable, e.g. ${DOCSTORE_PASSWORD}.',
    },
    database: { type: 'string', description: 'Database the blocks use when they name none; wins over the database in the URI path.', example: 'shop' },
    verifyOnStart: {
      type: 'boolean',
      default: true,
      description: 'Ping at startup so a bad URI, credential or unreachable server fails there; false skips only the ping (the client is opened either way).',
    },
    extendedJson: {
      type: 'string',
      enum: ['relaxed', 'canonical'],
      default: 'relaxed',
      description: 'How typed values cross the message boundary: relaxed keeps ordinary numbers plain; canonical types every number ($numberLong, $numberInt), for decimal money or integer ids above 2^53.',
    },
    maxPoolSize: {
      type: 'int',
      minimum: 1,
      default: 32,
      defaultAppliedByComponent: true,
      description: 'Connections the pool may open (the default matches the default worker count of a flow; the driver alone would allow 100).',
    },
    minPoolSize: { type: 'int', minimum: 0, description: 'Connections kept open while idle; driver default when unset.' },
    maxConnIdleTime: { type: 'duration', description: 'Idle connection lifetime, e.g. 5m; idle connections live forever when unset.', example: '5m' },
    timeout: {
      type: 'duration',
      default: '30s',
      defaultAppliedByComponent: true,
      description: 'Ceiling on a single operation, server selection included; also bounds the startup check.',
    },
  },
  example: `connectors:
  store:
    type: docstore
    uri: mongodb://appuser@127.0.0.1:27017
    password: \${DOCSTORE_PASSWORD}
    database: shop`,
});

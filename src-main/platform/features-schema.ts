import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';
import { StringEnum } from '../../shared/platform-api/contract.ts';

/**
 * The features the server implements and the numbers it enforces, described once: the
 * `Features` type is derived from this schema, and a features file (or the `features` option)
 * is checked against the schema of its overrides, built from the same blocks (features.ts).
 * Every number is a whole count (bytes, seconds, records), at least 0, or at least 1 where
 * the server has always refused 0; the rules across fields are in features.ts.
 */

const strict = { additionalProperties: false } as const;

/** A whole number (bytes, seconds, records), at least `minimum`. */
const count = (description: string, minimum = 0) => Type.Integer({ minimum, description });

export const UnsupportedPolicySchema = StringEnum(['noop', 'error'], {
  description: 'Declared in discovery when the capability is off; the runtime applies its own default when absent.',
});

/** A capability block: switched on or off, with the policy discovery declares when off, and its own fields. */
function capability<P extends TProperties>(fields: P) {
  return Type.Object({ supported: Type.Boolean(), unsupported: Type.Optional(UnsupportedPolicySchema), ...fields }, strict);
}

export const FeaturesSchema = Type.Object(
  {
    kv: capability({ maxValueBytes: count('Largest value a put accepts, in bytes.') }),
    secrets: capability({ encryptedAtRest: Type.Boolean() }),
    resources: capability({}),
    leases: capability({
      minTtlSeconds: count('Shortest TTL granted: a shorter one is raised to it.', 1),
      maxTtlSeconds: count('Longest TTL granted: a longer one is cut to it (at least minTtlSeconds).', 1),
      defaultTtlSeconds: count('The TTL when an acquire names none.'),
    }),
    leaderElection: capability({
      leaseTtlSeconds: count('The leader lease TTL declared in discovery; at least three renewIntervalSeconds.', 1),
      renewIntervalSeconds: count('How often a leader renews, declared in discovery.', 1),
      observeIntervalSeconds: count('How often a follower looks again, declared in discovery.'),
    }),
    queues: capability({
      requestReply: Type.Boolean(),
      pollTimeoutSeconds: count('Longest a receive is held, and the wait when a receive names none.'),
      maxBatch: count('Most messages one receive returns; a larger `maxMessages` is cut to it.', 1),
      ackDeadlineSeconds: count('How long a delivered message stays invisible waiting for its ack; a receive may ask for its own.', 1),
      maxMessageBytes: count('Largest JSON-encoded message body accepted by publish and request.'),
      maxDelaySeconds: count('Longest nack delay honoured; longer ones are cut to it.'),
      maxRequestTimeoutSeconds: count('Longest `timeoutSeconds` a request may wait for its reply.'),
    }),
    topics: capability({
      pollTimeoutSeconds: count('Longest a receive is held.'),
      maxBatch: count('Most messages one receive returns.', 1),
      ackDeadlineSeconds: count('How long delivered, unacknowledged topic messages wait before the subscription gets them again.', 1),
      subscriptionIdleSeconds: count('A subscription with no receive or ack for this long expires; receive then answers 404.'),
      maxMessageBytes: count('Largest JSON-encoded message body accepted by publish.'),
    }),
    agentMemory: capability({
      semantic: Type.Boolean({ description: 'Always false here: this server searches by text matching.' }),
      listThreads: Type.Boolean(),
      readThread: Type.Boolean(),
      search: Type.Boolean(),
      maxWorkingMemoryBytes: count('Largest working memory a save accepts.'),
    }),
    // Retention: the most records, bytes of record JSON and age kept (oldest batches go first).
    traces: capability({
      maxBatch: count('Most records one POST may carry.', 1),
      flushIntervalMillis: count('Declared in discovery: how often a runtime sends its batch.'),
      retainRecords: count('Most records kept.'),
      retainBytes: count('Most bytes of record JSON kept.'),
      retainSeconds: count('Oldest record kept.'),
    }),
    logs: capability({
      maxBatch: count('Most records one POST may carry.', 1),
      retainRecords: count('Most records kept.'),
      retainBytes: count('Most bytes of record JSON kept.'),
      retainSeconds: count('Oldest record kept.'),
    }),
  },
  strict,
);

export type Features = Static<typeof FeaturesSchema>;
export type FeatureName = keyof Features;
export type UnsupportedPolicy = Static<typeof UnsupportedPolicySchema>;

/** Per capability: `false` switches it off, `true` keeps the defaults, an object changes fields. */
export type FeatureOverrides = { [K in FeatureName]?: boolean | Partial<Features[K]> };

/** What a features file holds: the overrides of FeatureOverrides, checked field by field. */
export const FeatureOverridesSchema = Type.Object(
  Object.fromEntries(
    Object.entries(FeaturesSchema.properties).map(([name, block]) => [
      name,
      Type.Optional(Type.Union([Type.Boolean(), Type.Partial(block as TObject, strict)], { description: `true, false or an object of ${name}'s fields` })),
    ]),
  ),
  strict,
);

import type { Dispatcher } from 'undici';
import { implementConnector, type Connector } from '../../core/component.ts';
import type { Logger } from '../../core/logger.ts';
import { NotesApiClient } from './notes-api-client.ts';
import { notesConnectorDef } from './notes-connector.def.ts';

const VERSION_FORMAT = /^\d{4}-\d{2}-\d{2}$/;

/**
 * One notes integration: the API client, and the webhook verification token, which is either
 * configured or captured from the subscription handshake. A captured token lives only in this
 * instance, so a restart forgets it (spec 3 §3).
 */
export class NotesConnector implements Connector {
  readonly api: NotesApiClient;
  private captured: string | undefined;

  constructor(
    readonly notesVersion: string,
    private readonly configuredToken: string | undefined,
    api: NotesApiClient,
    private readonly log: Logger,
    private readonly apiBaseURL: string,
    private readonly sandboxed?: () => Dispatcher | undefined,
  ) {
    this.api = api;
  }

  async start(): Promise<void> {
    await this.api.open(this.sandboxed?.());
  }

  async stop(): Promise<void> {
    await this.api.close();
  }

  /** The token inbound signatures are checked against, if any is known yet. */
  get verificationToken(): string | undefined {
    return this.configuredToken ?? this.captured;
  }

  /** The token taken from a handshake, if this instance took one (a configured token is not). */
  get capturedVerificationToken(): string | undefined {
    return this.captured;
  }

  /**
   * Takes the handshake token while none is known. Synchronous on purpose: two handshakes racing
   * cannot both win, and once one is known nobody can push another into the running service.
   */
  captureVerificationToken(token: string): boolean {
    if (this.verificationToken !== undefined) return false;
    this.captured = token;
    // The spec's bootstrap path: the operator copies this value into the notes subscription.
    this.log.warn('notes webhook verification token captured; confirm the subscription with it and set verificationToken to keep it across restarts', {
      verificationToken: token,
    });
    return true;
  }

  describe(): Record<string, unknown> {
    const verification = this.configuredToken !== undefined ? 'configured' : this.captured !== undefined ? 'captured' : 'awaiting handshake';
    return { apiBaseURL: this.apiBaseURL, notesVersion: this.notesVersion, verification };
  }
}

export const notesConnector = implementConnector(
  notesConnectorDef,
  (s, ctx) => {
    const api = new NotesApiClient({ baseURL: s.apiBaseURL, token: s.token, notesVersion: s.notesVersion, timeoutMs: s.timeout });
    const configured = s.verificationToken === '' ? undefined : s.verificationToken;
    const name = ctx.path.replace(/^connectors\./, '');
    return new NotesConnector(s.notesVersion, configured, api, ctx.log, s.apiBaseURL, () => ctx.host.sandbox?.outboundHttp?.(name, 'notes'));
  },
  (s) => {
    // A setting bound to a variable without a value yet (validate mode) arrives undefined.
    const problems: string[] = [];
    if (s.token?.trim() === '') problems.push('token is empty; bind the integration token, e.g. token: ${NOTES_TOKEN}');
    if (s.notesVersion !== undefined && !VERSION_FORMAT.test(s.notesVersion)) problems.push(`notesVersion "${s.notesVersion}" is not a version date such as "2025-09-03"`);
    if (s.apiBaseURL !== undefined && !/^https?:\/\/[^/]/.test(s.apiBaseURL)) problems.push(`apiBaseURL "${s.apiBaseURL}" is not an http(s) URL`);
    if (s.timeout <= 0) problems.push('timeout must be longer than 0');
    return problems;
  },
);

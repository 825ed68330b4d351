import type { ComposerRequest, HandshakeTokenReveal, HistoryEntry, HmacSignInput, JwtMintInput, JwtMintResult, RequestEnvironments, ResolvedRequest, SignatureResult } from '../../shared/request-types.ts';
import type { StudioBridge } from '../../shared/studio-api.ts';
import { useStudio } from '../store/studio-store.ts';
import { studio } from './studio-client.ts';

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

let counter = 0;
const newId = (): string => `w${Date.now().toString(36)}-${(++counter).toString(36)}`;

/** Subscribes the Requests panel to its events and loads history, saved requests and environments. */
export function syncRequests(bridge: StudioBridge): () => void {
  const stops = [
    bridge.on('requestProgress', (p) => useStudio.getState().applyProgress(p)),
    bridge.on('captures', (c) => useStudio.getState().addCaptures(c)),
  ];
  const s = useStudio.getState();
  bridge.requestHistory().then(s.setHistory, () => {});
  bridge.savedRequests().then(s.setSaved, () => {});
  bridge.requestEnvironments().then(s.setEnvironments, () => {});
  return () => stops.forEach((stop) => stop());
}

/** Sends a request; its frames arrive live, and the finished entry lands in history and view. */
export function sendRequest(req: ResolvedRequest): Promise<HistoryEntry | undefined> {
  return track((id) => studio.sendRequest({ ...req, id }));
}

/**
 * Sends a captured request again, as it came, to the integration's current server, with the
 * request in the composer and its answer (status, headers, body, timing, run) below it.
 */
export async function replayCapture(captureId: number): Promise<HistoryEntry | undefined> {
  try {
    useStudio.getState().openInComposer(await studio.captureAsRequest(captureId));
  } catch (err) {
    useStudio.getState().setNotice(`the request was not replayed: ${message(err)}`);
    return undefined;
  }
  return track((id) => studio.replayCapture(captureId, id));
}

async function track(call: (id: string) => Promise<HistoryEntry>): Promise<HistoryEntry | undefined> {
  const id = newId();
  const s = useStudio.getState();
  s.startInFlight(id);
  try {
    const entry = await call(id);
    useStudio.getState().finishInFlight(entry);
    s.setNotice(undefined);
    return entry;
  } catch (err) {
    useStudio.getState().finishInFlight(undefined);
    s.setNotice(`the request was not sent: ${message(err)}`);
    return undefined;
  }
}

export function stopRequest(): void {
  const id = useStudio.getState().inFlight?.id;
  if (id) void studio.stopRequest(id);
}

export async function signBody(req: ComposerRequest): Promise<SignatureResult> {
  if (!req.target) return { ok: false, reason: 'pick a route first' };
  try {
    return await studio.signRequestBody(req.target, req.body);
  } catch (err) {
    return { ok: false, reason: message(err) };
  }
}

/** An HMAC signature header for a body, with a typed or cluster secret; failures come back as reasons. */
export async function signBodyHmac(input: HmacSignInput): Promise<SignatureResult> {
  try {
    return await studio.signBodyHmac(input);
  } catch (err) {
    return { ok: false, reason: message(err) };
  }
}

export async function mintJwt(input: JwtMintInput): Promise<JwtMintResult> {
  try {
    return await studio.mintJwt(input);
  } catch (err) {
    return { ok: false, reason: message(err) };
  }
}

/** Asks the backend for a captured handshake token: only on the user's Reveal, never kept in the store. */
export async function revealHandshakeToken(captureId: number): Promise<HandshakeTokenReveal> {
  try {
    return await studio.revealHandshakeToken(captureId);
  } catch (err) {
    return { ok: false, reason: message(err) };
  }
}

export async function saveComposer(req: ComposerRequest, file: string | undefined): Promise<void> {
  const s = useStudio.getState();
  try {
    const saved = await studio.saveRequest(req, file);
    s.setSaved(await studio.savedRequests());
    useStudio.setState({ composerFile: saved.file });
    s.setNotice(undefined);
  } catch (err) {
    s.setNotice(`could not save the request: ${message(err)}`);
  }
}

export async function deleteSaved(file: string): Promise<void> {
  const s = useStudio.getState();
  try {
    await studio.deleteSavedRequest(file);
    s.setSaved(await studio.savedRequests());
  } catch (err) {
    s.setNotice(message(err));
  }
}

export async function saveEnvironments(envs: RequestEnvironments): Promise<void> {
  const s = useStudio.getState();
  try {
    s.setEnvironments(await studio.saveRequestEnvironments(envs));
  } catch (err) {
    s.setNotice(`could not save the environments: ${message(err)}`);
  }
}

export async function clearHistory(): Promise<void> {
  await studio.clearRequestHistory();
  useStudio.getState().setHistory([]);
}

/** Loads a capture into the composer to edit it before replaying. */
export async function editCapture(id: number): Promise<void> {
  try {
    useStudio.getState().openInComposer(await studio.captureAsRequest(id));
  } catch (err) {
    useStudio.getState().setNotice(message(err));
  }
}

export const captures = {
  list: (search: string) => studio.listCaptures({ search, limit: 500 }),
  detail: (id: number) => studio.captureDetail(id),
  clear: () => studio.clearCaptures(),
};

import { useState, type KeyboardEvent } from 'react';
import type { ComposerRequest, RequestTarget } from '../../../shared/request-types.ts';
import type { RouteInfo } from '../../../shared/studio-api.ts';
import { saveComposer, sendRequest, signBody, stopRequest } from '../../api/request-actions.ts';
import { useStudio } from '../../store/studio-store.ts';
import { BodyEditor } from './BodyEditor.tsx';
import { composerProblems, paramNames, requestVariables, resolveRequest, retarget, toCurl } from './compose-request.ts';
import { KeyValueTable } from './KeyValueTable.tsx';
import { SigningHelper } from './SigningHelper.tsx';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

export interface TargetRoute {
  integration: string;
  route: RouteInfo;
}

const targetKey = (t: { integration: string; flow: string; route: string }): string => `${t.integration}\u0000${t.flow}\u0000${t.route}`;

/** The running routes, each with its integration. */
export function useRunningRoutes(): TargetRoute[] {
  const runs = useStudio((s) => s.runs);
  return Object.values(runs)
    .filter((r) => r.status === 'running')
    .flatMap((r) => r.routes.map((route) => ({ integration: r.integration, route })));
}

export function routeFor(routes: TargetRoute[], target: RequestTarget | undefined): RouteInfo | undefined {
  if (!target) return undefined;
  return routes.find((r) => r.integration === target.integration && r.route.flow === target.flow && r.route.path === target.route)?.route;
}

/** A fresh request for a route: its first method, its path parameters empty, JSON for bodies. */
export function requestForRoute(t: TargetRoute): ComposerRequest {
  const method = t.route.methods[0] ?? 'GET';
  const sends = !['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(method);
  return {
    name: `${method} ${t.route.path}`,
    target: { integration: t.integration, flow: t.route.flow, route: t.route.path },
    method,
    url: '',
    pathParams: Object.fromEntries(paramNames(t.route.path).map((p) => [p, ''])),
    query: [],
    headers: [],
    body: sends ? { kind: 'json', text: '{\n  \n}' } : { kind: 'none' },
    sign: false,
  };
}

/**
 * The request composer: a route of a running integration (or any URL), method, path parameters,
 * query, headers, body; environment variables fill `{{name}}`. Send goes through the studio's
 * backend, so there is no CORS; Stop closes a stream.
 */
export function Composer() {
  const composer = useStudio((s) => s.composer);
  const file = useStudio((s) => s.composerFile);
  const patch = useStudio((s) => s.patchComposer);
  const setComposer = useStudio((s) => s.setComposer);
  const inFlight = useStudio((s) => s.inFlight);
  const environments = useStudio((s) => s.environments);
  const routes = useRunningRoutes();
  const [section, setSection] = useState<'body' | 'headers' | 'query' | 'sign'>('body');
  const [note, setNote] = useState<{ text: string; bad?: boolean } | undefined>(undefined);
  const [curl, setCurl] = useState<string | undefined>(undefined);

  const env = environments.environments.find((e) => e.name === environments.active);
  const route = routeFor(routes, composer.target);
  const problems = composerProblems(composer, route, env?.vars ?? {});
  const resolved = resolveRequest(composer, route, env);
  const params = composer.target ? paramNames(composer.target.route) : [];
  const hasNotesSign = composer.target !== undefined;
  // What `{{` offers in the JSON body: the environment's variables and the chosen route's path parameters.
  const variables = Object.keys(requestVariables({ ...composer, pathParams: Object.fromEntries(params.map((p) => [p, p])) }, env?.vars ?? {}));

  const send = (): void => {
    setNote(undefined);
    setCurl(undefined);
    if (problems.length === 0) void sendRequest(resolved);
  };

  /**
   * Ctrl+Enter (⌘Enter) sends from anywhere in the composer, as in other request tools. Taken in
   * the capture phase: the body editor (Monaco) would otherwise insert a line and keep the key.
   */
  const sendOnCtrlEnter = (e: KeyboardEvent<HTMLElement>): void => {
    if (e.key !== 'Enter' || !(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
    e.preventDefault();
    e.stopPropagation();
    if (!inFlight) send();
  };

  /** Puts a header in, replacing one of the same name, read from the freshest composer state. */
  const setHeader = (name: string, value: string): void => {
    const rows = useStudio.getState().composer.headers.filter((h) => h.name.toLowerCase() !== name.toLowerCase());
    patch({ headers: [...rows, { name, value, enabled: true }] });
  };

  const sign = async (): Promise<void> => {
    const result = await signBody({ ...composer, body: resolved.body });
    if (!result.ok) return setNote({ text: result.reason, bad: true });
    setHeader(result.header, result.value);
    setSection('headers');
    setNote({ text: `Signed the body as it is now: ${result.header} added. Change the body and the signature no longer matches.` });
  };

  return (
    <section className="composer" aria-label="Request composer" onKeyDownCapture={sendOnCtrlEnter}>
      <div className="composer-line">
        <select
          aria-label="Route"
          value={composer.target ? targetKey(composer.target) : ''}
          onChange={(e) => {
            const t = routes.find((r) => targetKey({ integration: r.integration, flow: r.route.flow, route: r.route.path }) === e.target.value);
            // What was typed stays where it still applies; the last answer was another route's.
            if (t) setComposer(retarget(composer, requestForRoute(t)));
            else patch({ target: undefined, url: route ? resolved.url : composer.url });
            useStudio.getState().showEntry(undefined);
          }}
        >
          <option value="">Any URL…</option>
          {composer.target && !route ? <option value={targetKey(composer.target)}>{`${composer.target.integration} · ${composer.target.route} (not running)`}</option> : null}
          {routes.map((r) => (
            <option key={targetKey({ integration: r.integration, flow: r.route.flow, route: r.route.path })} value={targetKey({ integration: r.integration, flow: r.route.flow, route: r.route.path })}>
              {r.integration} · {r.route.methods.join(',') || 'any'} {r.route.path} ({r.route.flow})
            </option>
          ))}
        </select>
        <select aria-label="Method" value={composer.method} onChange={(e) => patch({ method: e.target.value })}>
          {/* The request's own method too: a replayed PROPFIND or PURGE is shown as what is sent, not as GET. */}
          {[...new Set([...(route?.methods ?? []), ...METHODS, composer.method])].map((m) => (
            <option key={m}>{m}</option>
          ))}
        </select>
        {composer.target ? (
          <input aria-label="URL" className="url grow" value={resolved.url} readOnly title="From the running route; fill the path parameters below" />
        ) : (
          <input aria-label="URL" className="url grow" value={composer.url} placeholder="http://127.0.0.1:8080/path" onChange={(e) => patch({ url: e.target.value })} />
        )}
        {inFlight ? (
          <button type="button" className="danger" onClick={stopRequest}>
            Stop
          </button>
        ) : (
          <button type="button" className="primary" onClick={send} disabled={problems.length > 0} title={problems[0] ?? 'Send (Ctrl+Enter)'}>
            Send
          </button>
        )}
      </div>
      {params.length > 0 ? (
        <div className="path-params" role="group" aria-label="Path parameters">
          {params.map((p) => (
            <label key={p}>
              <span className="muted">{`{${p}}`}</span>
              <input aria-label={`Path parameter ${p}`} value={composer.pathParams[p] ?? ''} onChange={(e) => patch({ pathParams: { ...composer.pathParams, [p]: e.target.value } })} />
            </label>
          ))}
        </div>
      ) : null}
      <div className="tabs" role="tablist" aria-label="Request parts">
        {(['body', 'headers', 'query', 'sign'] as const).map((s) => (
          <button key={s} type="button" role="tab" className="tab" aria-selected={section === s} onClick={() => setSection(s)}>
            {s === 'body' ? 'Body' : s === 'headers' ? `Headers (${composer.headers.length})` : s === 'query' ? `Query (${composer.query.length})` : 'Sign / JWT'}
          </button>
        ))}
      </div>
      {section === 'body' ? <BodyEditor body={composer.body} onChange={(body) => patch({ body })} variables={variables} /> : null}
      {section === 'headers' ? <KeyValueTable label="Headers" namePlaceholder="header" rows={composer.headers} onChange={(headers) => patch({ headers })} /> : null}
      {section === 'query' ? <KeyValueTable label="Query" namePlaceholder="parameter" rows={composer.query} onChange={(query) => patch({ query })} /> : null}
      {/* Kept mounted (hidden) so a typed secret survives switching tabs, and only in this window. */}
      <div hidden={section !== 'sign'}>
        <SigningHelper body={resolved.body} setHeader={setHeader} note={(text, bad) => setNote({ text, bad })} />
      </div>
      {problems.length > 0 ? (
        <ul className="composer-problems" aria-label="Before sending">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : null}
      <div className="composer-actions">
        {hasNotesSign ? (
          <>
            <button type="button" onClick={() => void sign()} title="Adds X-Notes-Signature for this body, made with the route's notes connector token">
              Sign for notes
            </button>
            <label title="Sign the exact bytes at send time">
              <input type="checkbox" checked={composer.sign} onChange={(e) => patch({ sign: e.target.checked })} /> sign on send
            </label>
          </>
        ) : null}
        <button
          type="button"
          onClick={() => {
            const text = toCurl(resolved);
            setCurl(text);
            void navigator.clipboard?.writeText(text).then(
              () => setNote({ text: 'Copied as curl.' }),
              () => setNote({ text: 'The clipboard is not available here; copy the command below.' }),
            );
          }}
        >
          Copy as curl
        </button>
        <span className="spacer" />
        <input aria-label="Request name" placeholder="name to save as" value={composer.name} onChange={(e) => patch({ name: e.target.value })} />
        <button type="button" onClick={() => void saveComposer(composer, file)} disabled={!composer.name.trim()}>
          {file ? 'Save' : 'Save as…'}
        </button>
        {file ? <span className="muted">requests/{file}</span> : null}
      </div>
      {note ? (
        <p className={note.bad ? 'field-error' : 'muted'} role="status">
          {note.text}
        </p>
      ) : null}
      {curl ? (
        <pre className="curl" aria-label="curl command">
          {curl}
        </pre>
      ) : null}
    </section>
  );
}

import { useEffect, useState } from 'react';
import type { AgentSearchHit, ValuePreview } from '../../../shared/platform-views.ts';
import { platformQueries } from '../../api/platform-queries.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { useLiveQuery } from '../../components/use-live-query.ts';
import { formatBytes } from '../../components/ValueView.tsx';
import { clockTime, counted } from '../../shell/format.ts';
import { useStudio } from '../../store/studio-store.ts';
import { ConversationView } from './ConversationView.tsx';

/** Agent memory: agents → conversations → turns; working memory sizes; curated memories per person; search. */
export function AgentMemoryView() {
  const { agentId, threadKey } = useStudio((s) => s.agentSelection);
  const select = useStudio((s) => s.selectAgent);
  const view = useLiveQuery(() => platformQueries.agentView(agentId), agentId ?? '', { intervalMs: 2_000, live: true });
  const agents = view.data?.agents ?? [];
  const chosen = agentId ?? agents[0]?.agentId;

  useEffect(() => {
    if (agentId === undefined && agents.length > 0) select(agents[0].agentId);
  }, [agentId, agents.length > 0]);

  if (view.data && agents.length === 0) {
    return <EmptyState title="No agent memory yet">Conversations written by the agent-memory blocks appear here, per agent.</EmptyState>;
  }
  const memoriesByUser = new Map<string, NonNullable<typeof view.data>['memories']>();
  for (const m of view.data?.memories ?? []) memoriesByUser.set(m.userId, [...(memoriesByUser.get(m.userId) ?? []), m]);

  return (
    <div className="pv-agents">
      <nav className="pv-namespaces" aria-label="Agents">
        {agents.map((a) => (
          <button key={a.agentId} type="button" aria-current={a.agentId === chosen ? 'true' : undefined} onClick={() => select(a.agentId)}>
            {a.agentId} <span className="muted">{a.conversations}</span>
          </button>
        ))}
      </nav>
      <div className="pv-agent-main">
        {chosen ? <AgentSearch agentId={chosen} onOpen={(t) => select(chosen, t)} /> : null}
        <table className="pv-table" aria-label="Conversations">
          <thead>
            <tr>
              <th>Conversation</th>
              <th>User</th>
              <th>Title</th>
              <th>Turns</th>
              <th>Working memory</th>
              <th>Last activity</th>
            </tr>
          </thead>
          <tbody>
            {(view.data?.conversations ?? []).map((c) => (
              <tr key={c.threadKey} aria-selected={c.threadKey === threadKey} className={c.threadKey === threadKey ? 'selected' : undefined}>
                <td>
                  <button type="button" className="link" onClick={() => select(chosen, c.threadKey)}>
                    {c.threadKey}
                  </button>
                </td>
                <td>{c.userId ?? <span className="muted">nobody</span>}</td>
                <td>{c.title ?? ''}</td>
                <td>{c.turns}</td>
                <td>{c.workingBytes > 0 ? `${formatBytes(c.workingBytes)} · iteration ${c.iteration} · ${counted(c.tokens, 'token')}` : <span className="muted">none saved</span>}</td>
                <td>{clockTime(c.updatedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {chosen && threadKey ? <ConversationView key={`${chosen}\0${threadKey}`} agentId={chosen} threadKey={threadKey} onDeleted={() => {
              select(chosen);
              view.refresh();
            }} /> : null}
        <h4>Memories per person</h4>
        {memoriesByUser.size === 0 ? <p className="muted">No curated memory.</p> : null}
        {[...memoriesByUser].map(([user, memories]) => (
          <details key={user} open className="pv-memories">
            <summary>
              {user} <span className="muted">{memories.length}</span>
            </summary>
            <ul>
              {memories.map((m) => (
                <li key={m.name}>
                  <code>{m.name}</code> <span className="muted">v{m.version} · {clockTime(m.updatedAt)}</span>
                  <div className="pv-turn-text">{m.content.kind === 'json' || m.content.kind === 'text' ? m.content.text : ''}</div>
                </li>
              ))}
            </ul>
          </details>
        ))}
      </div>
    </div>
  );
}

function AgentSearch({ agentId, onOpen }: { agentId: string; onOpen: (threadKey: string) => void }) {
  const [query, setQuery] = useState('');
  const [hits, setHits] = useState<AgentSearchHit[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  return (
    <form
      className="pv-search"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        setError(undefined);
        platformQueries.searchAgentMemory(agentId, query).then(setHits, (err: Error) => setError(err.message));
      }}
    >
      <input type="search" aria-label="Search the agent's memory" placeholder="Search turns and memories" value={query} onChange={(e) => setQuery(e.currentTarget.value)} />
      <button type="submit">Search</button>
      {error ? <span className="error">{error}</span> : null}
      {hits ? (
        <ul className="pv-hits" aria-label="Search results">
          {hits.length === 0 ? <li className="muted">Nothing matches.</li> : null}
          {hits.map((h, i) => (
            <li key={i}>
              {h.kind === 'turn' ? (
                <button type="button" className="link" onClick={() => onOpen(h.threadKey)}>
                  {h.threadKey} #{h.seq}
                </button>
              ) : (
                <span>
                  memory <code>{h.name}</code> of {h.userId}
                </span>
              )}{' '}
              <span className="pv-turn-text">{preview(h.kind === 'turn' ? h.turn : h.content)}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </form>
  );
}

function preview(v: ValuePreview): string {
  return v.kind === 'json' || v.kind === 'text' ? v.text.replace(/\s+/g, ' ').slice(0, 160) : '';
}

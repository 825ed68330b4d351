import { platformQueries } from '../../api/platform-queries.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { useLiveQuery } from '../../components/use-live-query.ts';
import type { ValuePreview } from '../../../shared/platform-views.ts';
import { clockTime } from '../../shell/format.ts';

/** One conversation's turns in order, with seq and time; delete erases it on the platform. */
export function ConversationView({ agentId, threadKey, onDeleted }: { agentId: string; threadKey: string; onDeleted: () => void }) {
  const detail = useLiveQuery(() => platformQueries.agentConversation(agentId, threadKey), `${agentId}\0${threadKey}`, { intervalMs: 2_000, live: true });
  const d = detail.data;
  return (
    <section className="pv-conversation" aria-label={`Conversation ${threadKey}`}>
      <div className="pv-title-row">
        <h3 className="pv-title">{threadKey}</h3>
        <ConfirmButton
          label="Delete conversation…"
          question={`Erase ${threadKey} (turns, working memory, search entries) from the platform?`}
          confirmLabel="Delete"
          onConfirm={() => void platformQueries.deleteAgentConversation(agentId, threadKey).then(onDeleted)}
        />
      </div>
      {d === null ? <p className="muted">This conversation no longer exists.</p> : null}
      {d ? (
        <>
          <p className="muted">
            {d.conversation.userId ? `with ${d.conversation.userId} · ` : ''}version {d.conversation.version} · started {clockTime(d.conversation.createdAt)}
          </p>
          <ol className="pv-turns" aria-label="Turns">
            {d.turns.map((t) => (
              <li key={t.seq} data-seq={t.seq}>
                <span className="pv-turn-head">
                  #{t.seq} <span className="muted">{clockTime(t.createdAt)}</span> {t.role ? <strong>{t.role}</strong> : null}
                </span>
                <pre className="pv-turn-text">{turnText(t.turn)}</pre>
              </li>
            ))}
          </ol>
          {d.moreTurns ? <p className="muted">Only the first 500 turns are shown.</p> : null}
        </>
      ) : null}
    </section>
  );
}

/** A chat turn `{role, content: "…"}` reads as its content; any other turn as its JSON. */
function turnText(turn: ValuePreview): string {
  if (turn.kind !== 'json' && turn.kind !== 'text') return '';
  if (turn.kind === 'json' && !turn.truncated) {
    try {
      const parsed = JSON.parse(turn.text) as { content?: unknown };
      if (typeof parsed.content === 'string' && Object.keys(parsed).every((k) => k === 'role' || k === 'content')) return parsed.content;
    } catch {
      // Shown as it is below.
    }
  }
  return turn.text;
}

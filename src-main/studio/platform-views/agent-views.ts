import type { AgentSearchHit } from '../../../shared/platform-views.ts';
import type { PlatformViewsApi } from '../../../shared/studio-api.ts';
import type { PlatformInspection } from '../../platform/index.ts';
import { previewText } from './value-preview.ts';

const TURNS_SHOWN = 500;

type AgentMethods = Pick<PlatformViewsApi, 'agentView' | 'agentConversation' | 'searchAgentMemory' | 'deleteAgentConversation'>;

/** Agent memory as the Storage panel shows it: agents → conversations → turns, memories per person, search. */
export function agentViewsApi(agents: PlatformInspection['agents']): AgentMethods {
  return {
    async agentView(agentId) {
      const list = await agents.agents();
      const chosen = agentId ?? list[0]?.agentId; // null over the web transport, like undefined
      if (chosen === undefined) return { agents: list, conversations: [], memories: [] };
      return {
        agents: list,
        conversations: await agents.conversations(chosen),
        memories: (await agents.memories(chosen)).map((m) => ({
          userId: m.userId,
          name: m.name,
          version: m.version,
          updatedAt: m.updatedAt,
          content: previewText(m.content),
        })),
      };
    },
    async agentConversation(agentId, threadKey) {
      const conversation = await agents.conversation(agentId, threadKey);
      if (!conversation) return null;
      const stored = await agents.turns(agentId, threadKey, 0, TURNS_SHOWN + 1);
      return {
        agentId,
        conversation,
        turns: stored.slice(0, TURNS_SHOWN).map((t) => {
          const role = roleOf(t.turn);
          return { seq: t.seq, createdAt: t.createdAt, turn: previewText(t.turn), ...(role ? { role } : {}) };
        }),
        moreTurns: stored.length > TURNS_SHOWN,
      };
    },
    async searchAgentMemory(agentId, query, userId) {
      const hits = await agents.search(agentId, query, userId || undefined);
      if (!hits) throw new Error(`"${query}" has no word to search for; type a word from a turn or a memory`);
      return hits.map(
        (h): AgentSearchHit =>
          h.kind === 'turn'
            ? { kind: 'turn', score: h.score, threadKey: h.threadKey, seq: h.seq, createdAt: h.createdAt, turn: previewText(h.turn), ...(h.userId ? { userId: h.userId } : {}) }
            : { kind: 'memory', score: h.score, userId: h.userId, name: h.name, updatedAt: h.updatedAt, content: previewText(h.content) },
      );
    },
    async deleteAgentConversation(agentId, threadKey) {
      return agents.deleteConversation(agentId, threadKey);
    },
  };
}


function roleOf(turnJson: string): string | undefined {
  try {
    const turn = JSON.parse(turnJson) as { role?: unknown };
    return typeof turn.role === 'string' ? turn.role : undefined;
  } catch {
    return undefined;
  }
}

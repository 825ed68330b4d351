import { describe, expect, it } from 'vitest';
import { Coalescer } from './coalescer.ts';

/** A statement that answers when the test says so, recording the batches it was sent. */
function statement() {
  const batches: number[][] = [];
  const answers: Array<(fail?: Error) => void> = [];
  const coalescer = new Coalescer<number, string>(
    (inputs) =>
      new Promise((resolve, reject) => {
        batches.push(inputs);
        answers.push((fail) => (fail ? reject(fail) : resolve(inputs.map((i) => `answer ${i}`))));
      }),
  );
  const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  return { coalescer, batches, answer: (fail?: Error) => answers.shift()!(fail), nextTurn };
}

describe('coalescing requests into one statement', () => {
  it('sends the requests of one turn of the event loop as one statement, each answered with its own result', async () => {
    const { coalescer, batches, answer, nextTurn } = statement();
    const answered = [1, 2, 3].map((i) => coalescer.submit(i));
    await nextTurn();
    expect(batches).toEqual([[1, 2, 3]]);
    answer();
    expect(await Promise.all(answered)).toEqual(['answer 1', 'answer 2', 'answer 3']);
  });

  it('never adds a request to a statement already on its way: it goes in the next one, with the others that came meanwhile', async () => {
    const { coalescer, batches, answer, nextTurn } = statement();
    const first = coalescer.submit(1);
    await nextTurn();
    // Made while statement [1] runs (say, after a write that [1] cannot have seen was acknowledged).
    const later = [coalescer.submit(2), coalescer.submit(3)];
    await nextTurn();
    expect(batches).toEqual([[1]]);
    answer();
    await first;
    expect(batches).toEqual([[1], [2, 3]]);
    answer();
    expect(await Promise.all(later)).toEqual(['answer 2', 'answer 3']);
  });

  it('fails every request of a statement that fails, and goes on with the next ones', async () => {
    const { coalescer, batches, answer, nextTurn } = statement();
    const failing = [coalescer.submit(1), coalescer.submit(2)];
    await nextTurn();
    const after = coalescer.submit(3);
    answer(new Error('connection lost'));
    for (const f of failing) await expect(f).rejects.toThrow('connection lost');
    expect(batches).toEqual([[1, 2], [3]]);
    answer();
    expect(await after).toBe('answer 3');
  });
});

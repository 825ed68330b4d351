import { beforeEach, describe, expect, it } from 'vitest';
import type { CursorContext } from '../features/flows/analysis/cursor-context.ts';
import { cursorFlowOf, nextMoment } from './flows-slice.ts';
import { useStudio } from './studio-store.ts';

const at = (key: string, flow: string | undefined, offset = 0, stepPath?: string, movedAt = nextMoment()) => ({ key, offset, context: { path: '', onKey: false, flow, stepPath } satisfies CursorContext, movedAt });

describe('the flow the graph shows', () => {
  beforeEach(() => useStudio.setState({ openFile: undefined, cursor: undefined, graphFlow: undefined }));

  it('keeps a picked flow while the cursor stays in its flow, and drops it when the cursor moves to another', () => {
    const s = useStudio.getState();
    s.setOpenFile({ integration: 'shop', file: 'flows.yaml' });
    s.setCursor(at('shop/flows.yaml', 'orders'));
    s.setGraphFlow('refunds');
    s.setCursor(at('shop/flows.yaml', 'orders', 40));
    expect(useStudio.getState().graphFlow).toBe('refunds');
    s.setCursor(at('shop/flows.yaml', 'billing', 400));
    expect(useStudio.getState().graphFlow).toBeUndefined();
  });

  it('keeps a flow picked in a file just opened when that file\'s first cursor context arrives after the pick', () => {
    const s = useStudio.getState();
    s.setOpenFile({ integration: 'small', file: 'big.yaml' });
    s.setCursor(at('small/big.yaml', 'flow-2'));
    s.setOpenFile({ integration: 'large', file: 'big.yaml' });
    s.setGraphFlow('flow-40');
    s.setCursor(at('large/big.yaml', 'flow-0'));
    expect(useStudio.getState().graphFlow).toBe('flow-40');
  });

  it('forgets the previous file\'s pick when another file opens, not when the same one is shown again', () => {
    const s = useStudio.getState();
    s.setOpenFile({ integration: 'shop', file: 'flows.yaml' });
    s.setGraphFlow('refunds');
    s.setOpenFile({ integration: 'shop', file: 'flows.yaml' });
    expect(useStudio.getState().graphFlow).toBe('refunds');
    s.setOpenFile({ integration: 'shop', file: 'more.yaml' });
    expect(useStudio.getState().graphFlow).toBeUndefined();
  });

  it('follows the cursor of the open file only, not the one left in the previous file', () => {
    const s = useStudio.getState();
    s.setOpenFile({ integration: 'small', file: 'big.yaml' });
    s.setCursor(at('small/big.yaml', 'flow-2'));
    expect(cursorFlowOf(useStudio.getState())).toBe('flow-2');
    s.setOpenFile({ integration: 'large', file: 'big.yaml' });
    expect(cursorFlowOf(useStudio.getState())).toBeUndefined();
    s.setCursor(at('large/big.yaml', 'flow-7'));
    expect(cursorFlowOf(useStudio.getState())).toBe('flow-7');
  });
});

describe('the graph’s selection and the text cursor', () => {
  beforeEach(() => {
    useStudio.setState({ openFile: undefined, cursor: undefined, graphFlow: undefined, graphSelection: [] });
    useStudio.getState().setOpenFile({ integration: 'shop', file: 'flows.yaml' });
  });

  it('selects the step the caret moved into', () => {
    useStudio.getState().setCursor(at('shop/flows.yaml', 'orders', 40, 'flows.orders.steps[1]'));
    expect(useStudio.getState().graphSelection).toEqual(['flows.orders.steps[1]']);
  });

  it('keeps a node picked on the graph when the context of an earlier caret move arrives after the pick', () => {
    // A field of the form wrote its step, which put the caret there; the person then picked the error chain.
    const moved = nextMoment();
    useStudio.getState().setGraphSelection(['flows.orders.onError']);
    useStudio.getState().setCursor(at('shop/flows.yaml', 'orders', 40, 'flows.orders.steps[1]', moved));
    expect(useStudio.getState().graphSelection).toEqual(['flows.orders.onError']);
    // A move of the caret after the pick is followed again.
    useStudio.getState().setCursor(at('shop/flows.yaml', 'orders', 80, 'flows.orders.steps[2]'));
    expect(useStudio.getState().graphSelection).toEqual(['flows.orders.steps[2]']);
  });
});

import { describe, expect, it } from 'vitest';
import { listState } from './list-states';

describe('which state a list is in', () => {
  it('keeps the rows it had when fetching them again fails', () => {
    expect(listState({ isPending: false, isError: true, data: [{ id: 1 }] }, 1, 1)).toBe('rows');
  });

  it('shows the failure only for a list that never loaded', () => {
    expect(listState({ isPending: false, isError: true, data: undefined }, 0, 0)).toBe('failed');
  });

  it('says a list the server answered empty is empty, though a later refetch failed', () => {
    expect(listState({ isPending: false, isError: true, data: [] }, 0, 0)).toBe('empty');
  });
});

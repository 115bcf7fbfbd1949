import { describe, expect, it } from 'vitest';
import { record } from '../../testing';
import { groupByClass, groupCheckState, keepPending, toggleGroup } from './pending-selection';

describe('pending records by class', () => {
  it('groups by class_name, classes in numeric order (10 after 9), records in their order', () => {
    const a = record({ class_name: '10' });
    const b = record({ class_name: '7' });
    const c = record({ class_name: '9' });
    const d = record({ class_name: '7' });
    const groups = groupByClass([a, b, c, d]);
    expect([...groups.keys()]).toEqual(['7', '9', '10']);
    expect(groups.get('7')).toEqual([b, d]);
    expect(groups.get('10')).toEqual([a]);
    expect(groupByClass([]).size).toBe(0);
  });

  it("a class's checkbox is unchecked, indeterminate or checked by how many of its records are selected", () => {
    const group = [record({ id: 101 }), record({ id: 102 }), record({ id: 103 })];
    expect(groupCheckState(group, new Set())).toBe('unchecked');
    expect(groupCheckState(group, new Set([999]))).toBe('unchecked');
    expect(groupCheckState(group, new Set([102]))).toBe('indeterminate');
    expect(groupCheckState(group, new Set([101, 102, 103, 999]))).toBe('checked');
  });

  it('ticking a group selects all of it; unticking a full group clears only that group', () => {
    const group = [record({ id: 201 }), record({ id: 202 })];
    expect([...toggleGroup(group, new Set([202, 5]))].sort()).toEqual([201, 202, 5].sort());
    expect([...toggleGroup(group, new Set([201, 202, 5]))]).toEqual([5]);
  });

  it('drops from the selection what is no longer pending', () => {
    expect([...keepPending(new Set([1, 2, 3]), [record({ id: 2 }), record({ id: 3 })])]).toEqual([2, 3]);
  });
});

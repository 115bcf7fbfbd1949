import { afterEach, describe, expect, it } from 'vitest';
import { i18n, showLanguage } from '../../i18n';
import { countOf, entityTexts, listCountText, selectionSummary } from './entity-texts';

const STUDENT = i18n.getFixedT('en', ['students', 'lists'] as const);

afterEach(async () => {
  await showLanguage('en');
});

describe('the counts a list shows', () => {
  it('names one and many, with thousands separated', () => {
    expect(countOf(STUDENT, 1)).toBe('1 student');
    expect(countOf(STUDENT, 0)).toBe('0 students');
    expect(countOf(STUDENT, 1234)).toBe('1,234 students');
  });

  it('says how many match while searching', () => {
    expect(listCountText(STUDENT, 3, 1200, false)).toBe('1,200 students');
    expect(listCountText(STUDENT, 1, 1200, true)).toBe('1 student of 1,200');
  });

  it('counts in the language in use, in Western digits', async () => {
    await showLanguage('hi');
    const hindi = i18n.getFixedT('hi', ['students', 'lists'] as const);
    expect(listCountText(hindi, 1, 1200, true)).toBe('1,200 में से 1 विद्यार्थी');
  });
});

describe('the selection summary', () => {
  it('says when every matching row is selected, and counts those the search hides', () => {
    expect(selectionSummary(STUDENT, 1234, { total: 1234, selected: 1234, searching: true })).toBe(
      'All 1,234 matching students selected',
    );
    expect(selectionSummary(STUDENT, 60, { total: 60, selected: 60, searching: false })).toBe(
      'All 60 students selected',
    );
    expect(selectionSummary(STUDENT, 1, { total: 5, selected: 1, searching: false })).toBe('1 student selected');
    expect(selectionSummary(STUDENT, 5, { total: 10, selected: 2, searching: true })).toBe(
      '5 students selected (3 not shown by the search)',
    );
  });

  it('does not call a single row "all"', () => {
    expect(selectionSummary(STUDENT, 1, { total: 1, selected: 1, searching: false })).toBe('1 student selected');
  });
});

describe('the words of a list', () => {
  it("gives every control, confirmation and toast from the list's namespace", () => {
    const texts = entityTexts(i18n.getFixedT('en', ['teachers', 'lists']));
    expect(texts).toMatchObject({
      table: 'Teachers',
      add: 'Add Teacher',
      search: 'Search teachers',
      fetchFailed: 'Failed to fetch teachers',
      deleted: 'Teacher deleted successfully.',
      deleteFailed: 'Failed to delete teacher',
      deleteSelectedFailed: 'Failed to delete teachers',
    });
    expect(texts.selectAll(true)).toBe('Select all matching teachers');
    expect(texts.selectAll(false)).toBe('Select all teachers');
    expect(texts.confirmDelete('Priya Sharma')).toBe('Are you sure you want to delete Priya Sharma?');
    expect(texts.deleteSelected(3)).toBe('Delete Selected (3)');
    expect(texts.confirmDeleteSelected(3)).toBe('Are you sure you want to delete 3 teacher(s)?');
    expect(texts.deletedSelected(3)).toBe('Successfully deleted 3 teacher(s).');
  });
});

import { queryOptions, useQuery } from '@tanstack/react-query';
import { type CentreClass, type CentreSubject, CLASS_NAMES, SUBJECTS } from '@tuitiondesk/contract';
import { useMemo } from 'react';
import { apiRequest } from './api-client';
import { rememberClassLabels } from './class-labels-known';

/**
 * The centre's classes (or batches) and subjects (ADR 043), which every class select and filter of the
 * console offers: one query each, shared, read from `GET /classes` and `GET /subjects`. Until the list
 * is known (or when it cannot be read) the spec's defaults stand in, which is what a new centre has.
 */
export const CENTRE_LISTS_KEY = ['centre-lists'] as const;

export const centreClassesQuery = () =>
  queryOptions({
    queryKey: [...CENTRE_LISTS_KEY, 'classes'] as const,
    queryFn: async ({ signal }) => {
      const classes = await apiRequest<CentreClass[]>('/classes', { signal });
      rememberClassLabels(classes);
      return classes;
    },
    staleTime: 5 * 60_000,
  });

export const centreSubjectsQuery = () =>
  queryOptions({
    queryKey: [...CENTRE_LISTS_KEY, 'subjects'] as const,
    queryFn: ({ signal }) => apiRequest<CentreSubject[]>('/subjects', { signal }),
    staleTime: 5 * 60_000,
  });

/** A class as a select offers it. */
export interface ClassChoiceItem {
  value: string;
  /** "Class 7", "Class 11 – A", "Morning batch". */
  label: string;
  /** What a select labelled "Class" shows: "7" for the spec's "Class 7", else the label. */
  short: string;
  archived: boolean;
}

/**
 * A class as a sentence names it: the spec's "Class 7" in the language in use (`classWord`, the
 * glossary's word for class and the value: "कक्षा 7"), a class the centre labelled itself ("Morning
 * batch", "Class 11 – A") as written, never "Class Morning batch" (ADR 043).
 */
export function classInWords(value: string, label: string, classWord: (value: string) => string): string {
  return label === `Class ${value}` ? classWord(value) : label;
}

const shortLabel = (value: string, label: string) => (label === `Class ${value}` ? value : label);

const DEFAULT_CLASSES: ClassChoiceItem[] = CLASS_NAMES.map((value) => ({
  value,
  label: `Class ${value}`,
  short: value,
  archived: false,
}));

function toChoice(item: CentreClass): ClassChoiceItem {
  return {
    value: item.value,
    label: item.display_label,
    short: shortLabel(item.value, item.display_label),
    archived: item.archived,
  };
}

export interface ClassChoices {
  /** The classes that may be chosen now (not archived), in the centre's order. */
  active: ClassChoiceItem[];
  /** Every class, archived ones too: what a record may already hold. */
  all: ClassChoiceItem[];
  /** A stored value's label ("Class 7"); the value itself for a class the list does not hold. */
  labelOf: (value: string) => string;
  /** The active classes, and `keep` (a record's own, perhaps archived, class) where it is not among them. */
  offered: (keep?: string | readonly string[]) => ClassChoiceItem[];
  isLoading: boolean;
  /** The centre has exactly the spec's classes 7–10, in that order (what a hint may then name in words). */
  isDefault: boolean;
}

function choicesFrom(all: ClassChoiceItem[], isLoading: boolean): ClassChoices {
  const active = all.filter((item) => !item.archived);
  return {
    active,
    isDefault: active.map((item) => item.label).join('|') === DEFAULT_CLASSES.map((item) => item.label).join('|'),
    all,
    labelOf: (value) => all.find((item) => item.value === value)?.label ?? value,
    offered: (keep) => {
      const kept = (typeof keep === 'string' ? [keep] : (keep ?? [])).filter(Boolean);
      const extra = kept
        .filter((value) => !active.some((item) => item.value === value))
        .map(
          (value) => all.find((item) => item.value === value) ?? { value, label: value, short: value, archived: true },
        );
      return [...active, ...extra];
    },
    isLoading,
  };
}

/**
 * The centre's classes for a select or filter. `enabled` false reads only what is already known (a
 * filter that asks when it is opened); the spec's defaults stand in until then.
 */
export function useClassChoices(options: { enabled?: boolean } = {}): ClassChoices {
  const query = useQuery({ ...centreClassesQuery(), enabled: options.enabled ?? true });
  // The same lists (and functions) while the answer is the same: selects and memos downstream keep still.
  return useMemo(() => {
    if (query.data) rememberClassLabels(query.data);
    return choicesFrom(query.data ? query.data.map(toChoice) : DEFAULT_CLASSES, query.isLoading);
  }, [query.data, query.isLoading]);
}

export interface SubjectChoiceItem {
  value: string;
  label: string;
  archived: boolean;
}

const DEFAULT_SUBJECTS: SubjectChoiceItem[] = SUBJECTS.map((value) => ({ value, label: value, archived: false }));

/** The centre's subjects: the active ones to choose from, and every one to name a stored value. */
export function useSubjectChoices(): { active: SubjectChoiceItem[]; all: SubjectChoiceItem[] } {
  const query = useQuery(centreSubjectsQuery());
  return useMemo(() => {
    const all = query.data
      ? query.data.map((item) => ({ value: item.value, label: item.label, archived: item.archived }))
      : DEFAULT_SUBJECTS;
    return { active: all.filter((item) => !item.archived), all };
  }, [query.data]);
}

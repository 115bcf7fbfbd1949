import { ValidationError } from './errors';

/**
 * The ids a request's records name, each once, in order. A record naming an id an earlier record
 * named is refused (422 on that record's field), so one request never writes the same row twice.
 */
export function distinctIds(ids: number[], field: (index: number) => string, noun: 'student' | 'teacher'): number[] {
  const seen = new Set<number>();
  ids.forEach((id, index) => {
    if (seen.has(id)) throw new ValidationError(field(index), 'validation.listed_twice', { noun, id });
    seen.add(id);
  });
  return [...seen];
}

import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';

/**
 * A change to a list's rows (add, edit, delete): once the server has it, the list's queries under
 * `listKey` are fetched again, and the change counts as done only when they have been.
 */
export function useListMutation<Input, Output>(listKey: QueryKey, mutationFn: (input: Input) => Promise<Output>) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => client.invalidateQueries({ queryKey: listKey }) });
}

import { useCallback, useState } from 'react';

type EditorState<T> = { mode: 'add' } | { mode: 'edit'; row: T } | null;

/**
 * Which row the add/edit dialog is open for, and its failed save's reason. Opening the dialog clears
 * an earlier reason; the dialog is mounted only while open, so each opening starts from fresh fields.
 */
export function useEditor<T>() {
  const [state, setState] = useState<EditorState<T>>(null);
  const [error, setError] = useState<string | null>(null);
  const openAdd = useCallback(() => {
    setError(null);
    setState({ mode: 'add' });
  }, []);
  const openEdit = useCallback((row: T) => {
    setError(null);
    setState({ mode: 'edit', row });
  }, []);
  const close = useCallback(() => setState(null), []);
  return {
    isOpen: state !== null,
    /** The row being edited; undefined while adding. */
    editing: state?.mode === 'edit' ? state.row : undefined,
    openAdd,
    openEdit,
    close,
    error,
    setError,
  };
}

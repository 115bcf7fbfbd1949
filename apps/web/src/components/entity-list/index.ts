/** The list scaffold: a list screen given as data (EntityListSpec), its add/edit dialog frame, and the data hooks. */
export { EntityFormDialog } from './entity-form-dialog';
export { EntityList, type EntityListProps, type EntityListSpec } from './entity-list';
export type { EntityColumn, EntityRowsProps } from './entity-table';
export { useListMutation } from './list-mutation';
export type { EmptyText } from './list-states';
export { NameCell } from './name-cell';
export type { RowAction } from './row-actions';
export { useEditor } from './use-editor';

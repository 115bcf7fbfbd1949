import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import KeyIcon from '@mui/icons-material/Key';
import {
  Avatar,
  Box,
  Checkbox,
  IconButton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import type { Student } from '@tuitiondesk/contract';
import { memo } from 'react';

export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = words[0]?.[0] ?? '?';
  const last = words.length > 1 ? (words[words.length - 1]?.[0] ?? '') : '';
  return `${first}${last}`.toUpperCase();
}

interface RowProps {
  student: Student;
  selectable: boolean;
  selected: boolean;
  canDelete: boolean;
  onToggle: (id: number) => void;
  onEdit: (student: Student) => void;
  onDelete: (student: Student) => void;
  onParentAccess: (student: Student) => void;
}

// Rows re-render only when their own student or selection changes: paging and selecting stay quick.
const StudentRow = memo(function StudentRow({
  student,
  selectable,
  selected,
  canDelete,
  onToggle,
  onEdit,
  onDelete,
  onParentAccess,
}: RowProps) {
  return (
    <TableRow hover selected={selected}>
      {selectable && (
        <TableCell padding="checkbox">
          <Checkbox
            checked={selected}
            onChange={() => onToggle(student.id)}
            slotProps={{ input: { 'aria-label': `Select ${student.full_name}` } }}
          />
        </TableCell>
      )}
      <TableCell>
        <Stack direction="row" spacing={1.5} useFlexGap sx={{ alignItems: 'center' }}>
          <Avatar
            sx={{ width: 32, height: 32, fontSize: 14, bgcolor: 'primary.main', display: { xs: 'none', sm: 'flex' } }}
            aria-hidden
          >
            {initialsOf(student.full_name)}
          </Avatar>
          <Typography variant="body2" sx={{ fontWeight: 500 }}>
            {student.full_name}
          </Typography>
        </Stack>
      </TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{student.unique_id}</TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>Class {student.class_name}</TableCell>
      <TableCell>
        <Typography variant="body2">{student.parent_name || '-'}</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
          {student.parent_phone}
        </Typography>
      </TableCell>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
        <Tooltip title="Parent Access">
          <IconButton
            aria-label={`Parent access for ${student.full_name}`}
            onClick={() => onParentAccess(student)}
            size="small"
          >
            <KeyIcon fontSize="small" />
          </IconButton>
        </Tooltip>
        <Tooltip title="Edit">
          <IconButton aria-label={`Edit ${student.full_name}`} onClick={() => onEdit(student)} size="small">
            <EditIcon fontSize="small" />
          </IconButton>
        </Tooltip>
        {canDelete && (
          <Tooltip title="Delete">
            <IconButton
              aria-label={`Delete ${student.full_name}`}
              onClick={() => onDelete(student)}
              size="small"
              color="error"
            >
              <DeleteIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
      </TableCell>
    </TableRow>
  );
});

/** One page of the students table. Only admins get the checkboxes and delete buttons. */
export function StudentsTable({
  rows,
  canDelete,
  header,
  isSelected,
  onToggle,
  onToggleAll,
  onEdit,
  onDelete,
  onParentAccess,
}: {
  rows: readonly Student[];
  canDelete: boolean;
  header: { checked: boolean; indeterminate: boolean };
  isSelected: (id: number) => boolean;
  onToggle: (id: number) => void;
  onToggleAll: () => void;
  onEdit: (student: Student) => void;
  onDelete: (student: Student) => void;
  onParentAccess: (student: Student) => void;
}) {
  return (
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table
        size="small"
        sx={{ minWidth: 720, '& td, & th': { py: 1 }, '& th': { whiteSpace: 'nowrap' } }}
        aria-label="Students"
      >
        <TableHead>
          <TableRow>
            {canDelete && (
              <TableCell padding="checkbox">
                <Checkbox
                  checked={header.checked}
                  indeterminate={header.indeterminate}
                  onChange={onToggleAll}
                  slotProps={{ input: { 'aria-label': 'Select all matching students' } }}
                />
              </TableCell>
            )}
            <TableCell>Student</TableCell>
            <TableCell>Student ID</TableCell>
            <TableCell>Class</TableCell>
            <TableCell>Parent Contact</TableCell>
            <TableCell align="right">
              <Box component="span" sx={{ pr: 1 }}>
                Actions
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((student) => (
            <StudentRow
              key={student.id}
              student={student}
              selectable={canDelete}
              selected={canDelete && isSelected(student.id)}
              canDelete={canDelete}
              onToggle={onToggle}
              onEdit={onEdit}
              onDelete={onDelete}
              onParentAccess={onParentAccess}
            />
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

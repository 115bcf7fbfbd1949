import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import LockResetIcon from '@mui/icons-material/LockReset';
import {
  Avatar,
  Box,
  Checkbox,
  Chip,
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
import type { Teacher } from '@tuitiondesk/contract';
import { memo } from 'react';

function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = words[0]?.[0] ?? '?';
  const last = words.length > 1 ? (words[words.length - 1]?.[0] ?? '') : '';
  return `${first}${last}`.toUpperCase();
}

function experienceText(teacher: Teacher): string {
  const years = teacher.experience_years;
  const experience = years > 0 ? `${years} year${years === 1 ? '' : 's'}` : '';
  return [teacher.qualification, experience].filter(Boolean).join(' · ');
}

interface RowProps {
  teacher: Teacher;
  selected: boolean;
  onToggle: (id: number) => void;
  onEdit: (teacher: Teacher) => void;
  onDelete: (teacher: Teacher) => void;
  onResetTwoFactor: (teacher: Teacher) => void;
}

const TeacherRow = memo(function TeacherRow({
  teacher,
  selected,
  onToggle,
  onEdit,
  onDelete,
  onResetTwoFactor,
}: RowProps) {
  const details = experienceText(teacher);
  return (
    <TableRow hover selected={selected}>
      <TableCell padding="checkbox">
        <Checkbox
          checked={selected}
          onChange={() => onToggle(teacher.id)}
          slotProps={{ input: { 'aria-label': `Select ${teacher.full_name}` } }}
        />
      </TableCell>
      <TableCell>
        <Stack direction="row" spacing={1.5} useFlexGap sx={{ alignItems: 'center' }}>
          <Avatar
            sx={{ width: 32, height: 32, fontSize: 14, bgcolor: 'secondary.main', display: { xs: 'none', sm: 'flex' } }}
            aria-hidden
          >
            {initialsOf(teacher.full_name)}
          </Avatar>
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="body2" sx={{ fontWeight: 500 }}>
              {teacher.full_name}
            </Typography>
            {details && (
              <Typography variant="caption" color="text.secondary">
                {details}
              </Typography>
            )}
          </Box>
        </Stack>
      </TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{teacher.unique_id}</TableCell>
      <TableCell>
        <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>
          {teacher.phone_number}
        </Typography>
        {teacher.email && (
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {teacher.email}
          </Typography>
        )}
      </TableCell>
      <TableCell>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
          {teacher.subjects.length === 0
            ? '-'
            : teacher.subjects.map((subject) => <Chip key={subject} label={subject} size="small" variant="outlined" />)}
        </Box>
      </TableCell>
      <TableCell>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
          {teacher.classes_assigned.length === 0
            ? '-'
            : teacher.classes_assigned.map((name) => <Chip key={name} label={`Class ${name}`} size="small" />)}
        </Box>
      </TableCell>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
        {teacher.two_factor_enabled && teacher.user_id !== null && (
          <Tooltip title="Reset two-factor sign-in (a lost phone)">
            <IconButton
              aria-label={`Reset two-factor sign-in for ${teacher.full_name}`}
              onClick={() => onResetTwoFactor(teacher)}
              size="small"
            >
              <LockResetIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
        <Tooltip title="Edit">
          <IconButton aria-label={`Edit ${teacher.full_name}`} onClick={() => onEdit(teacher)} size="small">
            <EditIcon fontSize="small" />
          </IconButton>
        </Tooltip>
        <Tooltip title="Delete">
          <IconButton
            aria-label={`Delete ${teacher.full_name}`}
            onClick={() => onDelete(teacher)}
            size="small"
            color="error"
          >
            <DeleteIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      </TableCell>
    </TableRow>
  );
});

/** One page of the teachers table (an admin-only screen). */
export function TeachersTable({
  rows,
  header,
  isSelected,
  onToggle,
  onToggleAll,
  onEdit,
  onDelete,
  onResetTwoFactor,
}: {
  rows: readonly Teacher[];
  header: { checked: boolean; indeterminate: boolean };
  isSelected: (id: number) => boolean;
  onToggle: (id: number) => void;
  onToggleAll: () => void;
  onEdit: (teacher: Teacher) => void;
  onDelete: (teacher: Teacher) => void;
  onResetTwoFactor: (teacher: Teacher) => void;
}) {
  return (
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table
        size="small"
        sx={{ minWidth: 960, '& td, & th': { py: 1 }, '& th': { whiteSpace: 'nowrap' } }}
        aria-label="Teachers"
      >
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox">
              <Checkbox
                checked={header.checked}
                indeterminate={header.indeterminate}
                onChange={onToggleAll}
                slotProps={{ input: { 'aria-label': 'Select all teachers' } }}
              />
            </TableCell>
            <TableCell sx={{ minWidth: 200 }}>Teacher</TableCell>
            <TableCell>Teacher ID</TableCell>
            <TableCell sx={{ minWidth: 180 }}>Contact</TableCell>
            <TableCell sx={{ minWidth: 200 }}>Subjects</TableCell>
            <TableCell sx={{ minWidth: 140 }}>Classes Assigned</TableCell>
            <TableCell align="right">
              <Box component="span" sx={{ pr: 1 }}>
                Actions
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((teacher) => (
            <TeacherRow
              key={teacher.id}
              teacher={teacher}
              selected={isSelected(teacher.id)}
              onToggle={onToggle}
              onEdit={onEdit}
              onDelete={onDelete}
              onResetTwoFactor={onResetTwoFactor}
            />
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

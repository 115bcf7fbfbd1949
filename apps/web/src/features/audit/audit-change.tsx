import { Box, Typography, useTheme } from '@mui/material';
import type { AuditEntry } from '@tuitiondesk/contract';
import { useTranslation } from '../../i18n';
import { changeLines, fieldLabel } from './audit-labels';

/** A row's before → after, one field a line; a creation shows what was set, a deletion what was there. */
export function AuditChange({ entry }: { entry: Pick<AuditEntry, 'entity' | 'before' | 'after'> }) {
  const { t } = useTranslation('audit');
  const lines = changeLines(t, entry);
  // Before, then after, in the reading direction: the arrow points from the one to the other. Each value
  // is isolated, so a Latin value in a right-to-left line does not carry the arrow's place with it.
  const arrow = useTheme().direction === 'rtl' ? ' ← ' : ' → ';
  if (lines.length === 0) return null;
  return (
    <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none' }}>
      {lines.map((line) => {
        const label = fieldLabel(t, line.field);
        return (
          <Typography component="li" variant="body2" key={line.field} sx={{ overflowWrap: 'anywhere' }}>
            {/* A field the screen names in the language in use; one it does not know yet is its stored
              column's name, in English in every language: said as English. */}
            <Box component="span" lang={label.known ? undefined : 'en'} sx={{ color: 'text.secondary' }}>
              {label.text}:
            </Box>{' '}
            {line.before !== undefined && line.after !== undefined ? (
              <>
                <Box component="span" sx={{ textDecoration: 'line-through', unicodeBidi: 'isolate' }}>
                  {line.before}
                </Box>
                {arrow}
                <Box component="strong" sx={{ unicodeBidi: 'isolate' }}>
                  {line.after}
                </Box>
              </>
            ) : (
              (line.after ?? line.before)
            )}
          </Typography>
        );
      })}
    </Box>
  );
}

import { Alert, Box, Chip, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import type { WhatsappLive, WhatsappSetup } from '@tuitiondesk/contract';
import { type TFunction, useTranslation } from '../../i18n';
import { formatDayTime, formatNumber } from '../../lib/dates';

const QUALITIES = ['GREEN', 'YELLOW', 'RED', 'UNKNOWN'] as const;
const TEMPLATE_STATUSES = ['APPROVED', 'PENDING', 'REJECTED', 'PAUSED', 'DISABLED'] as const;
const QUALITY_COLOURS = { GREEN: 'success', YELLOW: 'warning', RED: 'error', UNKNOWN: 'default' } as const;

/** Meta's words for a rating or a review status, in the language in use when it is one of Meta's known values. */
function qualityText(t: TFunction<'whatsapp'>, value: string | null): string {
  const known = QUALITIES.find((quality) => quality === value);
  return known ? t(`quality.${known}`) : (value ?? '-');
}

export function templateStatusText(t: TFunction<'whatsapp'>, value: string): string {
  const known = TEMPLATE_STATUSES.find((status) => status === value);
  return known ? t(`templateStatus.${known}`) : value;
}

/** A Latin value (a number, an id, a name) kept whole inside a right-to-left line. */
const isolated = { unicodeBidi: 'isolate', direction: 'ltr' } as const;

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Box sx={{ minWidth: 180, flex: '1 1 180px' }}>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Typography component="div">{children}</Typography>
    </Box>
  );
}

function LiveFacts({ live }: { live: WhatsappLive }) {
  const { t } = useTranslation('whatsapp');
  const quality = QUALITIES.find((q) => q === live.quality_rating) ?? 'UNKNOWN';
  return (
    <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 2 }}>
      <Fact label={t('live.number')}>
        <Box component="span" sx={isolated}>
          {live.display_phone_number ?? '-'}
        </Box>
        {live.verified_name && (
          <Typography variant="body2" color="text.secondary" component="div">
            {live.verified_name}
          </Typography>
        )}
      </Fact>
      <Fact label={t('live.quality')}>
        <Chip size="small" color={QUALITY_COLOURS[quality]} label={qualityText(t, live.quality_rating)} />
      </Fact>
      <Fact label={t('live.limit')}>
        {live.daily_limit === null
          ? t('live.unlimited')
          : t('live.limitValue', { limit: formatNumber(live.daily_limit) })}
      </Fact>
      <Fact label={t('live.templates')}>
        {t('live.templatesValue', {
          approved: formatNumber(live.approved_templates),
          total: formatNumber(live.templates.length),
        })}
      </Fact>
    </Stack>
  );
}

/** Connected or not, what Meta says of the number now, and when Meta last called. */
export function WhatsappStatus({ setup }: { setup: WhatsappSetup }) {
  const { t } = useTranslation('whatsapp');
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
        <Chip
          color={setup.connected ? 'success' : 'default'}
          label={setup.connected ? t('status.connected') : t('status.notConnected')}
        />
        {setup.phone_number_id && (
          <Typography variant="body2" color="text.secondary" sx={isolated}>
            {setup.phone_number_id}
          </Typography>
        )}
      </Stack>
      {setup.fixed_by_server && (
        <Alert severity="info">
          {t('status.fixed')}{' '}
          {`${t('status.accessToken')}: ${setup.access_token_set ? t('status.secretSet') : t('status.secretNotSet')}, ${t('status.appSecret')}: ${setup.app_secret_set ? t('status.secretSet') : t('status.secretNotSet')}`}
        </Alert>
      )}
      {setup.live_problem && <Alert severity="warning">{t('live.problem', { problem: setup.live_problem })}</Alert>}
      {setup.live && <LiveFacts live={setup.live} />}
      {setup.connected && (
        <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 2 }}>
          <Fact label={t('live.lastCallback')}>
            {setup.last_callback_at ? formatDayTime(setup.last_callback_at) : t('live.noCallback')}
          </Fact>
          {setup.connected_at && <Fact label={t('live.connectedAt')}>{formatDayTime(setup.connected_at)}</Fact>}
        </Stack>
      )}
    </Stack>
  );
}

/** The account's templates and where each is in Meta's review. */
export function WhatsappTemplates({ live }: { live: WhatsappLive }) {
  const { t } = useTranslation('whatsapp');
  if (live.templates.length === 0) return <Typography color="text.secondary">{t('templates.none')}</Typography>;
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={t('templates.title')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('templates.name')}</TableCell>
            <TableCell>{t('templates.language')}</TableCell>
            <TableCell>{t('templates.status')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {live.templates.map((template) => (
            <TableRow key={`${template.name}/${template.language}`}>
              <TableCell sx={{ ...isolated, wordBreak: 'break-all' }}>{template.name}</TableCell>
              <TableCell sx={isolated}>{template.language}</TableCell>
              <TableCell>
                <Chip
                  size="small"
                  variant="outlined"
                  color={
                    template.status === 'APPROVED' ? 'success' : template.status === 'REJECTED' ? 'error' : 'default'
                  }
                  label={templateStatusText(t, template.status)}
                />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

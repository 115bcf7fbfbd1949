import { Stack } from '@mui/material';
import { PageHeader } from '../../components/page-header';
import { useTranslation } from '../../i18n';
import { ListPanel } from './list-panel';

/**
 * Classes and subjects (admins, ADR 043): the centre's own classes or batches and its subjects, which
 * every class select and filter of the console offers, the imports take and the templates list.
 */
export default function ClassesPage() {
  const { t } = useTranslation('classes');
  return (
    <>
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <Stack spacing={3}>
        <ListPanel kind="classes" />
        <ListPanel kind="subjects" />
      </Stack>
    </>
  );
}

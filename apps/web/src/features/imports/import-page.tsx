import { Box, Card, CardContent, CardHeader, Grid, List, ListItem, ListItemText } from '@mui/material';
import { PageHeader } from '../../components/page-header';
import { type TFunction, useTranslation } from '../../i18n';
import { useDefaultCountryCode } from '../../lib/phone-settings';
import { DangerZone } from './danger-zone';
import { ImportCard } from './import-card';

/** What the Import Instructions card lists; phones are read with the centre's default country code. */
function instructions(t: TFunction<'imports'>, countryCode: string | undefined) {
  return [
    { primary: t('instructions.classes'), secondary: t('instructions.classesText') },
    {
      primary: countryCode ? t('instructions.phones', { code: countryCode }) : t('instructions.phonesCentre'),
      secondary: t('instructions.phonesText'),
    },
    { primary: t('instructions.emails'), secondary: t('instructions.emailsText') },
    { primary: t('instructions.columns'), secondary: t('instructions.columnsText') },
    { primary: t('instructions.family'), secondary: t('instructions.familyText') },
    { primary: t('instructions.check'), secondary: t('instructions.checkText') },
  ];
}

/** Import Data: students and teachers from Excel files, and, in the danger zone at the bottom, clearing all of them. */
export default function ImportPage() {
  const { t } = useTranslation('imports');
  const countryCode = useDefaultCountryCode();

  return (
    <Box>
      <PageHeader title={t('page.title')} subtitle={t('page.subtitle')} />

      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 6 }}>
          <ImportCard kind="students" title={t('page.students')} description={t('page.studentsText')} />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <ImportCard kind="teachers" title={t('page.teachers')} description={t('page.teachersText')} />
        </Grid>
        <Grid size={12}>
          <Card variant="outlined">
            <CardHeader title={t('page.instructions')} slotProps={{ title: { component: 'h3', variant: 'h6' } }} />
            <CardContent sx={{ pt: 0 }}>
              <List dense disablePadding>
                {instructions(t, countryCode).map((item) => (
                  <ListItem key={item.primary} disableGutters>
                    <ListItemText primary={item.primary} secondary={item.secondary} />
                  </ListItem>
                ))}
              </List>
            </CardContent>
          </Card>
        </Grid>
      </Grid>
      <DangerZone />
    </Box>
  );
}

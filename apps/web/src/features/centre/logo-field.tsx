import { Avatar, Box, Button, Stack, Typography } from '@mui/material';
import { CENTRE_LOGO_MAX_BYTES, CENTRE_LOGO_TYPES, type Centre } from '@tuitiondesk/contract';
import { type ChangeEvent, useRef, useState } from 'react';
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { useRemoveLogo, useUploadLogo } from './api';

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** The centre's logo: a preview, upload or replace (PNG, JPEG or WebP, at most 256 KB), remove. */
export function LogoField({ centre }: { centre: Centre | undefined }) {
  const { t } = useTranslation('centre');
  const { showToast } = useToast();
  const upload = useUploadLogo();
  const remove = useRemoveLogo();
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string>();
  const busy = upload.isPending || remove.isPending;

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setProblem(undefined);
    if (!(CENTRE_LOGO_TYPES as readonly string[]).includes(file.type)) {
      setProblem(t('logo.wrongType'));
      return;
    }
    if (file.size > CENTRE_LOGO_MAX_BYTES) {
      setProblem(t('logo.tooLarge', { size: Math.ceil(file.size / 1024) }));
      return;
    }
    upload.mutate(
      { image_base64: await readAsDataUrl(file) },
      {
        onSuccess: () => showToast(t('logo.saved'), 'success'),
        onError: (error) => setProblem(errorText(error, t('logo.failed')).replace(/^image_base64: /, '')),
      },
    );
  };

  return (
    <Box>
      <Typography variant="subtitle2" component="h3" gutterBottom>
        {t('logo.label')}
      </Typography>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Avatar
          variant="rounded"
          src={centre?.logo_url ?? undefined}
          alt={centre?.logo_url ? t('logo.alt', { name: centre.name }) : undefined}
          sx={{ width: 64, height: 64, bgcolor: 'grey.100', color: 'text.secondary', fontSize: 12 }}
        >
          {t('logo.none')}
        </Avatar>
        <input
          ref={input}
          type="file"
          accept={CENTRE_LOGO_TYPES.join(',')}
          hidden
          data-testid="logo-input"
          onChange={(event) => void choose(event)}
        />
        <Button variant="outlined" disabled={!centre || busy} onClick={() => input.current?.click()}>
          {centre?.logo_url ? t('logo.replace') : t('logo.upload')}
        </Button>
        {centre?.logo_url && (
          <Button
            color="error"
            disabled={busy}
            onClick={() =>
              remove.mutate(undefined, {
                onSuccess: () => showToast(t('logo.removed'), 'success'),
                onError: (error) => setProblem(errorText(error, t('logo.failed'))),
              })
            }
          >
            {t('logo.remove')}
          </Button>
        )}
      </Stack>
      <Typography
        variant="caption"
        color={problem ? 'error' : 'text.secondary'}
        component="p"
        role={problem ? 'alert' : undefined}
        sx={{ mt: 1 }}
      >
        {problem ?? t('logo.hint')}
      </Typography>
    </Box>
  );
}

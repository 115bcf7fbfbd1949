import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import DownloadIcon from '@mui/icons-material/Download';
import FactCheckIcon from '@mui/icons-material/FactCheck';
import InsertDriveFileIcon from '@mui/icons-material/InsertDriveFile';
import UploadIcon from '@mui/icons-material/Upload';
import { Alert, Box, Button, Card, CardContent, CardHeader, Stack, Typography } from '@mui/material';
import { type ChangeEvent, type DragEvent, useId, useRef, useState } from 'react';
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { type AnyImportResult, type ImportKind, useDownloadTemplate, useImportFile } from './api';
import { ACCEPT, formatFileSize, isExcelFileName } from './import-files';
import { ImportResult } from './import-result';

interface Props {
  kind: ImportKind;
  title: string;
  description: string;
}

/** One import: template, file picker with drag and drop, Upload and Check file, and what came back. */
export function ImportCard({ kind, title, description }: Props) {
  const { t } = useTranslation('imports');
  const { showToast } = useToast();
  const template = useDownloadTemplate(kind);
  const upload = useImportFile(kind);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<AnyImportResult | null>(null);
  const [dragging, setDragging] = useState(false);

  const choose = (chosen: File | undefined) => {
    if (!chosen) return;
    setResult(null);
    if (!isExcelFileName(chosen.name)) {
      setFile(null);
      setProblem(t('card.excelOnly'));
      return;
    }
    setProblem(null);
    setFile(chosen);
  };

  const clear = () => {
    setFile(null);
    setProblem(null);
    setResult(null);
    if (inputRef.current) inputRef.current.value = '';
  };

  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    choose(event.target.files?.[0]);
    // The same file may be picked again after a Clear or a fix.
    event.target.value = '';
  };

  const onDrop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setDragging(false);
    if (!upload.isPending) choose(event.dataTransfer.files[0]);
  };

  const send = (dryRun: boolean) => {
    if (!file) return;
    setProblem(null);
    setResult(null);
    upload.mutate(
      { file, dryRun },
      {
        onSuccess: (answer) => {
          setResult(answer);
          // After a real import the file is done with; after a check it is kept for the upload.
          if (!dryRun) {
            setFile(null);
            if (inputRef.current) inputRef.current.value = '';
          }
        },
        onError: (error) => setProblem(errorText(error, t('card.uploadFailed'))),
      },
    );
  };

  const downloadTemplate = () =>
    template.mutate(undefined, {
      onError: (error) => showToast(errorText(error, t('card.templateFailed')), 'error'),
    });

  const pendingDryRun = upload.isPending && upload.variables?.dryRun;
  const pendingUpload = upload.isPending && !upload.variables?.dryRun;

  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardHeader
        title={title}
        subheader={description}
        slotProps={{ title: { component: 'h3', variant: 'h6' } }}
        action={
          <Button
            size="small"
            startIcon={<DownloadIcon />}
            onClick={downloadTemplate}
            disabled={template.isPending}
            sx={{ whiteSpace: 'nowrap' }}
          >
            {t('card.downloadTemplate')}
          </Button>
        }
        sx={{ flexWrap: { xs: 'wrap', sm: 'nowrap' }, '& .MuiCardHeader-action': { m: { xs: '8px 0 0', sm: 0 } } }}
      />
      <CardContent>
        <Box
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          onClick={() => inputRef.current?.click()}
          data-testid={`${kind}-drop-zone`}
          sx={{
            border: 2,
            borderStyle: 'dashed',
            borderColor: dragging ? 'primary.main' : 'divider',
            bgcolor: dragging ? 'action.hover' : 'transparent',
            borderRadius: 2,
            p: 3,
            textAlign: 'center',
            cursor: 'pointer',
          }}
        >
          <CloudUploadIcon color="primary" sx={{ fontSize: 40 }} />
          <Typography>{t('card.dropHere')}</Typography>
          <Button
            variant="text"
            onClick={(event) => {
              event.stopPropagation();
              inputRef.current?.click();
            }}
          >
            {t('card.choose')}
          </Button>
          <Typography variant="body2" color="text.secondary">
            {t('card.kinds')}
          </Typography>
          <input
            ref={inputRef}
            id={inputId}
            type="file"
            accept={ACCEPT}
            aria-label={kind === 'students' ? t('card.studentsFile') : t('card.teachersFile')}
            onChange={onPick}
            onClick={(event) => event.stopPropagation()}
            hidden
          />
        </Box>

        {file && (
          <Stack direction="row" spacing={1} sx={{ mt: 2, alignItems: 'center' }}>
            <InsertDriveFileIcon color="action" />
            <Typography sx={{ flexGrow: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
              {file.name}{' '}
              <Typography component="span" variant="body2" color="text.secondary">
                ({formatFileSize(file.size)})
              </Typography>
            </Typography>
            <Button size="small" onClick={clear} disabled={upload.isPending}>
              {t('card.clear')}
            </Button>
          </Stack>
        )}

        <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 2, flexWrap: 'wrap' }}>
          <Button
            variant="contained"
            startIcon={<UploadIcon />}
            onClick={() => send(false)}
            disabled={!file || upload.isPending}
          >
            {pendingUpload ? t('card.uploading') : t('card.upload')}
          </Button>
          <Button
            variant="outlined"
            startIcon={<FactCheckIcon />}
            onClick={() => send(true)}
            disabled={!file || upload.isPending}
          >
            {pendingDryRun ? t('card.checking') : t('card.check')}
          </Button>
        </Stack>

        <Box sx={{ mt: 2 }}>
          {problem && <Alert severity="error">{problem}</Alert>}
          {result && <ImportResult kind={kind} result={result} />}
        </Box>
      </CardContent>
    </Card>
  );
}

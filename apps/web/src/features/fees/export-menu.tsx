/*
 * FeesExportMenu: the accountant's CSV / Excel download of a fees report, made by the server
 * (GET /fees/dues/export, /fees/collections/export, /fees/families/{id}/statement/export; helper H4).
 * Where it goes (helper H1, owner of the Dues tab and the statement):
 *   - the Dues tab's header: <FeesExportMenu report="dues" />
 *   - a family's statement header: <FeesExportMenu report="statement" familyId={family.family_id} />
 *   - collections, with the period shown: <FeesExportMenu report="collections" query={{ from, to }} label={cardTitle} />
 *     (the label names the button, "Export Collected today", where two such menus share the screen)
 * Its texts are the `feesExport` key of the `common` catalogue. The file is asked for in the console's
 * language (ADR 066); in any other language than English the menu also offers each format in English,
 * for an accountant whose import (Tally through Excel) reads English column names.
 */
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import { Button, Divider, Menu, MenuItem } from '@mui/material';
import type { FeeExportFormat, ParentLanguage } from '@tuitiondesk/contract';
import { useId, useState } from 'react';
import { currentLanguage, useTranslation } from '../../i18n';
import { apiDownload, errorText, saveFile } from '../../lib/api-client';
import { useToast } from '../../lib/toast';

export type FeesExportReport = 'dues' | 'collections' | 'statement';
export type FeesExportFormat = FeeExportFormat;

export interface FeesExportMenuProps {
  report: FeesExportReport;
  /** The family whose statement is exported (report "statement" only). */
  familyId?: number;
  /** Filters passed on as they are, e.g. { from, to } for collections. */
  query?: Record<string, string>;
  /**
   * What the file holds, for the button's accessible name ("Export Collected today"), where two menus
   * of one report share a screen; the report's name ("Export dues") when left out.
   */
  label?: string;
}

/** The server's path of a report's export, with its filters, the format and the language asked for. */
export function feesExportPath(
  { report, familyId, query }: FeesExportMenuProps,
  format: FeesExportFormat,
  lang: ParentLanguage,
): string {
  const base = report === 'statement' ? `/fees/families/${familyId ?? 0}/statement/export` : `/fees/${report}/export`;
  const search = new URLSearchParams({ ...query, format, lang });
  return `${base}?${search.toString()}`;
}

/** Downloads the server's file and hands it to the browser under the name the server gives. */
export async function downloadFeesExport(
  props: FeesExportMenuProps,
  format: FeesExportFormat,
  lang: ParentLanguage,
): Promise<void> {
  const { blob, filename } = await apiDownload(feesExportPath(props, format, lang), `fees-${props.report}.${format}`);
  saveFile(blob, filename);
}

export function FeesExportMenu(props: FeesExportMenuProps) {
  const { t } = useTranslation('common');
  const { showToast } = useToast();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [busy, setBusy] = useState(false);
  const menuId = useId();

  const language = currentLanguage();

  const download = async (format: FeesExportFormat, lang: ParentLanguage) => {
    setAnchor(null);
    setBusy(true);
    try {
      await downloadFeesExport(props, format, lang);
    } catch (error) {
      showToast(errorText(error, t('feesExport.failed')), 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        variant="outlined"
        startIcon={<FileDownloadIcon />}
        aria-haspopup="menu"
        aria-expanded={anchor !== null}
        aria-controls={anchor ? menuId : undefined}
        disabled={busy || (props.report === 'statement' && props.familyId === undefined)}
        onClick={(event) => setAnchor(event.currentTarget)}
        // The visible "Export" begins the name (label in name), which says what is exported.
        aria-label={t('feesExport.buttonFor', { what: props.label ?? t(`feesExport.reports.${props.report}`) })}
      >
        {t('feesExport.button')}
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => download('csv', language)}>{t('feesExport.csv')}</MenuItem>
        <MenuItem onClick={() => download('xlsx', language)}>{t('feesExport.xlsx')}</MenuItem>
        {language !== 'en' && <Divider />}
        {language !== 'en' && <MenuItem onClick={() => download('csv', 'en')}>{t('feesExport.csvEnglish')}</MenuItem>}
        {language !== 'en' && <MenuItem onClick={() => download('xlsx', 'en')}>{t('feesExport.xlsxEnglish')}</MenuItem>}
      </Menu>
    </>
  );
}

import { type ActivityParamValue, formatActivityText } from '@tuitiondesk/contract/activity-texts';
import { withClassNames } from '@tuitiondesk/contract/class-params';
import { formatDay } from '../lib/dates';
import { i18n } from '.';
import { activityTextsIn } from './activity-text-files';
import { classIsPlain, classNamer } from './class-names';
import { currentLanguage } from './current';

/**
 * The activity feed in the language in use (ADR 038). A row written since activities carry their text
 * as a code and params (`text_code`, `params`) is filled from `packages/contract/texts/activities/<lang>.json`, in the
 * contract's ICU form, with the language's plural rules and days as `formatDay` writes them;
 * names, subjects and reasons in the params are shown as written, but for the marker the erasure of
 * a family's data writes in their place ("[removed]", ADR 027), which is said in the language, as the
 * audit log says it. English needs no file: the stored description is the English. Each file is its
 * own chunk, fetched with its language.
 */
const REMOVED = '[removed]';

/**
 * An activity's text in the language in use, or undefined where there is none: a row from before
 * (no code), a code this client does not know, English, or params that do not fill the text.
 */
export function translatedActivity(
  code: string | null | undefined,
  params: Readonly<Record<string, ActivityParamValue>> | null | undefined,
  language: string = currentLanguage(),
): string | undefined {
  const text = code ? activityTextsIn(language)?.[code] : undefined;
  if (text === undefined || !params) return undefined;
  const rules = new Intl.PluralRules(language);
  const removed = i18n.t('audit:values.removed', { lng: language, defaultValue: REMOVED });
  const shown = Object.fromEntries(
    Object.entries(params).map(([name, value]) => [name, value === REMOVED ? removed : value]),
  );
  try {
    // A class in the params is named through the centre's labels: "कक्षा 7", "Morning batch" (ADR 054).
    return formatActivityText(text, withClassNames(code ?? '', shown, classNamer(language), classIsPlain), {
      day: formatDay,
      plural: (count) => rules.select(count),
    });
  } catch {
    return undefined;
  }
}

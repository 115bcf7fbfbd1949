/**
 * No translation is lost (ADR 041): every text of the console, the parent app, the server's errors and
 * the activity feed, in every language, rendered now with the fixed sample params of
 * `testing/text-snapshot.ts`, equals its rendering in `testing/texts-before/`, the snapshot written
 * before the texts moved to one place. A key whose text is gone, or says anything else, fails here.
 * (The texts the server sends families are compared on the server's side, from the same file.)
 */

import { ACTIVITY_TEXTS, formatActivityText } from '@tuitiondesk/contract/activity-texts';
import { withClassNames } from '@tuitiondesk/contract/class-params';
import { ERROR_CODES, formatErrorText } from '@tuitiondesk/contract/error-codes';
import type { Namespace } from 'i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ParentTextKey, i18n as parentI18n, showLanguage as showParentLanguage } from '../parent/i18n';
import { i18n, loadCatalogues, showLanguage } from '.';
import { LANGUAGES } from './languages';
import {
  flattenTexts,
  i18nextRenderings,
  icuRenderings,
  lostOrChanged,
  type Params,
  type Snapshot,
} from './testing/text-snapshot';

type Catalogue = { [key: string]: string | Catalogue };

const CONSOLE = import.meta.glob<Catalogue>('./locales/*/*.json', { eager: true, import: 'default' });
/** The one place of the parent app's, the errors' and the activities' texts (ADR 041), by language and area. */
const TEXTS = import.meta.glob<Record<string, string>>('../../../../packages/contract/texts/*/*.json', {
  eager: true,
  import: 'default',
});

function texts(language: string, area: string): Record<string, string> {
  return TEXTS[`../../../../packages/contract/texts/${area}/${language}.json`] ?? {};
}

// Read as a glob, not an import, so the type checker does not type 2 MB of files.
const SNAPSHOT = import.meta.glob<Record<string, Record<string, Snapshot>>>('./testing/texts-before/*.json', {
  eager: true,
  import: 'default',
});
const before: Record<string, Record<string, Snapshot>> = Object.assign({}, ...Object.values(SNAPSHOT));

const CONSOLE_NAMESPACES = Object.keys(CONSOLE)
  .filter((path) => path.startsWith('./locales/en/'))
  .map((path) => path.slice('./locales/en/'.length, -'.json'.length));

const ENGLISH_ERRORS: Record<string, string> = { ...ERROR_CODES, ...texts('en', 'client-errors') };
const ENGLISH_ACTIVITIES: Record<string, string> = ACTIVITY_TEXTS;

function plural(language: string): (count: number) => string {
  const rules = new Intl.PluralRules(language);
  return (count) => rules.select(count);
}

const day = (isoDay: string): string => `‹day ${isoDay}›`;

/** Every area's renderings in a language, as the app shows them now. */
async function snapshotOf(language: string): Promise<Record<string, Snapshot>> {
  const out: Record<string, Snapshot> = {};
  await loadCatalogues(language);
  for (const namespace of CONSOLE_NAMESPACES) {
    // Every key of every namespace, found at run time: past the typed keys.
    const t = i18n.getFixedT(language, namespace as Namespace) as unknown as (key: string, params: Params) => string;
    out[`console/${namespace}`] = i18nextRenderings(
      flattenTexts(CONSOLE[`./locales/en/${namespace}.json`] ?? {}),
      (key, params) => t(key, params),
    );
  }
  await showParentLanguage(language as never);
  out.parent = icuRenderings(texts('en', 'parent'), (key, params) => parentI18n.t(key as ParentTextKey, params));
  // A class param reads as the console names one of the spec's classes, "Class ‹other›" / "कक्षा ‹other›"
  // (ADR 054: the texts lost their class word, the console puts it back for the spec's classes); a
  // list of classes, all of the spec's kind, as written.
  const spec = (code: string, params: Params): Params =>
    withClassNames(
      code,
      params,
      (name) => i18n.t('dashboard:myClasses.className', { lng: language, name }),
      () => true,
    );
  const errors =
    language === 'en' ? ENGLISH_ERRORS : { ...texts(language, 'errors'), ...texts(language, 'client-errors') };
  out.errors = icuRenderings(ENGLISH_ERRORS, (code, params: Params) => {
    const text = errors[code];
    return text === undefined ? undefined : formatErrorText(text, spec(code, params), plural(language));
  });
  const activities = language === 'en' ? ENGLISH_ACTIVITIES : texts(language, 'activities');
  out.activities = icuRenderings(ENGLISH_ACTIVITIES, (code, params: Params) => {
    const text = activities[code];
    return text === undefined
      ? undefined
      : formatActivityText(text, spec(code, params), { day, plural: plural(language) });
  });
  return out;
}

const now: Record<string, Record<string, Snapshot>> = {};

beforeAll(async () => {
  for (const language of LANGUAGES) {
    for (const [area, snapshot] of Object.entries(await snapshotOf(language))) {
      now[area] ??= {};
      (now[area] as Record<string, Snapshot>)[language] = snapshot;
    }
  }
});

afterAll(async () => {
  await showLanguage('en');
  await showParentLanguage('en');
});

describe('every text from before, in every language', () => {
  const areas = Object.keys(before).filter((area) => area !== 'family' && area !== 'templates');

  it('covers the console, the parent app, the errors and the activities', () => {
    expect(areas.filter((area) => !area.startsWith('console/')).sort()).toEqual(['activities', 'errors', 'parent']);
    expect(areas.filter((area) => area.startsWith('console/')).length).toBeGreaterThan(10);
  });

  for (const area of areas) {
    for (const language of LANGUAGES) {
      it(`${area}, ${language}: nothing lost, nothing changed`, () => {
        const was = before[area]?.[language] ?? {};
        expect(Object.keys(was).length, 'texts in the snapshot').toBeGreaterThan(0);
        expect(lostOrChanged(was, now[area]?.[language] ?? {})).toEqual([]);
      });
    }
  }
});

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database';
import { FAMILY_TEXTS, familyTexts } from '../src/modules/families/family-texts';
import { freshDatabase } from './helpers/test-app';

/**
 * No translation is lost (ADR 041), the server's side of the web's `i18n/texts-before.test.ts`: the
 * texts the server writes to a family in every language, filled with fixed sample words, and the
 * template texts a new centre's database starts with (the alerts' names, subjects and bodies), equal
 * their renderings in the snapshot written before the texts moved to one place; and those seeded
 * template texts are the catalogue's, which is their one source from now on (ADR 041).
 */
const SNAPSHOT = new URL('../../web/src/i18n/testing/texts-before/', import.meta.url);
const LANGUAGES = ['en', 'hi', 'mr', 'ta', 'bn', 'ur'] as const;
type Snapshot = Record<string, string | null>;

const before = Object.assign(
  {},
  ...['family', 'templates'].map((area) => JSON.parse(readFileSync(new URL(`${area}.json`, SNAPSHOT), 'utf8'))),
) as Record<string, Record<string, Snapshot>>;

/** The family texts in a language as the server fills them now, with the snapshot's sample words. */
function familyRenderings(language: (typeof LANGUAGES)[number]): Snapshot {
  const texts = familyTexts(language);
  const out: Snapshot = {
    'status.absent': texts.status.absent,
    'status.late': texts.status.late,
    'className {name}': texts.className('‹name›'),
    allClasses: texts.allClasses,
    'remarks {remarks}': texts.remarks('‹remarks›'),
    'alertSubjects.absence_alert': texts.alertSubjects.absence_alert,
    'alertSubjects.late_alert': texts.alertSubjects.late_alert,
    accessNoticeSubject: texts.accessNoticeSubject,
    codeReplacedNotice: texts.codeReplacedNotice,
    'phoneChangedNotice {child}': texts.phoneChangedNotice('‹child›'),
    'leaveDecided.subject.approved': texts.leaveDecided.subject.approved,
    'leaveDecided.subject.declined': texts.leaveDecided.subject.declined,
    'whatsappOn {centre}': texts.whatsappOn('‹centre›'),
    'whatsappOff {centre}': texts.whatsappOff('‹centre›'),
  };
  for (const decision of ['approved', 'declined'] as const) {
    out[`leaveDecided.notice {decision=${decision}, to=null}`] = texts.leaveDecided.notice(
      decision,
      '‹child›',
      '‹from›',
      null,
    );
    out[`leaveDecided.notice {decision=${decision}, to=‹to›}`] = texts.leaveDecided.notice(
      decision,
      '‹child›',
      '‹from›',
      '‹to›',
    );
  }
  return out;
}

let db: Database;
let drop: () => Promise<void>;
const now: Record<string, Record<string, Snapshot>> = { family: {}, templates: {} };

beforeAll(async () => {
  ({ db, drop } = await freshDatabase());
  for (const language of LANGUAGES) {
    (now.family as Record<string, Snapshot>)[language] = familyRenderings(language);
    const rows = await db.query<{ purpose: string; name: string; subject: string; body: string }>(
      `SELECT t.purpose, t.name, t.subject, x.body
         FROM message_templates t JOIN message_template_texts x ON x.template_id = t.id
        WHERE x.language = $1 ORDER BY t.purpose`,
      [language],
    );
    const templates: Snapshot = {};
    for (const row of rows) {
      templates[`${row.purpose}.body`] = row.body;
      if (language === 'en') {
        templates[`${row.purpose}.name`] = row.name;
        templates[`${row.purpose}.subject`] = row.subject;
      }
    }
    (now.templates as Record<string, Snapshot>)[language] = templates;
  }
});

afterAll(() => drop());

describe('every family text and seeded template text from before, in every language', () => {
  for (const area of ['family', 'templates']) {
    for (const language of LANGUAGES) {
      it(`${area}, ${language}: nothing lost, nothing changed`, () => {
        const was = before[area]?.[language] ?? {};
        expect(Object.keys(was).length, 'texts in the snapshot').toBeGreaterThan(0);
        const after = now[area]?.[language] ?? {};
        const lost = Object.entries(was)
          .filter(([id, text]) => after[id] !== text)
          .map(([id, text]) => `${id}: ${JSON.stringify(text)} → ${JSON.stringify(after[id])}`);
        expect(lost).toEqual([]);
      });
    }
  }
});

describe('the template texts a new centre starts with', () => {
  it("are the catalogue's (texts/families/<lang>.json): the alerts' body in every language, their subjects in English", () => {
    for (const language of LANGUAGES) {
      const seeded = now.templates?.[language] ?? {};
      const texts = FAMILY_TEXTS[language];
      expect(seeded['absence_alert.body'], language).toBe(texts.alert_body);
      expect(seeded['late_alert.body'], language).toBe(texts.alert_body);
    }
    expect(now.templates?.en?.['absence_alert.subject']).toBe(FAMILY_TEXTS.en['alert_subject.absence_alert']);
    expect(now.templates?.en?.['late_alert.subject']).toBe(FAMILY_TEXTS.en['alert_subject.late_alert']);
  });
});

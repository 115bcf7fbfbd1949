import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ACTIVITY_TEXTS,
  type ActivityTextCode,
  activityTextBranches,
  activityTextParams,
  formatActivityText,
} from './activity-texts';
import { typedNames } from './testing/typed-names';

const entries = Object.entries(ACTIVITY_TEXTS) as [ActivityTextCode, string][];
const day = (iso: string) => `<${iso}>`;

describe('the activity catalogue', () => {
  it('names each code once, dotted and lower case', () => {
    // JSON keeps the last of two equal keys silently: the file itself is read.
    const source = readFileSync(new URL('../texts/activities/en.json', import.meta.url), 'utf8');
    const keys = [...source.matchAll(/^ {2}"([^"]+)":/gm)].map((match) => match[1]);
    expect(keys.length).toBe(entries.length);
    expect(new Set(keys).size).toBe(keys.length);
    for (const [code] of entries) expect(code).toMatch(/^[a-z][a-z_]*(\.[a-z][a-z_]*)+$/);
  });

  it('starts every text with who did it, but those the system does itself', () => {
    const bySystem = [
      'student.scrubbed',
      'two_factor.reset_other_installation',
      'two_factor.reset_unreadable_secret',
      // npm run reset-password: no account did it, the owner at the server's machine did (ADR 046).
      'account.password_reset_by_command',
      // The automatic charge run, at the hour the centre set (ADR 052).
      'fees.charges_run_automatic',
    ];
    for (const [code, text] of entries) {
      expect({ code, actor: text.startsWith('{actor} ') }).toEqual({ code, actor: !bySystem.includes(code) });
    }
  });

  it('reads the same params from each text as its type does, and no branch holds a placeholder', () => {
    for (const [code, text] of entries) {
      expect({ code, names: typedNames(text).sort() }).toEqual({ code, names: activityTextParams(text).sort() });
      for (const branch of activityTextBranches(text))
        expect({ code, branch }).toEqual({ code, branch: branch.replace(/[{}]/g, '') });
    }
  });

  it('fills every text from its params, and refuses a text whose param is missing', () => {
    for (const [code, text] of entries) {
      const params = Object.fromEntries(activityTextParams(text).map((name) => [name, 2]));
      const filled = formatActivityText(text, params, { day });
      expect({ code, filled }).toEqual({ code, filled: expect.not.stringMatching(/[{}]/) });
      expect(() => formatActivityText(text, {}, { day })).toThrow(/needs the param/);
    }
  });

  it("writes today's English sentences: days by the caller's form, plurals, selects and an empty branch", () => {
    const readable = (iso: string) => (iso === '2026-11-23' ? '23 Nov 2026' : iso);
    expect(
      formatActivityText(
        ACTIVITY_TEXTS['attendance.marked'],
        { actor: 'Asha Rao', count: 1, classes: '9', class_count: 1, date: '2026-11-23' },
        { day: readable },
      ),
    ).toBe('Asha Rao marked attendance for 1 student of Class 9 on 23 Nov 2026');
    expect(
      formatActivityText(ACTIVITY_TEXTS['attendance.approved'], { actor: 'A', count: 3, alerts: 0 }, { day }),
    ).toBe('A approved 3 attendance records');
    expect(
      formatActivityText(ACTIVITY_TEXTS['attendance.approved'], { actor: 'A', count: 1, alerts: 1 }, { day }),
    ).toBe('A approved 1 attendance record and sent 1 absence alert to parents');
    expect(
      formatActivityText(ACTIVITY_TEXTS['settings.marking_rules'], { actor: 'A', any_class: 'no', days: 0 }, { day }),
    ).toBe('A changed the attendance marking rules: teachers mark only their own classes, today only');
    expect(formatActivityText(ACTIVITY_TEXTS['student.scrubbed'], { count: 2, months: 1, families: 1 }, { day })).toBe(
      'The personal data of 2 students who left more than 1 month ago was removed (1 family no longer on record); their attendance is kept without names',
    );
  });

  it('shows a name or reason with braces as written, not as a placeholder', () => {
    // The class as the server fills it, by its label (ADR 054).
    expect(
      formatActivityText(
        ACTIVITY_TEXTS['leave.requested'],
        {
          actor: 'Parent {x}',
          name: 'Ravi {date, date}',
          class_name: 'Class 9',
          date: '2026-11-23',
          reason: '{fever}',
        },
        { day },
      ),
    ).toBe('Parent {x} (parent) asked for leave for Ravi {date, date} (Class 9) on <2026-11-23>: {fever}');
  });
});

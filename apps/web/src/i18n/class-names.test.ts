/**
 * An error's or an activity's class param holds the class's value; the console names it through the
 * centre's labels (ADR 054): a class the centre labelled itself reads as written in every language
 * ("Morning batch", never "कक्षा Morning batch"), one of the spec's kind with the language's class
 * word ("कक्षा 7"), as before.
 */
import type { CentreClass } from '@tuitiondesk/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scopeSentence } from '../features/attendance/mark-attendance-page';
import { rememberClassLabels } from '../lib/class-labels-known';
import { showLanguage } from '.';
import { translatedActivity } from './activity-texts';
import { translatedError } from './error-texts';

const IN_USE = { students: 0, teachers: 0, attendance_records: 0 };
function centreClass(id: number, value: string, label: string, section: string | null = null): CentreClass {
  const display_label = section ? `${label} – ${section}` : label;
  return {
    id,
    value,
    label,
    section,
    display_label,
    sort_order: id,
    archived: false,
    archived_at: null,
    in_use: IN_USE,
  };
}

beforeEach(() => {
  rememberClassLabels([
    centreClass(1, '7', 'Class 7'),
    centreClass(2, '11', 'Class 11', 'A'),
    centreClass(3, 'Morning batch', 'Morning batch'),
  ]);
});
afterEach(async () => {
  rememberClassLabels([]);
  await showLanguage('en');
});

const refusal = (other: string) => ({ count: 1, classes: '7', other });
const leave = (className: string) => ({ actor: 'Asha', name: 'Ravi', class_name: className, date: '2026-11-23' });

describe('a class in an error or an activity', () => {
  it('is named by its label in Hindi: the centre’s own label as written, the spec’s class with the class word', async () => {
    await showLanguage('hi');
    expect(translatedError('attendance.class_not_yours', refusal('Morning batch'))).toBe(
      'आप केवल अपनी कक्षा (7) की उपस्थिति दर्ज कर सकते हैं। Morning batch आपको नहीं सौंपी गई है।',
    );
    expect(translatedError('attendance.class_not_yours', refusal('7'))).toBe(
      'आप केवल अपनी कक्षा (7) की उपस्थिति दर्ज कर सकते हैं। कक्षा 7 आपको नहीं सौंपी गई है।',
    );
    expect(translatedError('student.class_change_no_class', { from: '11', to: 'Morning batch' })).toBe(
      'इस विद्यार्थी को Class 11 – A से Morning batch में केवल एडमिन ही ले जा सकते हैं: आपके पास उपस्थिति दर्ज करने के लिए कोई कक्षा नहीं है। कक्षा बदलने के लिए किसी एडमिन से कहें।',
    );
    expect(translatedActivity('leave.requested', { ...leave('Morning batch'), reason: 'Fever' })).toBe(
      'Asha (अभिभावक) ने Ravi (Morning batch) के लिए 23 नवंबर 2026 की छुट्टी माँगी: Fever',
    );
    expect(translatedActivity('leave.requested', { ...leave('7'), reason: 'Fever' })).toBe(
      'Asha (अभिभावक) ने Ravi (कक्षा 7) के लिए 23 नवंबर 2026 की छुट्टी माँगी: Fever',
    );
  });

  it('reads a class of the spec’s kind with the class word in Urdu and Tamil too, and a class not yet known by its value', async () => {
    await showLanguage('ur');
    expect(translatedError('parents.class_has_no_families', { class: '7' })).toBe(
      'جماعت 7 میں مرکز آنے والا کوئی طالب علم نہیں ہے: کوڈ دینے کے لیے کوئی نہیں ہے',
    );
    await showLanguage('ta');
    expect(translatedError('parents.class_has_no_families', { class: 'Evening batch' })).toBe(
      'Evening batch இல் மையத்துக்கு வரும் மாணவர் யாரும் இல்லை: குறியீடு கொடுக்க யாரும் இல்லை',
    );
    expect(translatedError('parents.class_has_no_families', { class: '12' })).toBe(
      'வகுப்பு 12 இல் மையத்துக்கு வரும் மாணவர் யாரும் இல்லை: குறியீடு கொடுக்க யாரும் இல்லை',
    );
  });

  it('names each class of a list by its label once one is the centre’s own, with no class word glued on', async () => {
    const mine = { count: 2, classes: '9, Morning batch' };
    const marked = { actor: 'Asha', count: 2, class_count: 2, classes: '9, Morning batch', date: '2026-11-23' };
    await showLanguage('hi');
    expect(translatedError('attendance.class_not_yours', { ...mine, other: '7' })).toBe(
      'आप केवल अपनी कक्षाओं (कक्षा 9, Morning batch) की उपस्थिति दर्ज कर सकते हैं। कक्षा 7 आपको नहीं सौंपी गई है।',
    );
    expect(translatedError('student.class_change_not_yours', { from: '7', to: '9', ...mine })).toBe(
      'इस विद्यार्थी को कक्षा 7 से कक्षा 9 में केवल एडमिन ही ले जा सकते हैं: आप केवल कक्षा 9, Morning batch की उपस्थिति दर्ज करते हैं। कक्षा बदलने के लिए किसी एडमिन से कहें।',
    );
    expect(translatedActivity('attendance.marked', marked)).toBe(
      'Asha ने कक्षा 9, Morning batch के 2 विद्यार्थियों की 23 नवंबर 2026 की उपस्थिति दर्ज की',
    );
    // The spec's classes only: the list as written after the plural class word, as always.
    expect(translatedActivity('attendance.marked', { ...marked, classes: '7, 9' })).toBe(
      'Asha ने कक्षा 7, 9 के 2 विद्यार्थियों की 23 नवंबर 2026 की उपस्थिति दर्ज की',
    );
    expect(translatedError('student.class_change_not_yours', { from: '7', to: '9', count: 2, classes: '7, 9' })).toBe(
      'इस विद्यार्थी को कक्षा 7 से कक्षा 9 में केवल एडमिन ही ले जा सकते हैं: आप केवल कक्षाओं 7, 9 की उपस्थिति दर्ज करते हैं। कक्षा बदलने के लिए किसी एडमिन से कहें।',
    );
  });

  it('names a teacher’s classes on Mark Attendance by their labels once one is the centre’s own', async () => {
    const scope = (classes: string[]) =>
      ({
        restricted: true,
        classes,
        any_class: false,
        days_back: 0,
        earliest_date: '2026-11-23',
        today: '2026-11-23',
      }) as never;
    expect(scopeSentence(scope(['9', 'Morning batch']))).toBe(
      'You can mark attendance for your classes (Class 9, Morning batch), for today only. An admin can mark earlier days.',
    );
    expect(scopeSentence(scope(['7', '9']))).toBe(
      'You can mark attendance for your classes 7, 9, for today only. An admin can mark earlier days.',
    );
    await showLanguage('hi');
    expect(scopeSentence(scope(['9', 'Morning batch']))).toBe(
      'आप अपनी कक्षाओं (कक्षा 9, Morning batch) की उपस्थिति केवल आज के लिए दर्ज कर सकते हैं। पिछले दिनों की उपस्थिति एडमिन दर्ज कर सकते हैं।',
    );
  });
});

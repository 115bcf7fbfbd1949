/**
 * The demo's students: families drawn from communities (content.json), a few brothers and sisters
 * sharing a parent and a phone, most enrolled by the start-of-term import and the rest one by one.
 * Each family reads messages in its community's languages, and most agreed to WhatsApp: with the
 * import, or later at the desk; a few opted out since with a STOP reply.
 */
import type { DefaultClassName as ClassName, ParentLanguage } from '@tuitiondesk/contract';
import type { Clock } from './calendar';
import { type Community, DEMO_CONTENT } from './content';
import { between, pick, type Random, weighted } from './random';
import type { DemoConsentChange, DemoStudent } from './types';

export const CLASS_SIZES: [ClassName, number][] = [
  ['7', 31],
  ['8', 30],
  ['9', 30],
  ['10', 29],
];

interface Family {
  community: Community;
  surname: string;
  parent_name: string;
  parent_phone: string;
  children: number;
  language: ParentLanguage;
  /** On WhatsApp now, opted out with a STOP reply after agreeing, or never asked. */
  whatsapp: 'opted_in' | 'stopped' | 'never';
}

/** The family's language and WhatsApp consent, from its own stream so the people stay as they were. */
function familyContact(random: Random, community: Community): Pick<Family, 'language' | 'whatsapp'> {
  const language = weighted(random, Object.entries(community.languages) as [ParentLanguage, number][]);
  const roll = random();
  const { whatsapp_opted_in: optedIn, whatsapp_stopped: stopped } = DEMO_CONTENT.families;
  return { language, whatsapp: roll < optedIn ? 'opted_in' : roll < optedIn + stopped ? 'stopped' : 'never' };
}

/**
 * When each family's consent changed, oldest first: given with the import (most imported families) or at
 * the desk (later, or the day a late joiner enrolled), and for a few withdrawn by a STOP reply lately.
 */
function consentChanges(
  random: Random,
  clock: Clock,
  families: Family[],
  students: DemoStudent[],
): DemoConsentChange[] {
  const changes: DemoConsentChange[] = [];
  /** A moment some days ago (from, to), within some hours of that day, at any minute. */
  const someTime = (daysAgo: [number, number], hours: [number, number]) => {
    const day = clock.daysAgo(between(random, ...daysAgo));
    return clock.at(day, between(random, ...hours), between(random, 0, 59));
  };
  for (const family of families) {
    if (family.whatsapp === 'never') continue;
    const [first] = students
      .filter((student) => student.parent_phone === family.parent_phone)
      .sort((a, b) => (a.created_at < b.created_at ? -1 : 1));
    if (!first) continue;
    const phone = family.parent_phone;
    if (!first.imported) {
      // Asked when the child enrolled, at the desk.
      changes.push({
        phone,
        opted_in: true,
        source: 'staff',
        at: new Date(Date.parse(first.created_at) + 30_000).toISOString(),
      });
    } else if (random() < DEMO_CONTENT.families.consent_at_import) {
      changes.push({ phone, opted_in: true, source: 'import', at: first.created_at });
    } else {
      changes.push({ phone, opted_in: true, source: 'staff', at: someTime([33, 90], [10, 18]) });
    }
    if (family.whatsapp === 'stopped') {
      changes.push({ phone, opted_in: false, source: 'whatsapp_reply', at: someTime([1, 25], [8, 21]) });
    }
  }
  return changes.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

export function makeStudents(
  random: Random,
  clock: Clock,
  familyRandom: Random,
): { students: DemoStudent[]; consents: DemoConsentChange[]; reliability: number[]; importDay: string } {
  const usedNames = new Set<string>();
  const usedPhones = new Set<string>();
  const families: Family[] = [];
  const drafts: { student: Omit<DemoStudent, 'created_at' | 'imported'>; reliability: number }[] = [];

  const newPhone = () => {
    for (;;) {
      let phone = `+91${pick(random, ['9', '9', '9', '8', '8', '7'])}`;
      for (let i = 0; i < 9; i += 1) phone += String(Math.floor(random() * 10));
      if (!usedPhones.has(phone)) {
        usedPhones.add(phone);
        return phone;
      }
    }
  };
  const firstName = (community: Community, surname: string) => {
    for (;;) {
      const first = pick(random, random() < 0.5 ? community.boys : community.girls);
      if (!usedNames.has(`${first} ${surname}`)) return first;
    }
  };

  for (const [className, size] of CLASS_SIZES) {
    for (let i = 0; i < size; i += 1) {
      // A few older children have a younger brother or sister here already: same parent, same phone.
      const candidates = families.filter((family) => family.children === 1);
      let family: Family;
      if ((className === '9' || className === '10') && candidates.length > 0 && random() < 0.1) {
        family = pick(random, candidates);
      } else {
        const community = weighted(
          random,
          DEMO_CONTENT.communities.map((c) => [c, c.weight] as const),
        );
        const surname = pick(random, community.surnames);
        const parent =
          random() < 0.75
            ? `${pick(random, community.fathers)} ${surname}`
            : `${pick(random, community.mothers)} ${community.mother_surname ?? surname}`;
        family = {
          community,
          surname,
          parent_name: parent,
          parent_phone: newPhone(),
          children: 0,
          ...familyContact(familyRandom, community),
        };
        families.push(family);
      }
      family.children += 1;
      const fullName = `${firstName(family.community, family.surname)} ${family.surname}`;
      usedNames.add(fullName);
      drafts.push({
        student: {
          full_name: fullName,
          class_name: className,
          parent_name: family.parent_name,
          parent_phone: family.parent_phone,
          parent_whatsapp_opt_in: family.whatsapp === 'opted_in',
          parent_language: family.language,
        },
        reliability: 0.8 + random() * 0.18,
      });
    }
  }

  // Most came in the start-of-term import; the rest joined one by one since, in no class order.
  const importDay = clock.daysAgo(between(random, 95, 110));
  const order = drafts.map((draft, index) => ({ draft, index, key: random() }));
  order.sort((a, b) => a.key - b.key);
  const lateJoiners = 18;
  const joinedDaysAgo = Array.from({ length: lateJoiners }, () => between(random, 32, 90)).sort((a, b) => b - a);
  const students: DemoStudent[] = [];
  const reliability: number[] = [];
  order.forEach(({ draft }, position) => {
    const imported = position < order.length - lateJoiners;
    const day = imported ? importDay : clock.daysAgo(joinedDaysAgo[position - (order.length - lateJoiners)] ?? 40);
    students.push({
      ...draft.student,
      imported,
      created_at: imported ? clock.at(day, 11, 20) : clock.at(day, between(random, 10, 19), between(random, 0, 59)),
    });
    reliability.push(draft.reliability);
  });
  return { students, consents: consentChanges(familyRandom, clock, families, students), reliability, importDay };
}

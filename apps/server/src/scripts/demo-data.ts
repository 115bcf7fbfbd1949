/**
 * The demo centre that `npm run seed:demo` writes: plain data, no database. Everything comes from a
 * fixed-seed generator, so every run makes the same students, teachers, marks and messages; only the
 * dates move, to end on the day the seed runs. (Sign-in passwords are not made here: they are random.)
 */
import type { AttendanceStatus, ClassName, DeliveryStatus, TeacherAttendanceStatus } from '@tuitiondesk/contract';
import { addDays, formatDate } from '../lib/time';

export const DEMO_SEED = 20_240_601;
/** Calendar days of attendance, ending today; Sundays are skipped. */
export const DEMO_DAYS = 30;
/** The most recent school days are still waiting for approval (students) and unlocked (teachers). */
const OPEN_DAYS = 2;
const CLASS_SIZES: [ClassName, number][] = [
  ['7', 31],
  ['8', 30],
  ['9', 30],
  ['10', 29],
];
/** Today this class has not been marked yet, so the dashboard has something to point at. */
const UNMARKED_TODAY: ClassName = '10';

// ---------------------------------------------------------------------------------------------
// Random numbers: mulberry32, one stream per part so that one part's draws never shift another's.

type Random = () => number;

function createRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function stream(seed: number, name: string): Random {
  let hash = 0x811c9dc5 ^ seed;
  for (const char of name) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return createRandom(hash);
}

function between(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function weighted<T>(random: Random, entries: readonly (readonly [T, number])[]): T {
  const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = random() * total;
  for (const [value, weight] of entries) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return (entries[entries.length - 1] as readonly [T, number])[0];
}

// ---------------------------------------------------------------------------------------------
// Names. Families are drawn from communities, so a first name goes with a surname that fits it.

interface Community {
  weight: number;
  surnames: string[];
  boys: string[];
  girls: string[];
  fathers: string[];
  mothers: string[];
  /** Where mothers are named with another surname than the family's (Kaur). */
  motherSurname?: string;
}

const COMMUNITIES: Community[] = [
  {
    weight: 24,
    surnames: ['Sharma', 'Verma', 'Gupta', 'Mishra', 'Pandey', 'Tiwari', 'Yadav', 'Chauhan', 'Saxena', 'Agarwal'],
    boys: ['Aarav', 'Vivaan', 'Aditya', 'Ayush', 'Harsh', 'Kartik', 'Rohan', 'Shivam', 'Yash', 'Ishaan', 'Dhruv'],
    girls: ['Ananya', 'Diya', 'Ishita', 'Khushi', 'Riya', 'Saanvi', 'Aditi', 'Kavya', 'Nandini', 'Shreya', 'Tanvi'],
    fathers: ['Rajesh', 'Sunil', 'Manoj', 'Anil', 'Sanjay', 'Rakesh', 'Vinod', 'Ashok', 'Pankaj', 'Deepak'],
    mothers: ['Sunita', 'Rekha', 'Pooja', 'Neha', 'Anita', 'Seema', 'Kiran', 'Meena'],
  },
  {
    weight: 26,
    surnames: ['Patil', 'Kulkarni', 'Deshmukh', 'Joshi', 'Pawar', 'Jadhav', 'Gokhale', 'Bhosale', 'Kale', 'Shinde'],
    boys: ['Omkar', 'Soham', 'Atharva', 'Pranav', 'Siddharth', 'Tejas', 'Aniket', 'Mihir', 'Varad', 'Chinmay'],
    girls: ['Sakshi', 'Gauri', 'Mrunal', 'Sayali', 'Rutuja', 'Prachi', 'Janhavi', 'Isha', 'Anushka', 'Shravani'],
    fathers: ['Prakash', 'Sachin', 'Nitin', 'Mahesh', 'Sandeep', 'Ganesh', 'Vijay', 'Rahul', 'Milind'],
    mothers: ['Swati', 'Vaishali', 'Manisha', 'Ashwini', 'Smita', 'Madhuri', 'Archana'],
  },
  {
    weight: 12,
    surnames: ['Nair', 'Menon', 'Iyer', 'Pillai', 'Reddy', 'Rao', 'Naidu', 'Hegde'],
    boys: ['Karthik', 'Vishnu', 'Arjun', 'Nikhil', 'Sai', 'Varun', 'Abhinav', 'Rohit'],
    girls: ['Lakshmi', 'Meenakshi', 'Divya', 'Anjali', 'Keerthana', 'Sneha', 'Nithya', 'Aishwarya'],
    fathers: ['Suresh', 'Ramesh', 'Venkatesh', 'Krishnan', 'Srinivas', 'Mohan', 'Gopal', 'Rajiv'],
    mothers: ['Lata', 'Radha', 'Geetha', 'Padma', 'Usha', 'Shobha'],
  },
  {
    weight: 8,
    surnames: ['Banerjee', 'Chatterjee', 'Das', 'Bose', 'Mukherjee', 'Sen'],
    boys: ['Arnab', 'Sourav', 'Ritwik', 'Debjit', 'Aniruddha', 'Sayan'],
    girls: ['Ankita', 'Moumita', 'Priyanka', 'Sreya', 'Tanushree', 'Rimjhim'],
    fathers: ['Subrata', 'Partha', 'Amit', 'Tapas', 'Sudip', 'Indranil'],
    mothers: ['Mousumi', 'Sharmila', 'Rupa', 'Paramita'],
  },
  {
    weight: 10,
    surnames: ['Shah', 'Patel', 'Mehta', 'Desai', 'Jain', 'Trivedi'],
    boys: ['Dev', 'Hardik', 'Jainam', 'Krish', 'Parth', 'Vatsal'],
    girls: ['Dhruvi', 'Heer', 'Jinal', 'Mansi', 'Vidhi', 'Krisha'],
    fathers: ['Hitesh', 'Jignesh', 'Ketan', 'Nilesh', 'Paresh', 'Bhavesh'],
    mothers: ['Hetal', 'Falguni', 'Jigna', 'Bhavna', 'Kinjal'],
  },
  {
    weight: 7,
    surnames: ['Singh', 'Gill', 'Sandhu', 'Grewal', 'Dhillon'],
    boys: ['Gurpreet', 'Harjot', 'Jaskaran', 'Manveer', 'Kabir', 'Arshdeep'],
    girls: ['Simran', 'Harleen', 'Jasleen', 'Manpreet', 'Navneet', 'Gurleen'],
    fathers: ['Harpreet', 'Jaswinder', 'Kuldeep', 'Rajinder', 'Sukhwinder', 'Amarjeet'],
    mothers: ['Kulwinder', 'Paramjit', 'Rajwinder', 'Sarabjit'],
    motherSurname: 'Kaur',
  },
  {
    weight: 8,
    surnames: ['Khan', 'Shaikh', 'Ansari', 'Qureshi', 'Siddiqui', 'Sayyed'],
    boys: ['Ayaan', 'Zaid', 'Arham', 'Rehan', 'Faizan', 'Imran'],
    girls: ['Ayesha', 'Zoya', 'Sana', 'Alisha', 'Mehreen', 'Fatima'],
    fathers: ['Imtiaz', 'Salim', 'Javed', 'Rashid', 'Naseem', 'Farooq'],
    mothers: ['Shabana', 'Nazia', 'Rubina', 'Farzana'],
  },
  {
    weight: 5,
    surnames: ["D'Souza", 'Fernandes', 'Pereira', "D'Costa", 'Rodrigues'],
    boys: ['Aaron', 'Joel', 'Ryan', 'Neil', 'Jason'],
    girls: ['Tanya', 'Sharon', 'Natasha', 'Rhea', 'Clara'],
    fathers: ['Anthony', 'Francis', 'Joseph', 'Peter', 'Stanley'],
    mothers: ['Maria', 'Jennifer', 'Sheila', 'Lydia'],
  },
];

// ---------------------------------------------------------------------------------------------
// What the seed writes.

export interface DemoStudent {
  full_name: string;
  class_name: ClassName;
  parent_name: string;
  parent_phone: string;
  created_at: string;
  /** Added by the start-of-term import (true) or one by one afterwards. */
  imported: boolean;
}

export interface DemoTeacher {
  first_name: string;
  last_name: string;
  email: string;
  phone_number: string;
  subjects: string[];
  classes_assigned: ClassName[];
  qualification: string;
  experience_years: number;
  address: string;
  emergency_contact: string;
  created_at: string;
}

export interface DemoMark {
  /** Index into `students`. */
  student: number;
  status: AttendanceStatus;
  remarks: string | null;
}

export interface DemoClassMarking {
  class_name: ClassName;
  /** Index into `teachers`. */
  marked_by: number;
  marked_at: string;
  marks: DemoMark[];
}

export interface DemoTeacherMark {
  /** Index into `teachers`. */
  teacher: number;
  status: TeacherAttendanceStatus;
  remarks: string | null;
  check_in_time: string | null;
  check_out_time: string | null;
}

export interface DemoDay {
  date: string;
  classes: DemoClassMarking[];
  /** Null while the day waits for approval. */
  approved_at: string | null;
  teachers: DemoTeacherMark[];
  teachers_marked_at: string;
  /** Null while the day is open for changes. */
  locked_at: string | null;
}

export interface DemoRecipient {
  phone: string;
  name: string;
  delivery_status: DeliveryStatus;
  delivered_at: string | null;
  failure_reason: string | null;
}

export interface DemoSend {
  subject: string;
  message: string;
  /** Null: every parent. */
  class_name: ClassName | null;
  /** Index into `teachers`, or null for the admin. */
  sent_by: number | null;
  sent_at: string;
  recipients: DemoRecipient[];
}

/** The feed entries, written once the database has given students and teachers their codes. */
export type DemoActivity =
  | { kind: 'students_imported'; at: string; count: number }
  | { kind: 'student_created'; at: string; student: number }
  | { kind: 'teacher_created'; at: string; teacher: number }
  | { kind: 'attendance_marked'; at: string; teacher: number; count: number; class_name: ClassName; date: string }
  | { kind: 'attendance_approved'; at: string; count: number }
  | { kind: 'teacher_attendance_marked'; at: string; count: number; date: string }
  | { kind: 'teacher_attendance_locked'; at: string; count: number; date: string }
  | { kind: 'sent_to_parents'; at: string; send: number };

export interface DemoCentre {
  students: DemoStudent[];
  teachers: DemoTeacher[];
  days: DemoDay[];
  sends: DemoSend[];
  activities: DemoActivity[];
}

// ---------------------------------------------------------------------------------------------
// Time: every timestamp is on a centre calendar day (process time zone) and never in the future.

class Clock {
  readonly today: string;
  constructor(readonly now: Date) {
    this.today = formatDate(now);
  }

  /** The instant `hh:mm` on `date`. Today's afternoon is squeezed into the hours already past. */
  at(date: string, hours: number, minutes: number, seconds = 0): string {
    const [y, m, d] = date.split('-').map(Number) as [number, number, number];
    let instant = new Date(y, m - 1, d, hours, minutes, seconds).getTime();
    if (date === this.today) {
      const midnight = new Date(y, m - 1, d).getTime();
      const endOfDay = new Date(y, m - 1, d, 22, 0).getTime();
      const latest = this.now.getTime() - 60_000;
      if (latest < endOfDay)
        instant = midnight + ((instant - midnight) * Math.max(0, latest - midnight)) / (endOfDay - midnight);
    }
    return new Date(Math.min(instant, this.now.getTime() - 60_000)).toISOString();
  }
}

function isSunday(date: string): boolean {
  return new Date(`${date}T00:00:00Z`).getUTCDay() === 0;
}

function clock(hours: number, minutes: number): string {
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

// ---------------------------------------------------------------------------------------------
// Teachers: written out by hand, they are few and people look at them.

interface TeacherSpec extends Omit<DemoTeacher, 'created_at'> {
  joined_days_ago: number;
}

const TEACHERS: TeacherSpec[] = [
  {
    first_name: 'Anjali',
    last_name: 'Deshpande',
    email: 'anjali.deshpande@example.com',
    phone_number: '+919822041567',
    subjects: ['Mathematics'],
    classes_assigned: ['9', '10'],
    qualification: 'M.Sc. Mathematics, B.Ed.',
    experience_years: 12,
    address: 'B-302, Shanti Heights, Kothrud, Pune 411038',
    emergency_contact: 'Suresh Deshpande (husband), +91 98220 41560',
    joined_days_ago: 410,
  },
  {
    first_name: 'Rahul',
    last_name: 'Kulkarni',
    email: 'rahul.kulkarni@example.com',
    phone_number: '+919850312784',
    subjects: ['Physics', 'Science'],
    classes_assigned: ['9', '10'],
    qualification: 'M.Sc. Physics',
    experience_years: 8,
    address: '14, Prabhat Road, Erandwane, Pune 411004',
    emergency_contact: 'Meghana Kulkarni (wife), +91 98503 12700',
    joined_days_ago: 395,
  },
  {
    first_name: 'Priya',
    last_name: 'Nair',
    email: 'priya.nair@example.com',
    phone_number: '+919767455021',
    subjects: ['Chemistry', 'Science'],
    classes_assigned: ['8', '9', '10'],
    qualification: 'M.Sc. Chemistry, B.Ed.',
    experience_years: 6,
    address: 'Flat 7, Lakshmi Residency, Aundh, Pune 411007',
    emergency_contact: 'Krishnan Nair (father), +91 94470 23118',
    joined_days_ago: 380,
  },
  {
    first_name: 'Sandeep',
    last_name: 'Yadav',
    email: 'sandeep.yadav@example.com',
    phone_number: '+918983104476',
    subjects: ['Mathematics', 'Science', 'Computer Science'],
    classes_assigned: ['7', '8'],
    qualification: 'B.Sc. Computer Science, B.Ed.',
    experience_years: 5,
    address: '22, Gulmohar Society, Karve Nagar, Pune 411052',
    emergency_contact: 'Ramesh Yadav (brother), +91 89831 04400',
    joined_days_ago: 300,
  },
  {
    first_name: 'Meera',
    last_name: 'Iyer',
    email: 'meera.iyer@example.com',
    phone_number: '+919881276530',
    subjects: ['English'],
    classes_assigned: ['7', '8', '9', '10'],
    qualification: 'M.A. English Literature',
    experience_years: 15,
    address: 'C-11, Sahyadri Apartments, Baner, Pune 411045',
    emergency_contact: 'Venkat Iyer (husband), +91 98812 76500',
    joined_days_ago: 420,
  },
  {
    first_name: 'Vikram',
    last_name: 'Rathore',
    email: 'vikram.rathore@example.com',
    phone_number: '+917038621945',
    subjects: ['Social Studies'],
    classes_assigned: ['7', '8', '9', '10'],
    qualification: 'M.A. History, B.Ed.',
    experience_years: 10,
    address: '5, Shivneri Colony, Warje, Pune 411058',
    emergency_contact: 'Sunita Rathore (wife), +91 70386 21900',
    joined_days_ago: 350,
  },
  {
    first_name: 'Kavita',
    last_name: 'Joshi',
    email: 'kavita.joshi@example.com',
    phone_number: '+919922587314',
    subjects: ['Hindi'],
    classes_assigned: ['7', '8', '9'],
    qualification: 'M.A. Hindi, B.Ed.',
    experience_years: 9,
    address: '38/2, Shaniwar Peth, Pune 411030',
    emergency_contact: 'Anand Joshi (husband), +91 99225 87300',
    joined_days_ago: 330,
  },
  {
    first_name: 'Farah',
    last_name: 'Khan',
    email: 'farah.khan@example.com',
    phone_number: '+919657748203',
    subjects: ['Biology', 'Science'],
    classes_assigned: ['8', '9', '10'],
    qualification: 'M.Sc. Zoology',
    experience_years: 4,
    address: 'A-9, Crescent Towers, Kondhwa, Pune 411048',
    emergency_contact: 'Imran Khan (brother), +91 96577 48200',
    joined_days_ago: 150,
  },
];

/** Who usually marks each class (index into TEACHERS). */
const CLASS_TEACHER: Record<ClassName, number> = { '7': 3, '8': 6, '9': 2, '10': 0 };
/** Classes meet one after another in the afternoon; attendance is taken at the start. */
const CLASS_STARTS: Record<ClassName, number> = { '7': 15, '8': 16, '9': 17, '10': 18 };

// ---------------------------------------------------------------------------------------------
// Students.

interface Family {
  community: Community;
  surname: string;
  parent_name: string;
  parent_phone: string;
  children: number;
}

function makeStudents(
  random: Random,
  clock: Clock,
): { students: DemoStudent[]; reliability: number[]; importDay: string } {
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
          COMMUNITIES.map((c) => [c, c.weight] as const),
        );
        const surname = pick(random, community.surnames);
        const parent =
          random() < 0.75
            ? `${pick(random, community.fathers)} ${surname}`
            : `${pick(random, community.mothers)} ${community.motherSurname ?? surname}`;
        family = { community, surname, parent_name: parent, parent_phone: newPhone(), children: 0 };
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
        },
        reliability: 0.8 + random() * 0.18,
      });
    }
  }

  // Most came in the start-of-term import; the rest joined one by one since, in no class order.
  const importDay = addDays(clock.today, -between(random, 95, 110));
  const order = drafts.map((draft, index) => ({ draft, index, key: random() }));
  order.sort((a, b) => a.key - b.key);
  const lateJoiners = 18;
  const joinedDaysAgo = Array.from({ length: lateJoiners }, () => between(random, 32, 90)).sort((a, b) => b - a);
  const students: DemoStudent[] = [];
  const reliability: number[] = [];
  order.forEach(({ draft }, position) => {
    const imported = position < order.length - lateJoiners;
    const day = imported
      ? importDay
      : addDays(clock.today, -(joinedDaysAgo[position - (order.length - lateJoiners)] ?? 40));
    students.push({
      ...draft.student,
      imported,
      created_at: imported ? clock.at(day, 11, 20) : clock.at(day, between(random, 10, 19), between(random, 0, 59)),
    });
    reliability.push(draft.reliability);
  });
  return { students, reliability, importDay };
}

// ---------------------------------------------------------------------------------------------
// Attendance.

const LATE_REMARKS = [
  'School bus was late',
  'Came after the first 15 minutes',
  'Traffic on Karve Road',
  null,
  null,
  null,
];
const ABSENT_REMARKS = ['Unwell', 'No information from parent', 'Fever', null, null];
const LEAVE_REMARKS = ['Family function', 'Medical appointment', 'Out of town', 'School exam', 'Sick leave'];

function studentStatus(random: Random, reliability: number): { status: AttendanceStatus; remarks: string | null } {
  if (random() < reliability) {
    if (random() < 0.07) return { status: 'late', remarks: pick(random, LATE_REMARKS) };
    return { status: 'present', remarks: null };
  }
  if (random() < 0.6) return { status: 'absent', remarks: pick(random, ABSENT_REMARKS) };
  return { status: 'leave', remarks: pick(random, LEAVE_REMARKS) };
}

function teacherMark(random: Random, teacher: number): DemoTeacherMark {
  const status = weighted<TeacherAttendanceStatus>(random, [
    ['present', 88],
    ['half_day', 4],
    ['on_leave', 4],
    ['absent', 4],
  ]);
  const checkIn = clock(14, between(random, 25, 59));
  switch (status) {
    case 'present':
      return {
        teacher,
        status,
        remarks: null,
        check_in_time: checkIn,
        check_out_time: clock(between(random, 19, 20), between(random, 0, 59)),
      };
    case 'half_day':
      return {
        teacher,
        status,
        remarks: pick(random, ['Left early for a doctor’s appointment', 'Left after the first two periods']),
        check_in_time: checkIn,
        check_out_time: clock(17, between(random, 0, 30)),
      };
    case 'on_leave':
      return {
        teacher,
        status,
        remarks: pick(random, ['Sick leave', 'Casual leave', 'Family wedding']),
        check_in_time: null,
        check_out_time: null,
      };
    default:
      return {
        teacher,
        status,
        remarks: pick(random, ['Did not inform', null]),
        check_in_time: null,
        check_out_time: null,
      };
  }
}

function classTeachers(className: ClassName): number[] {
  return TEACHERS.flatMap((teacher, index) => (teacher.classes_assigned.includes(className) ? [index] : []));
}

// ---------------------------------------------------------------------------------------------
// Messages to parents.

interface SendSpec {
  days_ago: number;
  hours: number;
  minutes: number;
  class_name: ClassName | null;
  sent_by: number | null;
  subject: string;
  message: string;
}

const SENDS: SendSpec[] = [
  {
    days_ago: 27,
    hours: 11,
    minutes: 5,
    class_name: null,
    sent_by: null,
    subject: 'Fee reminder',
    message:
      'Dear parent, this month’s tuition fee is due by the 10th. Please pay at the front desk or by UPI to the centre’s account. Kindly ignore this if you have already paid.',
  },
  {
    days_ago: 21,
    hours: 19,
    minutes: 40,
    class_name: '10',
    sent_by: 0,
    subject: 'Mathematics unit test on Saturday',
    message:
      'Dear parent, Class 10 will have a Mathematics unit test this Saturday at 3 pm on chapters 1 to 4 (Real Numbers to Quadratic Equations). Please make sure your child revises the worked examples.',
  },
  {
    days_ago: 15,
    hours: 12,
    minutes: 30,
    class_name: null,
    sent_by: null,
    subject: 'Parent–teacher meeting',
    message:
      'Dear parent, we invite you to the parent–teacher meeting next Saturday between 10 am and 1 pm at the centre. The teachers will share your child’s progress and test results.',
  },
  {
    days_ago: 10,
    hours: 20,
    minutes: 10,
    class_name: '9',
    sent_by: 2,
    subject: 'Chemistry practical notebook',
    message:
      'Dear parent, please remind your child to bring the Chemistry practical notebook, completed up to the experiment on separation of mixtures, on Monday.',
  },
  {
    days_ago: 6,
    hours: 18,
    minutes: 15,
    class_name: '7',
    sent_by: 3,
    subject: 'Unit test results',
    message:
      'Dear parent, the results of last week’s Mathematics and Science unit tests are ready. Your child will bring the marked answer sheets home today; please sign and send them back.',
  },
  {
    days_ago: 2,
    hours: 11,
    minutes: 45,
    class_name: null,
    sent_by: null,
    subject: 'Revised timings during school exams',
    message:
      'Dear parent, during the school exams next week the centre will run extra doubt-clearing sessions from 11 am to 1 pm, Monday to Saturday. Regular classes keep their usual timings.',
  },
];

const FAILURE_REASONS = ['The parent’s device could not be reached', 'The phone number is not registered for messages'];

function makeSends(random: Random, clock: Clock, students: DemoStudent[], schoolDays: string[]): DemoSend[] {
  return SENDS.map((spec, index) => {
    let date = addDays(clock.today, -spec.days_ago);
    while (isSunday(date) && date > (schoolDays[0] as string)) date = addDays(date, -1);
    const sentAt = clock.at(date, spec.hours, spec.minutes, between(random, 0, 59));
    const latest = index === SENDS.length - 1;
    const parents = new Map<string, string>();
    for (const student of students) {
      if (spec.class_name !== null && student.class_name !== spec.class_name) continue;
      if (!parents.has(student.parent_phone)) parents.set(student.parent_phone, student.parent_name);
    }
    const recipients = [...parents.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([phone, name]): DemoRecipient => {
        const status = weighted<DeliveryStatus>(
          random,
          latest
            ? [
                ['delivered', 60],
                ['sent', 35],
                ['failed', 5],
              ]
            : [
                ['delivered', 91],
                ['sent', 5],
                ['failed', 4],
              ],
        );
        const deliveredAt =
          status === 'delivered'
            ? new Date(
                Math.min(Date.parse(sentAt) + between(random, 5, 90 * 60) * 1000, clock.now.getTime() - 30_000),
              ).toISOString()
            : null;
        return {
          phone,
          name,
          delivery_status: status,
          delivered_at: deliveredAt,
          failure_reason: status === 'failed' ? pick(random, FAILURE_REASONS) : null,
        };
      });
    return {
      subject: spec.subject,
      message: spec.message,
      class_name: spec.class_name,
      sent_by: spec.sent_by,
      sent_at: sentAt,
      recipients,
    };
  });
}

// ---------------------------------------------------------------------------------------------

/** The whole demo centre as of `now`. The same seed gives the same centre, shifted to end on `now`. */
export function buildDemoCentre(now: Date = new Date(), seed: number = DEMO_SEED): DemoCentre {
  const time = new Clock(now);
  const { students, reliability, importDay } = makeStudents(stream(seed, 'students'), time);
  const teachers: DemoTeacher[] = TEACHERS.map(({ joined_days_ago, ...teacher }) => ({
    ...teacher,
    subjects: [...teacher.subjects],
    classes_assigned: [...teacher.classes_assigned],
    created_at: time.at(addDays(time.today, -joined_days_ago), 10, 30),
  }));

  const schoolDays: string[] = [];
  for (let back = DEMO_DAYS - 1; back >= 0; back -= 1) {
    const date = addDays(time.today, -back);
    if (!isSunday(date)) schoolDays.push(date);
  }

  const activities: DemoActivity[] = [];
  activities.push({
    kind: 'students_imported',
    at: time.at(importDay, 11, 20),
    count: students.filter((s) => s.imported).length,
  });
  students.forEach((student, index) => {
    if (!student.imported) activities.push({ kind: 'student_created', at: student.created_at, student: index });
  });
  teachers.forEach((teacher, index) => {
    activities.push({ kind: 'teacher_created', at: teacher.created_at, teacher: index });
  });

  const attendanceRandom = stream(seed, 'attendance');
  const teacherRandom = stream(seed, 'teacher-attendance');
  const byClass = new Map<ClassName, number[]>();
  students.forEach((student, index) => {
    byClass.set(student.class_name, [...(byClass.get(student.class_name) ?? []), index]);
  });

  const days: DemoDay[] = schoolDays.map((date, dayIndex) => {
    const open = dayIndex >= schoolDays.length - OPEN_DAYS;
    const classes: DemoClassMarking[] = [];
    for (const [className] of CLASS_SIZES) {
      // Every student joined before the first of these days, so each class's roster is whole.
      const roster = byClass.get(className) ?? [];
      const others = classTeachers(className);
      const markedBy = attendanceRandom() < 0.85 ? CLASS_TEACHER[className] : pick(attendanceRandom, others);
      const marks = roster.map((student) => ({
        student,
        ...studentStatus(attendanceRandom, reliability[student] as number),
      }));
      // Today one class waits to be marked; its marks were drawn all the same, to keep the draws in step.
      if (date === time.today && className === UNMARKED_TODAY) continue;
      const markedAt = time.at(
        date,
        CLASS_STARTS[className],
        between(attendanceRandom, 5, 25),
        between(attendanceRandom, 0, 59),
      );
      classes.push({ class_name: className, marked_by: markedBy, marked_at: markedAt, marks });
      activities.push({
        kind: 'attendance_marked',
        at: markedAt,
        teacher: markedBy,
        count: marks.length,
        class_name: className,
        date,
      });
    }
    const approvedAt = open
      ? null
      : time.at(date, 20, between(attendanceRandom, 35, 59), between(attendanceRandom, 0, 59));
    if (approvedAt) {
      activities.push({
        kind: 'attendance_approved',
        at: approvedAt,
        count: classes.reduce((sum, marking) => sum + marking.marks.length, 0),
      });
    }

    const teacherMarks = TEACHERS.map((_, index) => teacherMark(teacherRandom, index));
    const teachersMarkedAt = time.at(date, 20, between(teacherRandom, 10, 25));
    activities.push({ kind: 'teacher_attendance_marked', at: teachersMarkedAt, count: teacherMarks.length, date });
    const lockedAt = open ? null : time.at(date, 21, between(teacherRandom, 0, 30));
    if (lockedAt)
      activities.push({ kind: 'teacher_attendance_locked', at: lockedAt, count: teacherMarks.length, date });
    return {
      date,
      classes,
      approved_at: approvedAt,
      teachers: teacherMarks,
      teachers_marked_at: teachersMarkedAt,
      locked_at: lockedAt,
    };
  });

  const sends = makeSends(stream(seed, 'messages'), time, students, schoolDays);
  sends.forEach((send, index) => {
    activities.push({ kind: 'sent_to_parents', at: send.sent_at, send: index });
  });

  activities.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return { students, teachers, days, sends, activities };
}

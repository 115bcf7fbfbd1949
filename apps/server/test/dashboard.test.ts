import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { today } from '../src/lib/time';
import { type Caller, type TestClient, testClient, testClientForBlock } from './helpers/client';

let api: TestClient;
beforeAll(async () => {
  api = await testClient();
});
afterAll(async () => {
  await api?.close();
});

function summary(caller: Caller) {
  return caller.get('/api/v1/dashboard/summary');
}

describe('GET /dashboard/summary', () => {
  it('answers zeros on an empty centre', async () => {
    const response = await summary(api.as('admin'));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      date: today(),
      total_students: 0,
      total_teachers: 0,
      active_classes: 0,
      pending_approval: 0,
      messages_sent: 0,
      not_reached: 0,
      reach: { families: 0, in_app: 0, whatsapp: 0, no_channel: 0 },
      attendance_rate: 0,
      classes_without_attendance: [],
      classes_not_marked: [],
    });
  });

  it('counts the centre for admins and teachers, and lists the classes not marked today', async () => {
    const admin = api.as('admin');
    const seven = await api.student({ class_name: '7' });
    await api.student({ class_name: '7' });
    await api.student({ class_name: '10' });
    const nine = await api.student({ class_name: '9' });
    await api.teacher();
    // The test teacher behind as('teacher') is the second teacher, created before anything is counted.
    await api.teacherToken();
    const marked = await admin.post('/api/v1/attendance/mark', {
      date: today(),
      records: [
        { student_id: seven.id, status: 'present' },
        { student_id: nine.id, status: 'absent' },
      ],
    });
    expect(marked.statusCode).toBe(200);
    const ids = (await api.db.query<{ id: number }>('SELECT id FROM attendance WHERE student_id = $1', [seven.id])).map(
      (row) => row.id,
    );
    await admin.post('/api/v1/attendance/approve', { attendance_ids: ids });
    await admin.post('/api/v1/messages/send-to-parents', {
      subject: 'Holiday',
      message: 'Closed on Monday',
      recipients: '10',
    });

    for (const caller of [admin, api.as('teacher')]) {
      const response = await summary(caller);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        total_students: 4,
        total_teachers: 2, // the one above and the one behind teacherToken()
        active_classes: 3,
        pending_approval: 1,
        messages_sent: 1,
        attendance_rate: 100,
        // Class 7 has a record today (one of its two students), class 9 too; class 10 has none.
        classes_without_attendance: [{ class_name: '10', students: 1 }],
      });
    }
  });

  it("lists a centre's own class not marked today beside the spec's classes", async () => {
    // A batch named in words: the list was ordered by the class as a number, and a batch made the summary a 500.
    const created = await api.as('admin').post('/api/v1/classes', { value: 'Morning batch' });
    expect(created.statusCode).toBe(201);
    await api.student({ class_name: 'Morning batch' });
    const response = await summary(api.as('admin'));
    expect(response.statusCode).toBe(200);
    expect(response.json().classes_without_attendance).toEqual([
      { class_name: '10', students: 1 },
      { class_name: 'Morning batch', students: 1 },
    ]);
  });

  it('needs a token', async () => {
    expect((await summary(api.anonymous())).statusCode).toBe(401);
  });
});

describe('families not reached', () => {
  it('counts the last week’s messages no channel reached after the set minutes, as the call list lists them', async () => {
    const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    const message = async (phone: string, sentAt: string, status: string, callRequested = false) => {
      const [row] = await api.db.query<{ id: number }>(
        `INSERT INTO messages (message_type, kind, subject, message, recipient, sent_by, sent_at, delivery_status, call_requested_at)
         VALUES ('IN_APP', 'notice', 'Closed on Friday', 'The centre is closed on Friday.', $1, 'admin', $2, $3,
                 CASE WHEN $4::boolean THEN now() END)
         RETURNING id`,
        [phone, sentAt, status, callRequested],
      );
      return row?.id as number;
    };
    const notReached = async () => ((await summary(api.as('teacher'))).json() as { not_reached: number }).not_reached;
    const before = await notReached();
    const waitingBefore = (await api.as('teacher').get('/api/v1/communications/call-list')).json().waiting_count;
    await message('+919800000101', ago(29), 'sent'); // not yet: the centre gives it 30 minutes
    await message('+919800000102', ago(32), 'sent'); // not reached
    await message('+919800000103', ago(32), 'delivered'); // reached
    await message('+919800000104', ago(5), 'failed'); // failed at once
    await message('+919800000105', ago(3), 'delivered', true); // reached, but asked for a call
    await message('+919800000106', ago(8 * 24 * 60), 'sent'); // too old to call about
    await message('+919800000107', ago(8 * 24 * 60), 'failed');

    // Not reached: the one unproven after 30 minutes and the failed one; the family that asked for a
    // call was reached, so it is on the list to ring but not "not reached" (ADR 044).
    expect(await notReached()).toBe(before + 2);
    const list = (await api.as('teacher').get('/api/v1/communications/call-list')).json() as {
      items: { phone: string }[];
      waiting_count: number;
      not_reached_families: number;
    };
    const mine = list.items.map((item) => item.phone).filter((phone) => phone.startsWith('+9198000001'));
    expect(mine.sort()).toEqual(['+919800000102', '+919800000104', '+919800000105']);
    expect(list.not_reached_families).toBe(before + 2);
    expect(list.waiting_count).toBe(waitingBefore + 3);
  });
});

/**
 * A crowd asking for the dashboard at once: one build of its answer per versions and minute, whose
 * text they all share, kept answers or not. The build's first statement (the centre's counts) is held
 * until every request of the crowd has asked for the answer, so that all of them are waiting at once
 * whatever the machine's speed; the statements that build it are counted.
 */
describe.each([
  ['with kept answers', {}],
  ['with none kept (ANSWER_CACHE_MB=0)', { config: { answerCacheBytes: 0 } }],
])('the dashboard under a crowd, %s', (_label, options) => {
  const client = testClientForBlock(options);
  const CROWD = 12;
  const COUNTS = 'AS total_students';

  /**
   * Sends CROWD dashboard requests at once, in one minute and with no write meanwhile. `held` decides
   * what the first build's counts statement does once the whole crowd waits: run (undefined), or fail.
   * Answers the responses and how many times the counts statement was asked for.
   */
  async function crowd(held?: Error): Promise<{ responses: LightMyRequestResponse[]; builds: () => number }> {
    const api = client();
    const token = await api.adminToken();
    // A write first: the answer of these versions has never been built.
    await api.student({ class_name: '8' });
    const db = api.ctx.db as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const answers = api.ctx.answers as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const query = db.queryCached as (...args: unknown[]) => Promise<unknown>;
    const get = answers.get as (...args: unknown[]) => Promise<unknown>;
    let asked = 0;
    let builds = 0;
    let release: () => void = () => {};
    const everyoneWaits = new Promise<void>((resolve) => {
      release = resolve;
    });
    answers.get = function (this: unknown, ...args: unknown[]) {
      if (String(args[0]).startsWith('GET\n/api/v1/dashboard/summary')) {
        asked += 1;
        if (asked === CROWD) release();
      }
      return get.apply(this, args);
    };
    db.queryCached = async function (this: unknown, ...args: unknown[]) {
      if (String(args[0]).includes(COUNTS)) {
        builds += 1;
        if (builds === 1) {
          await everyoneWaits;
          if (held) throw held;
        }
      }
      return query.apply(this, args);
    };
    // One minute for the whole crowd, and the requests after it (until the test ends): the answer is
    // named by the minute too.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Math.ceil(Date.now() / 60_000) * 60_000 + 30_000);
    try {
      const responses = await Promise.all(
        Array.from({ length: CROWD }, () =>
          api.withToken(token).get('/api/v1/dashboard/summary', { headers: { 'accept-encoding': 'identity' } }),
        ),
      );
      return { responses, builds: () => builds };
    } finally {
      db.queryCached = query;
      answers.get = get;
    }
  }
  afterEach(() => {
    vi.useRealTimers();
  });

  it('builds its answer once; every request gets it, under one tag', async () => {
    const { responses, builds } = await crowd();
    expect(responses.map((response) => response.statusCode)).toEqual(Array(CROWD).fill(200));
    expect(builds()).toBe(1);
    const first = responses[0] as LightMyRequestResponse;
    expect(first.headers.etag).toBeDefined();
    for (const response of responses) {
      expect(response.body).toBe(first.body);
      expect(response.headers.etag).toBe(first.headers.etag);
    }
    expect((first.json() as { total_students: number }).total_students).toBeGreaterThan(0);
  });

  it('a build that fails fails those waiting for it, untagged, and no later request', async () => {
    const { responses, builds } = await crowd(new Error('the database went away'));
    expect(responses.map((response) => response.statusCode)).toEqual(Array(CROWD).fill(500));
    expect(responses.every((response) => response.headers.etag === undefined)).toBe(true);
    expect(builds()).toBe(1);
    // The failure is not kept: the next request (the same minute, the same versions) builds the answer
    // anew and gets it, tagged.
    const next = await client().as('admin').get('/api/v1/dashboard/summary');
    expect(next.statusCode).toBe(200);
    expect(next.headers.etag).toBeDefined();
    const counted = await client().db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM students WHERE left_on IS NULL',
    );
    expect((next.json() as { total_students: number }).total_students).toBe(counted[0]?.count);
  });
});

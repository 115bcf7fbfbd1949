// A simulated console: `staff` people signed in, each on a screen that polls every 30 seconds as the
// console does (the sidebar's pending badge and the activity bell on every screen, plus the
// screen's own reads), sending back the entity tag of what they hold; meanwhile one person marks
// attendance once a second. Measures how many polls were answered 304 (nothing new), their latency,
// and the server's CPU.
import { readFileSync } from 'node:fs';
import type { PollingFigures } from '../figures';
import type { BenchServer } from '../support';
import { API } from './reads';

/** The server process's CPU time so far, in seconds (Linux: utime + stime of /proc/<pid>/stat). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // After the command name: state is field 3, so utime (14) and stime (15) are at 11 and 12.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** What each screen polls besides the badge and the bell (`day`: the pending day). */
function screens(day: string): Record<string, string[]> {
  return {
    dashboard: ['/dashboard/summary', '/activities/recent?limit=10'],
    approval: [`/attendance/pending-approval?attendance_date=${day}`],
    students: ['/students/'],
    teachers: ['/teachers/'],
    messages: ['/communications/history'],
    history: [`/attendance/history/page?start_date=${day.slice(0, 8)}01&end_date=${day}&limit=25`],
  };
}
const ON_EVERY_SCREEN = ['/attendance/pending-approval', '/activities/recent?unread_only=true&limit=20'];

export async function simulatedConsole(
  server: BenchServer,
  options: { day: string; staff: number; seconds: number; intervalMs: number; studentIds: number[] },
): Promise<PollingFigures> {
  const screenList = Object.entries(screens(options.day));
  // Everyone polls as the admin (one account): answers that differ by person (the activity bell)
  // are then shared, so the 304 share of the bell is a little higher than fifty accounts would see.
  const people = Array.from({ length: options.staff }, (_, index) => {
    const [screen, reads] = screenList[index % screenList.length] as [string, string[]];
    return { screen, urls: [...ON_EVERY_SCREEN, ...reads], etags: new Map<string, string>() };
  });
  const byUrl = new Map<
    string,
    { ok: number; notModified: number; conditional: number; latencies: number[]; bytes: number }
  >();
  const errors: string[] = [];
  const headers = { authorization: `Bearer ${server.token}`, 'accept-encoding': 'gzip, deflate, br' };

  async function poll(person: (typeof people)[number]): Promise<void> {
    await Promise.all(
      person.urls.map(async (url) => {
        const etag = person.etags.get(url);
        const started = performance.now();
        const response = await fetch(`${server.base}${API}${url}`, {
          headers: etag ? { ...headers, 'if-none-match': etag } : headers,
        });
        const body = await response.arrayBuffer();
        const elapsed = performance.now() - started;
        const key = url.replace(/\d{4}-\d{2}-\d{2}/g, 'DATE');
        const entry = byUrl.get(key) ?? { ok: 0, notModified: 0, conditional: 0, latencies: [], bytes: 0 };
        byUrl.set(key, entry);
        entry.latencies.push(elapsed);
        if (etag) entry.conditional += 1;
        if (response.status === 304) entry.notModified += 1;
        else if (response.ok) {
          entry.ok += 1;
          entry.bytes += body.byteLength;
          const next = response.headers.get('etag');
          if (next) person.etags.set(url, next);
        } else errors.push(`${url}: ${response.status}`);
      }),
    );
  }

  let writes = 0;
  let writeErrors = 0;
  const writeLatencies: number[] = [];
  const cpuBefore = cpuSeconds(server.pid);
  const started = performance.now();
  const end = started + options.seconds * 1000;
  const timers: NodeJS.Timeout[] = [];
  const inFlight = new Set<Promise<void>>();
  const track = (work: Promise<void>) => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  };
  // Each person opens the console at a moment of the first interval, then polls every interval.
  for (const person of people) {
    const first = Math.random() * options.intervalMs;
    const schedule = (at: number) => {
      if (started + at >= end) return;
      timers.push(
        setTimeout(() => {
          track(poll(person).catch((error: Error) => void errors.push(error.message)));
          schedule(at + options.intervalMs);
        }, at),
      );
    };
    schedule(first);
  }
  // The one writer: a student of the pending day marked absent or present, once a second.
  const writer = setInterval(() => {
    if (performance.now() >= end) return;
    const studentId = options.studentIds[writes % options.studentIds.length];
    const status = writes % 2 === 0 ? 'absent' : 'present';
    writes += 1;
    const began = performance.now();
    track(
      fetch(`${server.base}${API}/attendance/mark`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ date: options.day, records: [{ student_id: studentId, status }] }),
      }).then(async (response) => {
        await response.arrayBuffer();
        writeLatencies.push(performance.now() - began);
        if (!response.ok) writeErrors += 1;
      }),
    );
  }, 1000);
  await new Promise((resolve) => setTimeout(resolve, options.seconds * 1000));
  clearInterval(writer);
  for (const timer of timers) clearTimeout(timer);
  await Promise.all([...inFlight]);
  const wallSeconds = (performance.now() - started) / 1000;
  const cpu = cpuSeconds(server.pid) - cpuBefore;

  const calls = [...byUrl.entries()].map(([url, entry]) => ({
    url,
    polls: entry.ok + entry.notModified,
    conditional: entry.conditional,
    not_modified: entry.notModified,
    p50_ms: Math.round(percentile(entry.latencies, 50)),
    p99_ms: Math.round(percentile(entry.latencies, 99)),
    kb_received: Math.round(entry.bytes / 1024),
  }));
  const polls = calls.reduce((sum, call) => sum + call.polls, 0);
  const notModified = calls.reduce((sum, call) => sum + call.not_modified, 0);
  const conditional = calls.reduce((sum, call) => sum + call.conditional, 0);
  return {
    staff: options.staff,
    interval_s: options.intervalMs / 1000,
    seconds: Math.round(wallSeconds),
    writes,
    write_errors: writeErrors,
    write_p50_ms: Math.round(percentile(writeLatencies, 50)),
    polls,
    conditional,
    not_modified: notModified,
    // Of the polls that could be answered 304: those sent with the tag of an answer held (a person's
    // first read of each address, as the console opens, holds none).
    not_modified_share: conditional === 0 ? 0 : notModified / conditional,
    poll_errors: errors.length,
    server_cpu_share: cpu / wallSeconds,
    calls,
  };
}

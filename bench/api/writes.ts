// The large centre's writes: a send to every parent until each push reached the fake push service,
// approving 200 pending records at a time, and imports of a 5,000-row and a 500-row workbook.
import type { FakePushService } from '../fake-push';
import type { ApproveResult, ImportResult, SendResult } from '../figures';
import { type BenchServer, median, workbookFile } from '../support';
import { sampleRss } from './measure';
import { API } from './reads';

const json = (server: BenchServer) => ({
  authorization: `Bearer ${server.token}`,
  'content-type': 'application/json',
});

/** Sends to all parents (one device each on the fake push service) and waits for every push. */
export async function sendToAllParents(
  server: BenchServer,
  push: FakePushService,
  devices: number,
): Promise<SendResult> {
  const started = performance.now();
  const sent = await fetch(`${server.base}${API}/messages/send-to-parents`, {
    method: 'POST',
    headers: json(server),
    body: JSON.stringify({ subject: 'Holiday', message: 'The centre is closed on Friday.', recipients: 'all_parents' }),
  });
  const body = (await sent.json()) as { recipients_count: number };
  const answered = performance.now();
  if (!sent.ok) throw new Error(`send answered ${sent.status}: ${JSON.stringify(body)}`);
  const lastPush = await push.waitFor(devices, 300_000);
  return {
    recipients: body.recipients_count,
    devices,
    answer_ms: answered - started,
    drained_s: (lastPush - started) / 1000,
    malformed: push.state.malformed,
  };
}

/** Approves the day's pending records 200 at a time, one call after another, 20 times at most. */
export async function approveInHundreds(server: BenchServer, day: string): Promise<ApproveResult> {
  const pending = (await fetch(`${server.base}${API}/attendance/pending-approval?attendance_date=${day}`, {
    headers: { authorization: `Bearer ${server.token}` },
  }).then((r) => r.json())) as { id: number }[];
  const times: number[] = [];
  for (let i = 0; i < 20 && (i + 1) * 200 <= pending.length; i += 1) {
    const ids = pending.slice(i * 200, (i + 1) * 200).map((record) => record.id);
    const started = performance.now();
    const response = await fetch(`${server.base}${API}/attendance/approve`, {
      method: 'POST',
      headers: json(server),
      body: JSON.stringify({ attendance_ids: ids }),
    });
    await response.text();
    if (!response.ok) throw new Error(`approve answered ${response.status}`);
    times.push(performance.now() - started);
  }
  return { runs: times.length, median_ms: median(times), max_ms: Math.max(...times) };
}

/** A workbook of `rows` new students or teachers. */
function workbook(kind: ImportResult['kind'], rows: number): Blob {
  const sheet: string[][] = [];
  if (kind === 'students') {
    sheet.push(['full_name', 'class_name', 'parent_phone', 'parent_name']);
    for (let i = 0; i < rows; i += 1)
      sheet.push([`Imported Pupil ${i}`, String(7 + (i % 4)), `+9196${String(i).padStart(8, '0')}`, `Guardian ${i}`]);
  } else {
    sheet.push(['first_name', 'last_name', 'email', 'phone_number', 'subjects', 'classes_assigned']);
    for (let i = 0; i < rows; i += 1)
      sheet.push([
        'Imported',
        `Tutor${i}`,
        `imported.tutor${i}@centre.example`,
        `+9195${String(i).padStart(8, '0')}`,
        'Mathematics',
        '7, 8',
      ]);
  }
  return workbookFile(kind, sheet);
}

/** Imports a workbook through the API, with the server's peak memory meanwhile. */
export async function importWorkbook(
  server: BenchServer,
  kind: ImportResult['kind'],
  rows: number,
): Promise<ImportResult> {
  const body = new FormData();
  body.append('file', workbook(kind, rows), `${kind}.xlsx`);
  const sampler = sampleRss(server.pid);
  const started = performance.now();
  const response = await fetch(`${server.base}${API}/import/${kind}/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}` },
    body,
  });
  const answer = (await response.json()) as { imported_count?: number; imported?: number };
  const seconds = (performance.now() - started) / 1000;
  const peak = sampler.stop();
  if (!response.ok) throw new Error(`import answered ${response.status}: ${JSON.stringify(answer).slice(0, 200)}`);
  return { kind, rows, imported: answer.imported_count ?? answer.imported ?? 0, seconds, peak_rss_mb: peak };
}

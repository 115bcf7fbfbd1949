import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/database';
import { KeptValues, textBytes } from '../db/read-cache';
import { COMPRESSION_THRESHOLD, compressText, keptEncoding } from '../plugins/compression';
import { Gate } from './gate';
import { centreTimeZone, today } from './time';

/** The kinds of data whose versions the database keeps (migration 0010): each names a few tables. */
export const DATA_KINDS = [
  'accounts',
  'activities',
  'attendance',
  'families',
  'fees',
  'messages',
  'settings',
  'students',
  'teacher_attendance',
  'teachers',
] as const;
export type DataKind = (typeof DATA_KINDS)[number];

/** What a list answer is built from, beyond its route and query. */
export interface AnswerDependencies {
  /** The kinds of data it reads: a write to any of them makes a new answer. */
  kinds: readonly DataKind[];
  /** Its text differs by caller (their unread marks, their classes): the caller's id is part of its name. */
  perUser?: boolean;
  /** It changes with the clock ("5 minutes ago", families not reached after 30 minutes): once a minute. */
  perMinute?: boolean;
}

/** An answer as built, and whether it is the answer of the name it was built under. */
export interface BuiltAnswer {
  text: string;
  /**
   * Nothing its name says moved while it was built: the versions of its kinds, read again once it was
   * built, are still those it is named by (and the date and the minute, where they are part of the
   * name). Only then is it the one answer of that name, to be kept and tagged with it; otherwise it
   * holds data newer than its name and is sent as it is, untagged and not kept.
   */
  named: boolean;
}

/**
 * Texts kept even where the read cache holds the text of the large answers (`keepText` false): a
 * small answer is mostly put together from several reads (the dashboard from six, one of them not
 * kept by the read cache) and would otherwise be put together again by every request; keeping it
 * costs next to nothing.
 */
const SMALL_TEXT_BYTES = 16 * 1024;

/**
 * Built answers, kept by name (route, query, caller where it matters, and the data versions they were
 * built under), the least recently used dropped first once `maxBytes` is reached; an answer over a
 * quarter of it is not kept. An answer is only ever served under the versions it was built under, so
 * a write on any instance (which raises a version in its own transaction) makes the next read build
 * anew: nothing is invalidated, nothing can be stale. An answer whose versions moved while it was
 * built is not kept (`BuiltAnswer.named`). `maxBytes` 0 keeps nothing. `keepText` false keeps the
 * compressed answers and only small texts (`SMALL_TEXT_BYTES`): the embedded database's read cache
 * already holds the text of a large one, and keeping it twice would spend the memory twice.
 *
 * Whether or not it keeps them, callers asking for an answer while it is being built wait for that
 * build and share it: one build per name (and so per versions, and per minute where the minute names
 * it) however many ask at once. A build that fails is shared only with those already waiting for it:
 * the next caller builds again.
 */
export class AnswerCache {
  private readonly kept: KeptValues;
  private readonly keepsText: boolean;
  /** Answers being built when nothing is kept (`maxBytes` 0), by name: shared until they settle. */
  private readonly building = new Map<string, Promise<BuiltAnswer>>();

  constructor(maxBytes: number, options: { keepText?: boolean } = {}) {
    this.kept = new KeptValues(maxBytes, 4);
    this.keeps = maxBytes > 0;
    this.keepsText = options.keepText ?? true;
  }

  /** Whether it keeps anything (0 bytes keeps nothing). */
  readonly keeps: boolean;

  /** The kept answer named `key`, the one being built, or `build()`'s (kept if it is `named`). */
  get(key: string, build: () => Promise<BuiltAnswer>): Promise<BuiltAnswer> {
    if (this.keeps) {
      return this.kept.get(
        key,
        build,
        (answer) => textBytes(answer.text),
        (answer) => answer.named && (this.keepsText || textBytes(answer.text) <= SMALL_TEXT_BYTES),
      );
    }
    const building = this.building.get(key);
    if (building) return building;
    const built = build();
    this.building.set(key, built);
    const settled = () => {
      if (this.building.get(key) === built) this.building.delete(key);
    };
    built.then(settled, settled);
    return built;
  }

  /** Bytes kept by `key` (a compressed answer), or `build()`'s. */
  getBytes(key: string, build: () => Promise<Buffer>): Promise<Buffer> {
    return this.kept.get(key, build, (bytes) => bytes.length);
  }

  /** The compressed answer kept by `key`, if there is one: sent without building its text again. */
  keptBytes(key: string): Promise<Buffer> | undefined {
    return this.keeps ? this.kept.peek<Buffer>(key) : undefined;
  }

  /** Bytes held now. */
  size(): number {
    return this.kept.size();
  }
}

/** Every kind's current version, in one small query (answered from the read cache on PGlite). */
async function readAllVersions(db: Queryable): Promise<ReadonlyMap<string, string>> {
  const rows = await db.queryCached<{ kind: string; version: string }>(
    'SELECT kind, version::text AS version FROM data_versions',
  );
  return new Map(rows.map((row) => [row.kind, row.version]));
}

/** The versions a request has read: once per request, whatever asks (its session check, its answer). */
const versionsOfRequest = new WeakMap<object, Promise<ReadonlyMap<string, string>>>();

/**
 * The current versions of `kinds`, as `kind=version` joined by commas in kind order. Asked for a
 * request, they are read once and the same versions serve everything the request builds.
 */
export async function readVersions(db: Queryable, kinds: readonly DataKind[], request?: object): Promise<string> {
  let all = request ? versionsOfRequest.get(request) : undefined;
  if (!all) {
    all = readAllVersions(db);
    if (request) versionsOfRequest.set(request, all);
  }
  const versions = await all;
  // The centre's zone too: answers hold timestamps printed with its offset, and days on its clock (ADR 042).
  return [
    ...[...new Set(kinds)].sort().map((kind) => `${kind}=${versions.get(kind) ?? ''}`),
    `zone=${centreTimeZone()}`,
  ].join(',');
}

/**
 * A value built from `kinds` of data, kept in `ctx.answers` by `name` and the kinds' versions (read
 * once for the request): while no write changes them, the value costs no query but the versions'.
 * Kept as JSON, so each caller gets its own copy.
 */
export async function keptUnderVersions<T>(
  ctx: { answers: AnswerCache; db: Queryable },
  request: object,
  kinds: readonly DataKind[],
  name: string,
  build: () => Promise<T>,
): Promise<T> {
  const versions = await readVersions(ctx.db, kinds, request);
  const answer = await ctx.answers.get(`${name}\n${versions}`, async () => {
    const text = JSON.stringify(await build());
    return { text, named: (await readVersions(ctx.db, kinds)) === versions };
  });
  return JSON.parse(answer.text) as T;
}

/**
 * A session check kept under the versions of what it reads (`keptUnderVersions`): `load` answers the
 * account's current token version and what the session carries, or null when the account is gone.
 * Answers what the session carries, or undefined when the token's version is not the account's.
 */
export async function keptSession<S>(
  ctx: { answers: AnswerCache; db: Queryable },
  request: object,
  kinds: readonly DataKind[],
  name: string,
  tokenVersion: number,
  load: () => Promise<{ token_version: number; session: S } | null>,
): Promise<S | undefined> {
  const account = await keptUnderVersions(ctx, request, kinds, `session\n${name}`, load);
  return account && account.token_version === tokenVersion ? account.session : undefined;
}

/** Does an If-None-Match header name this entity tag (a list of tags, or `*`)? */
export function matchesEntityTag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

/**
 * The name of a list answer: what it is built from, its route and query, the centre's date, the
 * caller and the minute where they matter (at `now`), and `versions`, the current versions of its
 * kinds.
 */
function answerName(request: FastifyRequest, dependencies: AnswerDependencies, versions: string, now: Date): string {
  return [
    request.method,
    request.url,
    today(now),
    dependencies.perUser ? `user=${request.user?.id ?? ''}` : '',
    dependencies.perMinute ? now.toISOString().slice(0, 16) : '',
    versions,
  ].join('\n');
}

/**
 * The entity tag of a list answer is a hash of its name (`answerName`, with the versions as the
 * request read them); weak (`W/`) for an answer streamed as it is read. Sets it on the reply and says
 * whether the client already holds that answer (`If-None-Match`, compared weakly).
 */
async function tagAnswer(
  ctx: { db: Queryable },
  request: FastifyRequest,
  reply: FastifyReply,
  dependencies: AnswerDependencies,
  weak = false,
): Promise<{ name: string; versions: string; unchanged: boolean }> {
  const versions = await readVersions(ctx.db, dependencies.kinds, request);
  const name = answerName(request, dependencies, versions, new Date());
  const etag = `${weak ? 'W/' : ''}"${createHash('sha256').update(name).digest('base64url').slice(0, 27)}"`;
  reply.header('etag', etag);
  return { name, versions, unchanged: matchesEntityTag(request.headers['if-none-match'], etag) };
}

/**
 * Sends a list answer with its tag: 304 with no body when the client already holds it, after one
 * small query for the versions and nothing else; otherwise the kept answer, or a new one from
 * `build` (one build at a time per name, shared by whoever asks meanwhile). The same data on any
 * instance has the same tag, so a console switched between instances still gets its 304s.
 *
 * A tag names one body. The versions are read before the answer is built, so a write committing in
 * between would leave a body of newer data under the older versions' tag, which an answer built
 * before that write (here or on another instance) already carries. So once built, the answer's name
 * is made again from the versions read anew and the clock: if anything in it moved, the answer is
 * sent as built, without a tag, and not kept; the next read names it by the new versions.
 */
export async function sendVersioned(
  ctx: { answers: AnswerCache; db: Queryable },
  request: FastifyRequest,
  reply: FastifyReply,
  dependencies: AnswerDependencies,
  build: () => Promise<string>,
): Promise<FastifyReply> {
  const { name, unchanged } = await tagAnswer(ctx, request, reply, dependencies);
  if (unchanged) return reply.code(304).send();
  // Compressed bytes are kept only for an answer built under its name: when they are there, they are
  // the answer, and its text (not kept for a large answer where the read cache holds the rows) is not
  // built again.
  const encoding = ctx.answers.keeps ? keptEncoding(request.headers['accept-encoding']) : undefined;
  const keptBytes = encoding ? ctx.answers.keptBytes(`${name}\nencoding=${encoding}`) : undefined;
  if (encoding && keptBytes) {
    return reply
      .type('application/json; charset=utf-8')
      .header('content-encoding', encoding)
      .header('vary', 'accept-encoding')
      .send(await keptBytes);
  }
  let answer: BuiltAnswer;
  try {
    answer = await ctx.answers.get(name, async () => {
      const text = await build();
      const versions = await readVersions(ctx.db, dependencies.kinds);
      return { text, named: answerName(request, dependencies, versions, new Date()) === name };
    });
  } catch (error) {
    // An error answer carries no tag: nothing may later be confirmed unchanged against it.
    reply.removeHeader('etag');
    throw error;
  }
  reply.type('application/json; charset=utf-8');
  // Newer than its name: no tag names it (the compression plugin compresses it as any answer).
  if (!answer.named) return reply.removeHeader('etag').send(answer.text);
  const { text } = answer;
  // A large answer is kept compressed too, in the encoding the client asks for: the next read of
  // unchanged data is sent without building or compressing anything.
  if (encoding && text.length >= COMPRESSION_THRESHOLD) {
    const bytes = await ctx.answers.getBytes(`${name}\nencoding=${encoding}`, () => compressText(text, encoding));
    return reply.header('content-encoding', encoding).header('vary', 'accept-encoding').send(bytes);
  }
  return reply.send(text);
}

/** Streamed answers being sent at once, in this process. */
export const STREAMS = new Gate(4);

/**
 * `sendVersioned` for answers too large to hold at once: the JSON array is sent as `parts` yields it
 * (each part the text of an array, `[]` included), never whole in memory. `parts` may keep each part
 * in the kept answers by its own name (`keep`): a part of unchanged data is then sent from memory,
 * each within the kept answers' bound, never the whole answer. A part's text must follow from its name
 * and the data's versions alone (and the caller, for `perUser`): every request to the route shares it.
 * A part is kept only if the versions did not move while it was built (as `sendVersioned`).
 *
 * Its entity tag is weak: the tag goes with the headers, before the parts are read, and a write
 * landing meanwhile shows in the parts not yet sent, so the tag cannot promise one body byte for byte
 * (a strong tag does). It still answers 304 while nothing changed: the versions it names never come
 * back once a write has moved them, so a body that holds such a write is never confirmed by it.
 */
export async function streamVersioned(
  ctx: { answers: AnswerCache; db: Queryable },
  request: FastifyRequest,
  reply: FastifyReply,
  dependencies: AnswerDependencies,
  parts: (keep: (part: string, build: () => Promise<string>) => Promise<string>) => AsyncIterable<string>,
): Promise<FastifyReply> {
  const { versions, unchanged } = await tagAnswer(ctx, request, reply, dependencies, true);
  if (unchanged) return reply.code(304).send();
  // Each stream holds its database page, its part and its compressor while it is sent: a few at once
  // keep the memory bounded however many are asked for, and cost no throughput (two cores are busy
  // with four). The place is left when the answer is sent or the client goes.
  let gone = false;
  const goneWhileWaiting = () => {
    gone = true;
  };
  reply.raw.once('close', goneWhileWaiting);
  const leave = await STREAMS.enter();
  reply.raw.off('close', goneWhileWaiting);
  if (gone) leave();
  else reply.raw.once('close', leave);
  // A part is named by the route, not the request: ranges that overlap share their days.
  const route = [
    request.method,
    request.routeOptions.url,
    dependencies.perUser ? `user=${request.user?.id ?? ''}` : '',
    versions,
  ].join('\n');
  const keep = async (part: string, build: () => Promise<string>) => {
    const kept = await ctx.answers.get(`${route}\npart=${part}`, async () => {
      const text = await build();
      return { text, named: (await readVersions(ctx.db, dependencies.kinds)) === versions };
    });
    return kept.text;
  };
  async function* joined() {
    yield '[';
    let first = true;
    for await (const part of parts(keep)) {
      const inner = part.slice(1, -1);
      if (inner === '') continue;
      yield first ? inner : `,${inner}`;
      first = false;
    }
    yield ']';
  }
  return reply.type('application/json; charset=utf-8').send(Readable.from(joined()));
}
